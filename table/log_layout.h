// The log layout (every file of format version 1, and any file whose
// entries do not all fit inline slots): entries in a log of checksummed
// blocks (log_block_reader.h), found through a Robin Hood hash index
// (hash_index.h) and, for Seek, the sparse index. A point lookup probes
// the index and reads one entry (then the key's older versions after it);
// iterators walk the log block by block (robinhood_table_iterator.h).
// docs/format.md draws the sections; the meta block's `index` handle holds
// the hash index, its `block_table` handle the block table.
#pragma once

#include <memory>
#include <string>

#include "table/block_table.h"
#include "table/hash_index.h"
#include "table/layout.h"
#include "table/log_block_reader.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

class LogLayout : public Layout {
 public:
  static constexpr const char* kIndexPart = "hash index";
  static constexpr const char* kDirectoryPart = "block table";

  Status Open(const TableView* view, const TableMeta& meta) override;
  uint64_t HashOf(const Slice& user_key) const override;
  Hint PrefetchHome(const Slice& /*user_key*/, uint64_t hash) const override {
    index_.PrefetchHome(hash);
    return kNoHint;
  }
  // The block of the key's first candidate entry (the index is in memory
  // without mmap, read in place with it): a read from disk a lookup, as
  // pages and slots are, once the index is.
  bool HomeInFile(const Slice& user_key, uint64_t hash, Hint hint,
                  uint64_t* offset, size_t* n) const override;
  bool PrefetchesAfterHome() const override { return true; }
  void PrefetchAfterHome(const Slice& user_key, uint64_t hash,
                         Hint hint) const override;
  Status Get(const ParsedInternalKey& target, uint64_t hash, Hint hint,
             const ReadUse& use, GetContext* get_context) const override;
  bool ScansThroughCache() const override;
  InternalIterator* NewIterator(Arena* arena, bool compaction,
                                const ReadUse& use,
                                const ScanAhead& ahead) const override;
  uint64_t OffsetOf(const Slice& internal_key) const override;
  Status VerifyEntries(const ReadUse& use, std::string* buf) const override;
  size_t MemoryUsage() const override;
  const LogLayout* AsLog() const override { return this; }

  const HashIndex& hash_index() const { return index_; }
  const BlockTable& blocks() const { return blocks_; }
  const LogBlockReader& log() const { return *log_; }
  // The file's meta block, or its log part's (TableMeta::LogPart).
  const TableMeta& meta() const { return meta_; }

  // Finds the first (newest) entry of `user_key`, whose hash is `hash`:
  // `*found` false if the file has no such key. A probe of the hash index,
  // then one entry read per candidate. `pin` as LogBlockReader::ReadEntry's.
  Status FindNewest(const Slice& user_key, uint64_t hash, bool verify,
                    std::string* buf, EntryRef* newest, bool* found,
                    CachedBlock* pin = nullptr) const;

 private:
  // The log address of the first entry the index names for `hash`: a
  // lookup's first read. The log's size if there is none, or the slot is
  // damaged (which the lookup reports).
  uint64_t FirstCandidate(uint64_t hash) const;
  // The file offset of log address `address` (the log's end past it).
  uint64_t FileOffsetOf(uint64_t address) const;

  const TableView* view_ = nullptr;
  TableMeta meta_;
  std::string index_buf_;  // the slots, without mmap
  HashIndex index_;
  BlockTable blocks_;
  std::unique_ptr<LogBlockReader> log_;  // once blocks_ is initialised
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
