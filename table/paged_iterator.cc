#include "table/paged_iterator.h"

#include <algorithm>

#include "table/paged_layout.h"
#include "table/table_view.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

PagedIterator::PagedIterator(const PagedLayout* layout, bool compaction,
                             const ScanAhead& ahead, const ReadUse& use)
    : layout_(layout),
      view_(layout->view()),
      runs_(view_->mmap(), compaction, ahead.bytes, layout->page_bytes()),
      upper_(ahead.upper),
      packed_(PackSequenceAndType(view_->Surfaced(0), kTypeValue)),
      through_cache_(!compaction),
      use_(use),
      buf_(new std::string) {}

bool PagedIterator::LoadPage(uint64_t page, bool forward) {
  valid_ = false;
  runs_.Note(valid_page_ && (forward ? page == page_no_ + 1
                                     : page + 1 == page_no_));
  if (page < run_first_ || page >= run_first_ + run_count_) {
    // A value handed out must outlive the buffer (or the cached page)
    // when pinning asks.
    PinOrKeep(&buf_);
    PinOrRelease(&pin_);
    run_count_ = 0;
    if (through_cache_ && layout_->LookupPage(page, &pin_, &run_)) {
      run_first_ = page;
      run_count_ = 1;
    } else if (use_.no_io && !view_->mmap()) {
      Invalidate(CachedBlock::NeedsRead());
      return false;
    } else {
      // Forward, no further than the page the upper bound lies in.
      const uint64_t end = forward && upper_ != nullptr
                               ? layout_->PagesBelow(*upper_, page)
                               : layout_->pages();
      const uint64_t count =
          std::min(runs_.Next(), forward ? end - page : page + 1);
      const uint64_t first = forward ? page : page + 1 - count;
      Status s = layout_->ReadPages(first, count, buf_.get(), &run_, use_);
      if (!s.ok()) {
        Invalidate(s);
        return false;
      }
      run_first_ = first;
      run_count_ = count;
      if (through_cache_ && use_.fill) layout_->KeepPages(first, count, run_);
    }
  }
  page_no_ = page;
  valid_page_ = true;
  const uint32_t page_bytes = layout_->page_bytes();
  if (!page_.Parse(run_.data() + (page - run_first_) * page_bytes,
                   page_bytes)) {
    Invalidate(layout_->Damaged(page, "bad entry count"));
    return false;
  }
  return true;
}

void PagedIterator::Settle(uint32_t i) {
  Slice k, v;
  if (!page_.Entry(i, &k, &v)) {
    return Invalidate(layout_->Damaged(
        page_no_, "entry " + std::to_string(i) + " runs past its room"));
  }
  entry_ = i;
  key_.assign(k.data(), k.size());
  PutFixed64(&key_, packed_);
  user_key_ = Slice(key_.data(), k.size());
  value_ = v;
  valid_ = true;
}

void PagedIterator::SeekToFirst() {
  StartPositioning();
  if (LoadPage(0, true)) Settle(0);
}

void PagedIterator::SeekToLast() {
  StartPositioning();
  if (LoadPage(layout_->pages() - 1, false)) Settle(page_.size() - 1);
}

void PagedIterator::Seek(const Slice& target) {
  StartPositioning();
  if (use_.no_io && !view_->mmap() && !layout_->IndexLoaded()) {
    return Invalidate(CachedBlock::NeedsRead());
  }
  const PageIndex* index = nullptr;
  Status s = layout_->Index(&index);
  if (!s.ok()) return Invalidate(s);
  const Slice user_key = ExtractUserKey(target);
  const uint64_t page = index->SeekPage(user_key);
  if (page >= layout_->pages() || !LoadPage(page, true)) return;
  uint32_t at = 0;
  if (!page_.LowerBound(user_key, &at)) {
    return Invalidate(layout_->Damaged(page, "an entry runs past its room"));
  }
  if (at < page_.size()) {
    Settle(at);
  } else if (page + 1 < layout_->pages()) {
    if (LoadPage(page + 1, true)) Settle(0);
  }
  // The target's own key, at a sequence below the file's: it sorts after
  // the entry, so the answer is the next one.
  if (valid_ && view_->icmp().Compare(key_, target) < 0) Next();
}

void PagedIterator::SeekForPrev(const Slice& target) {
  SeekForPrevBySeek(target, view_->icmp());
}

void PagedIterator::Next() {
  assert(valid_);
  if (entry_ + 1 < page_.size()) return Settle(entry_ + 1);
  if (page_no_ + 1 >= layout_->pages()) {
    valid_ = false;
    return;
  }
  if (LoadPage(page_no_ + 1, true)) Settle(0);
}

void PagedIterator::Prev() {
  assert(valid_);
  if (entry_ > 0) return Settle(entry_ - 1);
  if (page_no_ == 0) {
    valid_ = false;
    return;
  }
  if (LoadPage(page_no_ - 1, false)) Settle(page_.size() - 1);
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
