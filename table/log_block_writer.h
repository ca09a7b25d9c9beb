// Writes the log: entries are encoded into the open block, which is closed
// once it reaches the block size, compressed with the column family's codec
// when that pays, followed by its trailer, appended to the file and
// recorded in the block table (block_table.h).
//
//   [block contents][type: 1][masked crc32c: 4]
//
// A block is stored compressed only when that saves at least 1/8 and stays
// within kMaxCompressionRatio (the bound readers enforce); else raw, so
// stored == logical + 5 exactly when it is raw.
//
// Byte layout: docs/format.md, "The log" and "Trailer (5 bytes, after
// every block and section)".
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "rocksdb/slice.h"
#include "table/block_table.h"
#include "rocksdb/advanced_options.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

class LogBlockWriter {
 public:
  // `append` writes bytes to the file (the builder tracks offsets and I/O
  // errors). Only codecs this build can also read back are used.
  using Append = std::function<void(const Slice&)>;
  LogBlockWriter(uint32_t block_size, CompressionType compression,
                 const CompressionOptions& compression_opts, Append append);

  // The open block: the caller encodes entries straight into it, then
  // calls MaybeCloseBlock.
  std::string* open_block() { return &block_; }
  // Address (logical offset) where the next entry will start.
  uint64_t next_address() const { return closed_bytes_ + block_.size(); }
  // Closes the open block if it reached the block size.
  void MaybeCloseBlock() {
    if (block_.size() >= block_size_) CloseBlock();
  }
  // Closes the open block, if it holds anything.
  void CloseBlock();

  CompressionType compression() const { return compression_; }
  uint64_t num_blocks() const { return table_.num_blocks(); }
  uint64_t open_block_bytes() const { return block_.size(); }
  const BlockTableBuilder& block_table() const { return table_; }

 private:
  const uint32_t block_size_;
  const CompressionType compression_;
  const CompressionOptions compression_opts_;
  const Append append_;
  std::string block_;
  std::string compressed_;
  uint64_t closed_bytes_ = 0;  // logical bytes of the closed blocks
  BlockTableBuilder table_;
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
