#include "table/paged_log_layout.h"

#include "table/layout_iterator.h"
#include "table/page_index.h"
#include "table/paged_log_iterator.h"
#include "table/table_view.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

Status PagedLogLayout::Open(const TableView* view, const TableMeta& meta) {
  view_ = view;
  Status s = pages_.Open(view, meta.PagesPart());
  if (s.ok()) s = log_.Open(view, meta.LogPart());
  // The file's samples are the log's.
  ShareSamples(&log_);
  return s;
}

uint64_t PagedLogLayout::HashOf(const Slice& user_key) const {
  return view_->Hash(user_key);
}

bool PagedLogLayout::LikelyInLog(const Slice& user_key) const {
  const PageIndex* index = pages_.LoadedIndex();
  return index != nullptr && index->PastLast(user_key);
}

Layout::Hint PagedLogLayout::PrefetchHome(const Slice& user_key,
                                          uint64_t hash) const {
  return LikelyInLog(user_key) ? log_.PrefetchHome(user_key, hash)
                               : pages_.PrefetchHome(user_key, hash);
}

Layout::Hint PagedLogLayout::FindHome(const Slice& user_key,
                                      uint64_t hash) const {
  return LikelyInLog(user_key) ? log_.FindHome(user_key, hash)
                               : pages_.FindHome(user_key, hash);
}

void PagedLogLayout::PrefetchAfterHome(const Slice& user_key, uint64_t hash,
                                       Hint hint) const {
  if (hint == kNoHint && LikelyInLog(user_key)) {
    log_.PrefetchAfterHome(user_key, hash, hint);
  } else {
    pages_.PrefetchAfterHome(user_key, hash, hint);
  }
}

Status PagedLogLayout::Get(const ParsedInternalKey& target, uint64_t hash,
                           Hint hint, const ReadUse& use,
                           GetContext* get_context) const {
  // A hint names the key's page; without one the page index tells.
  if (hint == kNoHint) {
    if (use.no_io && !view_->mmap() && !pages_.IndexLoaded()) {
      return CachedBlock::NeedsRead();
    }
    const PageIndex* index = nullptr;
    Status s = pages_.Index(&index);
    if (!s.ok()) return s;
    if (index->PastLast(target.user_key)) {
      return log_.Get(target, hash, kNoHint, use, get_context);
    }
  }
  return pages_.Get(target, hash, hint, use, get_context);
}

InternalIterator* PagedLogLayout::NewIterator(Arena* arena, bool compaction,
                                              const ReadUse& use,
                                              const ScanAhead& ahead) const {
  return NewIteratorIn<PagedLogIterator>(
      arena, pages_.NewIterator(nullptr, compaction, use, ahead),
      log_.NewIterator(nullptr, compaction, use, ahead), &pages_,
      view_->file_name());
}

uint64_t PagedLogLayout::OffsetOf(const Slice& internal_key) const {
  const PageIndex* index = nullptr;
  // An unreadable index gives no estimate; reads of it say why.
  if (!pages_.Index(&index).ok()) return 0;
  return index->PastLast(ExtractUserKey(internal_key))
             ? log_.OffsetOf(internal_key)
             : pages_.OffsetOf(internal_key);
}

Status PagedLogLayout::AnchorKeys(size_t max,
                                  std::vector<std::string>* keys) const {
  Status s = pages_.AnchorKeys(max / 2, keys);
  const SparseIndex* samples = nullptr;
  if (s.ok()) s = Samples(&samples);
  if (!s.ok()) return s;
  // The log's first key (its first sample) ends the pages' last run.
  if (samples->size() > 0) {
    keys->push_back(ExtractUserKey(samples->key(0)).ToString());
  }
  return log_.AnchorKeys(max - max / 2, keys);
}

Status PagedLogLayout::VerifyEntries(const ReadUse& use,
                                     std::string* buf) const {
  Status s = pages_.VerifyEntries(use, buf);
  if (s.ok()) s = log_.VerifyEntries(use, buf);
  if (!s.ok()) return s;
  // The log's first entry is its first sample: it must sort after the
  // pages, which lookups and iterators take for granted.
  const SparseIndex* samples = nullptr;
  const PageIndex* index = nullptr;
  s = Samples(&samples);
  if (s.ok()) s = pages_.Index(&index);
  if (!s.ok()) return s;
  if (samples->size() == 0 ||
      !index->PastLast(ExtractUserKey(samples->key(0)))) {
    return CorruptionAt(view_->file_name(), "log",
                        "first key not after the pages' keys",
                        view_->meta().log_offset);
  }
  return Status::OK();
}

size_t PagedLogLayout::MemoryUsage() const {
  // The samples are counted once, in the log's.
  return sizeof(*this) + pages_.MemoryUsage() + log_.MemoryUsage();
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
