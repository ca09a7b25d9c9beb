// The builder's side of the inline layout (inline_table.h): while every
// entry of a file so far is a compacted put that fits a slot, the entries
// wait here instead of going to the log. At Finish they become the slots;
// if an entry that does not fit arrives first, the builder takes them back
// in order (Get) and writes them to the log instead.
//
// Memory: each entry at a fixed stride of 2 + longest key + longest value
// (restrided when a longer one arrives), in chunks, plus the hash index
// builder's 12 bytes an entry for the placement. The order array is made
// by reordering those records in place, after the entries are gone.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "table/hash_index.h"
#include "table/inline_table.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

class InlineEntryBuffer {
 public:
  // `slot_limit`: the largest slot allowed, bytes.
  explicit InlineEntryBuffer(uint32_t slot_limit) : slot_limit_(slot_limit) {}

  // Whether one more entry of these sizes keeps the file inline.
  bool Fits(size_t key_size, size_t value_size) const;
  // REQUIRES: Fits(key.size(), value.size()); keys arrive in order.
  void Add(const Slice& key, const Slice& value, uint64_t hash);
  uint64_t size() const { return count_; }
  // Entry `i` (< size()), in the order added.
  void Get(uint64_t i, Slice* key, Slice* value) const;
  InlineShape shape() const;

  size_t MemoryUsage() const;
  // The file's bytes if it were finished now, at `load_factor`, with or
  // without an order array.
  uint64_t EstimatedFileBytes(double load_factor, bool order_array) const;

  // Places the entries at `load_factor`: false if some entry would sit
  // more than kInlineMaxDisplacement slots past its home (the file must
  // then take the log layout; the entries are still here).
  bool Plan(double load_factor, IndexGeometry* geometry);
  // After Plan: passes the slots to `sink` in pieces and fills `*page_crcs`
  // (a masked fixed32 each) and `*crc` (unmasked, of all the slots). Frees
  // the entries.
  using Sink = std::function<Status(const Slice&)>;
  Status WriteSlots(const Sink& sink, std::string* page_crcs, uint32_t* crc);
  // After WriteSlots: appends the order array to `dst`.
  Status AppendOrder(std::string* dst);

 private:
  char* At(uint64_t i) const {
    return chunks_[i / per_chunk_].get() + (i % per_chunk_) * stride_;
  }
  void Restride(uint32_t key_width, uint32_t value_width);

  static constexpr size_t kChunkBytes = 1 << 20;
  const uint32_t slot_limit_;
  uint32_t key_width_ = 0;
  uint32_t value_width_ = 0;
  bool var_key_ = false;
  bool var_value_ = false;
  size_t first_key_size_ = 0;
  size_t first_value_size_ = 0;
  uint32_t stride_ = 0;
  size_t per_chunk_ = 1;
  uint64_t count_ = 0;
  std::vector<std::unique_ptr<char[]>> chunks_;
  HashIndexBuilder index_;
  IndexGeometry geo_;
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
