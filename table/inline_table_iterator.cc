#include "table/inline_table_iterator.h"

#include <algorithm>

#include "table/inline_layout.h"
#include "table/robinhood_format.h"
#include "table/table_view.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

InlineTableIterator::InlineTableIterator(const TableView* table,
                                         const InlineLayout* layout,
                                         bool whole_file,
                                         const ScanAhead& ahead,
                                         const ReadUse& use)
    : table_(table),
      layout_(layout),
      slots_(layout->table()),
      verify_(kVerifyReads),
      whole_file_(whole_file),
      use_(use),
      key_ordered_(slots_.key_ordered()),
      packed_(PackSequenceAndType(table->Surfaced(0), kTypeValue)),
      runs_(table->mmap(), whole_file, ahead.bytes, slots_.paging().stride),
      upper_(ahead.upper),
      buf_(new std::string) {}

void InlineTableIterator::MakeKey(const Slice& stored,
                                  std::string* out) const {
  const uint32_t e = slots_.shape().elided;
  out->assign(slots_.key_order().prefix().data(), e);
  out->append(stored.data(), stored.size());
  PutFixed64(out, packed_);
}

Status InlineTableIterator::Read(uint64_t position, Slice* user_key,
                                 Slice* value) {
  const InlineTable& t = slots_;
  uint64_t slot = 0;
  Status s = t.SlotAt(position, &slot);
  if (!s.ok()) return s;
  const char* p = nullptr;
  s = ReadSlot(slot, &p);
  if (!s.ok()) return s;
  return t.DecodeSlot(p, slot, user_key, value);
}

Status InlineTableIterator::ReadSlot(uint64_t slot, const char** p) {
  const InlineTable& t = slots_;
  if (table_->mmap()) {
    Slice run;
    Status s = t.ReadRun(slot, 1, verify_, nullptr, &run);
    if (s.ok()) *p = run.data();
    return s;
  }
  if (slot >= t.num_slots()) return t.Damaged("slot run out of range", slot);
  const SlotPages& paging = t.paging();
  const uint64_t page = slot / paging.page_slots;
  if (!valid_page_ || page != page_) {
    const bool forward = !valid_page_ || page > page_;
    runs_.Note(valid_page_ && (forward ? page == page_ + 1 : page + 1 == page_));
    page_ = page;
    valid_page_ = true;
    if (page < run_first_ || page >= run_first_ + run_count_) {
      Status s = LoadRun(page, forward);
      if (!s.ok()) {
        valid_page_ = false;
        return s;
      }
    }
  }
  *p = run_.data() + paging.PageOffset(page) - paging.PageOffset(run_first_) +
       slot % paging.page_slots * paging.width;
  return Status::OK();
}

Status InlineTableIterator::LoadRun(uint64_t page, bool forward) {
  const InlineTable& t = slots_;
  // A value handed out must outlive the buffer (or the cached page) when
  // pinning asks.
  PinOrKeep(&buf_);
  PinOrRelease(&pin_);
  run_count_ = 0;
  if (!whole_file_ && t.LookupPage(page, &pin_, &run_)) {
    run_first_ = page;
    run_count_ = 1;
    return Status::OK();
  }
  if (use_.no_io) return CachedBlock::NeedsRead();
  uint64_t first = 0;
  uint64_t count = t.num_pages();
  // A compaction in hash order reads the slots in the order array's order:
  // the whole file at once rather than a page a slot; so does a scan that
  // has read many pages of a file not too large to hold.
  const bool whole =
      !key_ordered_ &&
      (whole_file_ || (!whole_failed_ && ++page_reads_ > kPageReadsBeforeWhole &&
                       t.paging().PageOffset(count) <= kMaxWholeScanBytes));
  if (!whole) {
    count = std::min(runs_.Next(), forward ? PagesBelowBound(page) - page
                                           : page + 1);
    first = forward ? page : page + 1 - count;
  }
  Status s = t.ReadPages(first, count, verify_, buf_.get(), &run_, use_);
  if (!s.ok() && whole && !whole_file_) {
    // A damaged page fails a scan only at its own entries: page by page.
    whole_failed_ = true;
    first = page;
    count = 1;
    s = t.ReadPages(first, count, verify_, buf_.get(), &run_, use_);
  }
  if (!s.ok()) return s;
  run_first_ = first;
  run_count_ = count;
  if (!whole_file_ && verify_ && use_.fill) t.KeepPages(first, count, run_);
  return Status::OK();
}

void InlineTableIterator::PrefetchPosition(uint64_t position) const {
  if (table_->mmap()) return slots_.PrefetchPosition(position);
  // Without mmap, where the run in memory holds the slot (a scan in hash
  // order that read the slots whole) and finding it reads nothing.
  uint64_t slot = 0;
  if (run_count_ == 0 || position >= slots_.num_keys() ||
      !slots_.OrderInMemory() || !slots_.SlotAt(position, &slot).ok()) {
    return;
  }
  const SlotPages& paging = slots_.paging();
  const uint64_t page = slot / paging.page_slots;
  if (page < run_first_ || page >= run_first_ + run_count_) return;
  __builtin_prefetch(run_.data() + paging.PageOffset(page) -
                     paging.PageOffset(run_first_) +
                     slot % paging.page_slots * paging.width);
}

uint64_t InlineTableIterator::PagesBelowBound(uint64_t from) const {
  const InlineTable& t = slots_;
  if (upper_ == nullptr || !key_ordered_) return t.num_pages();
  // A key below the bound has a home no later than the bound's, and lies
  // at most the file's longest displacement past its home.
  const uint64_t home = t.key_order().Home(*upper_);
  const uint64_t last = std::min(
      t.num_slots() - 1, home + uint64_t{t.geometry().max_displacement});
  return std::max(last / t.paging().page_slots, from) + 1;
}

bool InlineTableIterator::MayNotLoad() {
  // Hash order: a scan that may not read needs the order in memory.
  if (!use_.no_io || table_->mmap() || slots_.OrderInMemory()) return false;
  Invalidate(CachedBlock::NeedsRead());
  return true;
}

void InlineTableIterator::Load(uint64_t position) {
  valid_ = false;
  if (position >= slots_.num_keys() || MayNotLoad()) return;
  Status s = Read(position, &user_key_, &value_);
  if (!s.ok()) return Invalidate(s);
  Settle(position);
}

void InlineTableIterator::LoadUsed(uint64_t slot, bool forward) {
  valid_ = false;
  const InlineTable& t = slots_;
  // Backward past slot 0 wraps to beyond the last slot, which ends it too.
  for (; slot < t.num_slots(); slot = forward ? slot + 1 : slot - 1) {
    const char* p = nullptr;
    Status s = ReadSlot(slot, &p);
    if (!s.ok()) return Invalidate(s);
    if (p[0] == 0) continue;
    s = t.DecodeSlot(p, slot, &user_key_, &value_);
    if (!s.ok()) return Invalidate(s);
    return Settle(slot);
  }
}

void InlineTableIterator::SeekToFirst() {
  StartPositioning();
  if (key_ordered_) return LoadUsed(0, true);
  Load(0);
}

void InlineTableIterator::PrefetchMidpoints(uint64_t lo, uint64_t hi,
                                            int levels) const {
  if (levels == 0 || lo >= hi) return;
  const uint64_t mid = lo + (hi - lo) / 2;
  PrefetchPosition(mid);
  PrefetchMidpoints(lo, mid, levels - 1);
  PrefetchMidpoints(mid + 1, hi, levels - 1);
}

void InlineTableIterator::SeekToLast() {
  StartPositioning();
  if (key_ordered_) {
    return LoadUsed(slots_.num_slots() - 1, false);
  }
  const uint64_t n = slots_.num_keys();
  if (n == 0) return;
  Load(n - 1);
}

void InlineTableIterator::Seek(const Slice& target) {
  StartPositioning();
  const InternalKeyComparator& icmp = table_->icmp();
  if (key_ordered_) {
    // No key at or after the target's lies before its home; the ones
    // before it in the target's run are passed over.
    const InlineTable& t = slots_;
    LoadUsed(t.key_order().Home(ExtractUserKey(target)), true);
    while (valid_ && icmp.Compare(key_, target) < 0) {
      LoadUsed(position_ + 1, true);
    }
    return;
  }
  if (use_.no_io && !table_->mmap() && !layout_->SamplesLoaded()) {
    return Invalidate(CachedBlock::NeedsRead());
  }
  if (MayNotLoad()) return;
  const uint64_t n = slots_.num_keys();
  // The first position whose key is >= target, in [lo, hi).
  auto lower_bound = [&](uint64_t lo, uint64_t hi, bool* ok) {
    while (lo < hi) {
      const uint64_t mid = lo + (hi - lo) / 2;
      // Each step's slot read waits on the one before: start the reads of
      // the midpoints the next steps may take now, so those steps find
      // their slots arriving.
      PrefetchMidpoints(lo, mid, kSearchAhead);
      PrefetchMidpoints(mid + 1, hi, kSearchAhead);
      Slice k, v;
      Status s = Read(mid, &k, &v);
      if (!s.ok()) {
        Invalidate(s);
        *ok = false;
        return hi;
      }
      MakeKey(k, &probe_key_);
      if (icmp.Compare(probe_key_, target) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  };
  // Samples every kInlineSampleInterval positions: the answer is at most
  // one interval (and one entry, for a global sequence number above the
  // target's) past the last sample below the target. Should the file say
  // otherwise, the search goes on to the end rather than answer wrong.
  const SparseIndex* samples = nullptr;
  Status s = layout_->Samples(&samples);
  if (!s.ok()) return Invalidate(s);
  const uint64_t lo = std::min(samples->SeekAddress(target), n);
  const uint64_t hi = std::min<uint64_t>(n, lo + kInlineSampleInterval + 2);
  bool ok = true;
  uint64_t at = lower_bound(lo, hi, &ok);
  if (ok && at == hi && hi < n) at = lower_bound(hi, n, &ok);
  if (!ok) return;
  // Entries in key order lie at random in the slots: start the reads of
  // the next few now, so the Nexts that usually follow a Seek overlap them
  // instead of waiting for each in turn.
  for (uint64_t i = 1; i <= kScanAhead; ++i) {
    PrefetchPosition(at + i);
  }
  Load(at);
}

void InlineTableIterator::SeekForPrev(const Slice& target) {
  SeekForPrevBySeek(target, table_->icmp());
}

void InlineTableIterator::Next() {
  assert(valid_);
  if (key_ordered_) return LoadUsed(position_ + 1, true);
  PrefetchPosition(position_ + 1 + kScanAhead);
  Load(position_ + 1);
}

void InlineTableIterator::Prev() {
  assert(valid_);
  if (position_ == 0) {
    valid_ = false;
    return;
  }
  if (key_ordered_) return LoadUsed(position_ - 1, false);
  if (position_ > kScanAhead) {
    PrefetchPosition(position_ - 1 - kScanAhead);
  }
  Load(position_ - 1);
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
