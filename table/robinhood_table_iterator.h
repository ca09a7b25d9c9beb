// Ordered iteration over the log of a RobinHoodTable file. The log is a
// sorted run, so the iterator walks it block by block; Seek starts from
// the sparse index (sparse_index.h). A loaded block keeps the offsets of
// its entries, so Prev costs what Next does. `through_cache`: blocks that
// lookups keep in the table's block cache (log_block_reader.h: compressed
// ones, and without mmap all) come from there, and go there once read if
// `use` fills it; a read `use` forbids leaves the iterator NeedsRead.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "table/layout_iterator.h"
#include "table/scan_runs.h"
#include "table/log_block_reader.h"
#include "table/log_entry.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

class TableView;
class LogLayout;

class RobinHoodTableIterator : public LayoutIterator {
 public:
  // `ahead.bytes` > 0: read that many bytes of log at a time from the
  // start (compaction); 0: read ahead only once access turns out
  // sequential; either way no block past the one `ahead.upper` (if set)
  // lies in, once the sparse index is in memory.
  RobinHoodTableIterator(const TableView* table, const LogLayout* log,
                         const ScanAhead& ahead = ScanAhead(),
                         bool through_cache = false,
                         const ReadUse& use = kNoReadUse);

  void SeekToFirst() override;
  void SeekToLast() override;
  void Seek(const Slice& target) override;
  void SeekForPrev(const Slice& target) override;
  void Next() override;
  void Prev() override;
  Slice user_key() const override { return entry_.user_key; }
  Slice value() const override { return entry_.value; }

 private:
  // Loads block `b` and the offsets of its entries; false if there is no
  // such block or it cannot be read (status_ says which).
  bool LoadBlock(size_t b);
  // Without mmap, the stored bytes of block `b` from the readahead buffer,
  // refilled when access is sequential; false: read the block alone.
  bool ReadAhead(size_t b, Slice* raw);
  // The file offset no read ahead needs to pass: the end of the block the
  // upper bound lies in, or the log's end.
  uint64_t ReadAheadEnd();
  // Decodes the entry at offsets_[index_] into entry_ and key_.
  void ParseCurrent();

  const TableView* const table_;
  const LogLayout* const log_;
  const bool verify_;
  size_t block_;
  uint64_t block_address_ = 0;  // address of the block's first entry
  std::unique_ptr<std::string> buf_;
  // Whether blocks go through the block cache, how, and the one contents_
  // is in if it is cached.
  const bool through_cache_;
  const ReadUse use_;
  CachedBlock pin_;
  std::unique_ptr<std::string> readahead_buf_;
  uint64_t readahead_offset_ = 0;
  size_t readahead_bytes_;  // the next read ahead's; grows while sequential
  const bool eager_readahead_;
  const Slice* const upper_;  // the scan's upper bound, if any
  std::string upper_key_;     // ReadAheadEnd's scratch
  size_t last_loaded_;
  int sequential_loads_ = 0;
  Slice contents_;
  std::vector<size_t> offsets_;
  size_t index_ = 0;
  LogEntry entry_;
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
