// A file's layout: how its entries lie in it and are found. The reader
// (robinhood_table_reader.h) holds what every file has (footer, meta block,
// properties, range deletions, filter: table_view.h) and asks its layout
// for the rest, through this interface only:
//
//   LogLayout (log_layout.h)        entries in a log of checksummed blocks,
//                                   found through a Robin Hood hash index
//   InlineLayout (inline_layout.h)  entries in the slots of the Robin Hood
//                                   table itself (inline_table.h)
//   PagedLayout (paged_layout.h)    entries in key order in pages, found
//                                   through a page index (page_index.h)
//   PagedLogLayout                  pages, then a log of the file's last
//     (paged_log_layout.h)          entries: the two layouts above, each
//                                   over its part of the file
//
// The meta block's flags say which a file has (LayoutKindOf, the one
// place that tells them apart). docs/format.md draws each. A third layout
// is one new file pair implementing Layout, and one entry in LayoutKindOf.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "rocksdb/options.h"
#include "rocksdb/status.h"
#include "table/cached_block.h"
#include "table/internal_iterator.h"
#include "table/scan_runs.h"
#include "table/sparse_index.h"
#include "table/table_meta.h"

namespace ROCKSDB_NAMESPACE {

class Arena;
class GetContext;

namespace robinhood {

class TableView;
class LogLayout;
class InlineLayout;
class PagedLayout;
class PagedLogLayout;

// What a lookup of a key whose HashOf is `hash` samples by (residency.h,
// miss_share.h: one key in 2^k, by the top bits): a KeyHash as it is,
// another hash (a home, which rises with the key) mixed by a
// multiplication, so the samples spread over the file without a KeyHash
// a lookup would compute for nothing else.
inline uint64_t SampleOf(uint64_t hash, bool hash_is_key_hash) {
  return hash_is_key_hash ? hash : hash * 0x9E3779B97F4A7C15u;
}

class Layout {
 public:
  virtual ~Layout() = default;

  // Reads and checks the layout's sections of `view`'s file (which
  // outlives this), as `meta` describes them (the file's meta block, or a
  // part of it: TableMeta::PagesPart, LogPart): Corruption naming the part
  // for any damage.
  virtual Status Open(const TableView* view, const TableMeta& meta) = 0;

  // Reads now what lookups would read the first time and keep (the paged
  // layout's page index), for a reader of a file not mapped, so reads that
  // may not block find it there, as BlockBasedTable's find the index block
  // it reads at open. (Mapped, it is memory: read when first needed.)
  // What it finds damaged, the lookups that need it report.
  virtual Status LoadForLookups() { return Status::OK(); }

  // What lookups of `user_key` hash with: its KeyHash where HashIsKeyHash,
  // else a number the layout finds the key by that differs between most
  // keys of the file (a key-ordered inline file's: the key's home).
  virtual uint64_t HashOf(const Slice& user_key) const = 0;
  // Whether HashOf is the key's KeyHash with the file's seed (what a hash
  // filter takes), so a lookup hashes once.
  virtual bool HashIsKeyHash() const { return true; }
  // What a layout whose home takes a search (the paged layout's page
  // index) found while prefetching, for the same key's later calls, so
  // they need not search again; kNoHint: nothing.
  using Hint = uint64_t;
  static constexpr Hint kNoHint = 0;
  // Brings in the first bytes a lookup of `user_key` (hash `hash`) reads;
  // reads nothing of the file, checks nothing.
  virtual Hint PrefetchHome(const Slice& user_key, uint64_t hash) const = 0;
  // Whether PrefetchHome searches (the paged layout's page index) rather
  // than computes the home from the hash or the key.
  virtual bool SearchesForHome() const { return false; }
  // PrefetchHome's search alone, asking for no line: the same hint. A
  // lookup that expects its filter to rule the key out searches while the
  // filter's line comes and asks for the home only after a yes
  // (PrefetchFoundHome). Where the home is computed: PrefetchHome.
  virtual Hint FindHome(const Slice& user_key, uint64_t hash) const {
    return PrefetchHome(user_key, hash);
  }
  // What PrefetchHome asks for, for the home FindHome found.
  virtual void PrefetchFoundHome(Hint /*hint*/) const {}
  // A single lookup (Get) past its filter, its home on its way: what the
  // lookup reads after its home, where PrefetchHome could guess it without
  // reading (the hint carries the guess), so the two arrive together. Not
  // before the filter: a key it rules out would pay for the guess. A batch
  // uses PrefetchAfterHome instead: fifty keys' guesses would outrun the
  // misses a core tracks.
  virtual void PrefetchEntry(Hint /*hint*/) const {}
  // Where in the file the home of `user_key` (hash `hash`; `hint`:
  // PrefetchHome's for it) lies, for a batch to ask the kernel for it where
  // it is not in memory (residency.h): false where the layout cannot say
  // without reading the file. Computed (inline slots) or searched in what
  // is in memory (the paged layout's index: a mapped file's from the hint
  // alone, one read with positioned reads in the index loaded at open).
  virtual bool HomeInFile(const Slice& /*user_key*/, uint64_t /*hash*/,
                          Hint /*hint*/, uint64_t* /*offset*/,
                          size_t* /*n*/) const {
    return false;
  }
  // MultiGet's second pass, once every key's home is on its way: brings in
  // what the lookup reads after its home, if the layout can know it.
  virtual void PrefetchAfterHome(const Slice& /*user_key*/, uint64_t /*hash*/,
                                 Hint /*hint*/) const {}
  // Whether PrefetchAfterHome does anything: a batch skips the pass
  // where it does not.
  virtual bool PrefetchesAfterHome() const { return false; }
  // The entries of `target`'s user key visible at its sequence number,
  // newest first, into `get_context`; `hint` from this key's PrefetchHome.
  // What is read without mmap goes through the block cache, if the table
  // has one, as `use` says; CachedBlock::NeedsRead if it forbids a read
  // the lookup needs.
  virtual Status Get(const ParsedInternalKey& target, uint64_t hash, Hint hint,
                     const ReadUse& use, GetContext* get_context) const = 0;
  // An iterator over every entry in internal-key order; `compaction`: it
  // will read them all, in order, once (reading ahead as `ahead` says),
  // and around the cache; otherwise it reads through the block cache, if
  // the layout keeps one, as `use` says (a read it forbids: the iterator's
  // status is CachedBlock::NeedsRead).
  virtual InternalIterator* NewIterator(Arena* arena, bool compaction,
                                        const ReadUse& use,
                                        const ScanAhead& ahead) const = 0;
  // Whether a scan without mmap may find what it reads in the block cache
  // (so one that may not read can still answer).
  virtual bool ScansThroughCache() const { return false; }
  // Where in the file the entries at and after `internal_key` begin,
  // roughly; the data's end for a key past them all.
  virtual uint64_t OffsetOf(const Slice& internal_key) const = 0;
  // User keys in order that split the entries into about `max` runs
  // (RobinHoodTableReader::ApproximateKeyAnchors, for compactions that
  // split their work): by default the samples' keys, evenly spread; the
  // paged layout's page separators. Appends to `keys`; reads what it needs
  // (the samples, the page index).
  virtual Status AnchorKeys(size_t max, std::vector<std::string>* keys) const;
  // Checks the checksum of every unit the entries lie in (log blocks,
  // pages of slots), reading each as `use` says.
  virtual Status VerifyEntries(const ReadUse& use, std::string* buf) const = 0;
  // Memory held for the open file, beyond the file's mapping.
  virtual size_t MemoryUsage() const = 0;

  // Samples of the keys in order (sparse_index.h); their addresses are
  // the layout's own (log offsets, or positions in key order). Read and
  // checked on the first call, not at open (they grow with the entries,
  // and point lookups never need them); an error is returned to each
  // call until a read succeeds.
  bool SamplesLoaded() const {
    if (samples_owner_ != nullptr) return samples_owner_->SamplesLoaded();
    return samples_.load(std::memory_order_acquire) != nullptr;
  }
  Status Samples(const SparseIndex** samples) const {
    if (samples_owner_ != nullptr) return samples_owner_->Samples(samples);
    *samples = samples_.load(std::memory_order_acquire);
    return *samples != nullptr ? Status::OK() : LoadSamples(samples);
  }

  // For tools that show a layout's own parts (rh_inspect): this layout,
  // if it is that one; null otherwise.
  virtual const LogLayout* AsLog() const { return nullptr; }
  virtual const InlineLayout* AsInline() const { return nullptr; }
  virtual const PagedLayout* AsPaged() const { return nullptr; }
  virtual const PagedLogLayout* AsPagedLog() const { return nullptr; }

 protected:
  // Hands the entry `key`, `value` of `view`'s file to `get_context`:
  // false when it wants no more, with `*s` the error that stopped it, if
  // any (a merge whose operator fails, on RocksDB 9.1 on; earlier hosts
  // mark the context). A value in the mapping goes pinned, not copied,
  // where the view allows (TableView::Pinner).
  static bool SaveEntry(const TableView& view, GetContext* get_context,
                        const ParsedInternalKey& key, const Slice& value,
                        Status* s);
  // Hands a compacted put of `target`'s user key with `value` (the one
  // entry of its key in an inline or paged file) to `get_context`, at the
  // sequence number `view`'s file surfaces it with, if `target` sees it;
  // `*s` (OK on entry) takes what stopped it, if anything. Into the
  // caller's one result: a Get that returns one named Status on every path
  // is spared a move of it on every hit (the inline Get and its save, 123
  // to 106 instructions a hit by callgrind).
  static void SaveCompactedPut(const TableView& view,
                               const ParsedInternalKey& target,
                               const Slice& value, GetContext* get_context,
                               Status* s);
  // Where Samples finds the sparse index of `view`'s file (every layout's
  // samples are the file's one sparse index), whose addresses must lie
  // below `address_limit`. Reads nothing.
  void SetSamples(const TableView* view, uint64_t address_limit) {
    samples_view_ = view;
    samples_limit_ = address_limit;
  }
  // This layout's samples are `owner`'s (which outlives it): one copy in
  // memory, wherever they are asked for.
  void ShareSamples(const Layout* owner) { samples_owner_ = owner; }
  // The samples' memory, if they were read.
  size_t SamplesMemoryUsage() const {
    const SparseIndex* s = samples_.load(std::memory_order_acquire);
    return s != nullptr ? s->MemoryUsage() : 0;
  }

 private:
  Status LoadSamples(const SparseIndex** samples) const;

  const TableView* samples_view_ = nullptr;
  uint64_t samples_limit_ = 0;
  const Layout* samples_owner_ = nullptr;
  mutable std::mutex samples_mu_;
  mutable SparseIndex sparse_;
  mutable std::atomic<const SparseIndex*> samples_{nullptr};
};

// What a layout is called and made by: the names its parts go by in
// errors and tools (the meta block's `index` and `block_table` handles
// hold them), and a new, unopened layout.
struct LayoutKind {
  const char* index_part;      // what the `index` handle holds
  const char* directory_part;  // what the `block_table` handle holds
  // What `tail_index` and `tail_blocks` hold (null: the layout has none).
  const char* tail_index_part;
  const char* tail_directory_part;
  std::unique_ptr<Layout> (*make)();
};
const LayoutKind& LayoutKindOf(const TableMeta& meta);

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
