// The paged layout with a log tail (format version 8, meta block flags
// kPagedLayout | kLogTail): a file whose builder wrote its pages as they
// filled, then met an entry no page takes (longer than a page holds, or
// not a compacted put), and wrote that entry and every one after it to a
// log behind the pages. Every key of the pages sorts before every key of
// the log, so the page index's last key says which part holds a key.
//
//   [pages][log blocks][log hash index][log block table][page index]
//   [sparse index: the log's][range deletions][filter: every key]...
//
// Each part is read by its own layout (PagedLayout, LogLayout) over its
// share of the meta block (TableMeta::PagesPart, LogPart); this one routes
// lookups between them and joins their iterators (paged_log_iterator.h).
// Byte layout: docs/format.md, "Pages then a log (version 8)".
#pragma once

#include "table/layout.h"
#include "table/log_layout.h"
#include "table/paged_layout.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

class PagedLogLayout final : public Layout {
 public:
  Status Open(const TableView* view, const TableMeta& meta) override;
  Status LoadForLookups() override { return pages_.LoadForLookups(); }
  uint64_t HashOf(const Slice& user_key) const override;
  Hint PrefetchHome(const Slice& user_key, uint64_t hash) const override;
  bool SearchesForHome() const override { return true; }
  Hint FindHome(const Slice& user_key, uint64_t hash) const override;
  // Hints are the pages' (a log lookup makes none).
  void PrefetchFoundHome(Hint hint) const override {
    pages_.PrefetchFoundHome(hint);
  }
  void PrefetchEntry(Hint hint) const override { pages_.PrefetchEntry(hint); }
  bool HomeInFile(const Slice& user_key, uint64_t hash, Hint hint,
                  uint64_t* offset, size_t* n) const override {
    return LikelyInLog(user_key)
               ? log_.HomeInFile(user_key, hash, hint, offset, n)
               : pages_.HomeInFile(user_key, hash, hint, offset, n);
  }
  bool PrefetchesAfterHome() const override { return true; }
  void PrefetchAfterHome(const Slice& user_key, uint64_t hash,
                         Hint hint) const override;
  Status Get(const ParsedInternalKey& target, uint64_t hash, Hint hint,
             const ReadUse& use, GetContext* get_context) const override;
  InternalIterator* NewIterator(Arena* arena, bool compaction, const ReadUse& use,
                                const ScanAhead& ahead) const override;
  bool ScansThroughCache() const override {
    return pages_.ScansThroughCache() || log_.ScansThroughCache();
  }
  uint64_t OffsetOf(const Slice& internal_key) const override;
  Status AnchorKeys(size_t max, std::vector<std::string>* keys) const override;
  Status VerifyEntries(const ReadUse& use, std::string* buf) const override;
  size_t MemoryUsage() const override;
  const PagedLogLayout* AsPagedLog() const override { return this; }

  const PagedLayout& pages() const { return pages_; }
  const LogLayout& log() const { return log_; }

 private:
  // Whether `user_key` would lie in the log, as far as the page index,
  // if read, tells; reads nothing (for prefetches).
  bool LikelyInLog(const Slice& user_key) const;

  const TableView* view_ = nullptr;
  PagedLayout pages_;
  LogLayout log_;
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
