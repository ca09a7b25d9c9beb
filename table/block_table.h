// The block table: where each log block lies in the file and which range of
// the uncompressed log (entry addresses) it holds.
//
// Section contents:
//   varint64 block_count
//   block_count x { varint64 stored_bytes    contents + 5-byte trailer
//                   varint64 logical_bytes } uncompressed contents
// stored_bytes == logical_bytes + 5 for a raw block; a compressed block is
// always smaller (it is stored raw otherwise).
// Blocks are contiguous from the log's start (file offset 0 but in a log
// tail: table_meta.h), so offsets are prefix sums.
//
// In memory, a lookup first guesses the block from the address's share of
// the log (blocks hold about the same logical bytes) and checks it and its
// neighbours; failing that, a page table maps an address to its block in
// O(1): every
// block but the last holds at least log_block_size logical bytes, so a page
// of 2^floor(log2(log_block_size)) bytes starts in at most two blocks. The
// page table is capped at about two pages per block (pages grow for files
// of large entries), and a page spanning several blocks is binary-searched.
//
// A compressed block's logical size is at most kMaxCompressionRatio times
// its stored contents (robinhood_format.h), checked here.
//
// Byte layout: docs/format.md, "Block table".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rocksdb/slice.h"
#include "rocksdb/status.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

class BlockTableBuilder {
 public:
  void Add(uint64_t stored_bytes, uint64_t logical_bytes);
  uint64_t num_blocks() const { return count_; }
  // Returns the section contents.
  std::string Finish() const;
  size_t MemoryUsage() const { return records_.capacity(); }

 private:
  std::string records_;
  uint64_t count_ = 0;
};

struct BlockLocation {
  uint64_t file_offset;     // of the block contents
  uint64_t contents_bytes;  // stored, trailer excluded
  uint64_t logical_offset;  // address of its first entry
  uint64_t logical_bytes;
  // A block is stored compressed only when that makes it smaller, so the
  // sizes tell: equal sizes mean raw entries.
  bool compressed() const { return contents_bytes != logical_bytes; }
};

class BlockTable {
 public:
  // Decodes the section and checks it against the meta block's totals,
  // for a log that starts at `log_offset` in the file (0 but after a log
  // tail's pages). `section_offset` locates the section in errors.
  Status Init(const Slice& contents, uint64_t log_offset,
              uint64_t log_file_bytes,
              uint64_t log_logical_bytes, uint32_t log_block_size,
              const std::string& file, uint64_t section_offset);

  size_t num_blocks() const { return starts_.size() - 1; }
  BlockLocation Get(size_t b) const {
    const Start& s = starts_[b];
    const Start& next = starts_[b + 1];
    return BlockLocation{s.file, next.file - s.file - kTrailer, s.logical,
                         next.logical - s.logical};
  }
  // The block holding `address`. REQUIRES: address < logical size.
  size_t Find(uint64_t address) const;
  uint64_t logical_bytes() const { return starts_.back().logical; }
  // Where the log starts in the file.
  uint64_t file_start() const { return starts_[0].file; }
  size_t MemoryUsage() const;

 private:
  static constexpr uint64_t kTrailer = 5;
  // Where each block starts, num_blocks + 1 of them (the last is the end).
  // Both offsets of a block side by side, so a lookup finds its block and
  // the block's bounds in one or two cache lines, not four.
  struct Start {
    uint64_t logical;
    uint64_t file;
  };
  std::vector<Start> starts_{Start{0, 0}};  // no blocks until Init
  // The first block of each page of the logical log, and a last entry
  // bounding the search of the last page.
  std::vector<uint32_t> page_first_block_;
  uint32_t page_shift_ = 12;
  // num_blocks / (logical size + 1), in 0.64 fixed point: Find's guess.
  uint64_t per_byte_ = 0;
  uint64_t logical_end_ = 0;  // starts_.back().logical, beside per_byte_
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
