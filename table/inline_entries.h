// The builder's side of the inline layout (inline_table.h): while every
// entry of a file so far is a compacted put that fits a slot, the entries
// wait here instead of going to the log. At Finish they become the slots;
// if an entry that does not fit arrives first, the builder takes them back
// in order (Get) and writes them to the log instead.
//
// The slots go in hash order, or in key order when the keys spread evenly
// enough that a monotone estimate of their rank places them as well as a
// hash would (key_order_model.h): the builder tries key order first.
//
// Memory: each entry at a fixed stride of 2 + longest key + longest value,
// less the bytes every key shares with the first (restrided when a longer
// one arrives or the shared bytes shrink), in chunks; for hash order, from
// Finish on, the hash index builder's 12 bytes an entry for the placement.
// The order array is made by reordering those records in place, after the
// entries are gone.
//
// A bounded builder moves the entries to a temporary file in the order
// they came (Spill); from then on the plans and the slots read them from
// there, in hash order through a SpillSorter of (hash, ordinal, entry at
// the final stride) records, and the order array from a second sorter.
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
#include "table/key_order_model.h"
#include "table/spill_buffer.h"
#include "table/spill_sorter.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

// The largest mean displacement key order may have at `load` (keys over
// home slots) and still be taken over hash order.
double KeyOrderDisplacementLimit(double load);

class InlineEntryBuffer {
 public:
  // `slot_limit`: the largest slot allowed, bytes. `elide_prefix`: key
  // order will be planned first (bytewise keys, inline_key_order), so the
  // limit holds for the slot without the prefix every key shares; a file
  // that then takes hash order must fit it with whole keys (FitsWhole).
  InlineEntryBuffer(uint32_t slot_limit, bool elide_prefix)
      : slot_limit_(slot_limit), elide_prefix_(elide_prefix) {}

  // Whether key order is to be planned first (the `elide_prefix` given).
  bool plans_key_order() const { return elide_prefix_; }
  // Whether one more entry keeps the file inline.
  bool Fits(const Slice& key, size_t value_size) const;
  // Whether the entries fit the limit in slots of whole keys.
  bool FitsWhole() const;
  // REQUIRES: Fits(key, value.size()); keys arrive in order.
  void Add(const Slice& key, const Slice& value);
  uint64_t size() const { return count_; }
  // Entry `i` (< size()), in the order added, its key made in `*buf`
  // where the shared bytes were left out. REQUIRES: !spilled().
  void Get(uint64_t i, std::string* buf, Slice* key, Slice* value) const;
  // Hands every entry to `visit` in the order added, until it returns
  // false.
  using EntryVisit = std::function<bool(const Slice& key, const Slice& value)>;
  Status ForEach(const EntryVisit& visit);
  InlineShape shape() const;

  // Moves the entries to a temporary file in `dir`, and sends those to
  // come there; sorting at Finish holds at most `sort_budget` bytes.
  Status Spill(SpillDir* dir, size_t sort_budget);
  bool spilled() const { return spill_dir_ != nullptr; }
  // The first error of a temporary file.
  Status status() const { return status_; }

  size_t MemoryUsage() const;
  // The file's bytes if it were finished now, at `load_factor`, with or
  // without an order array: in key order (no order array, the shared
  // prefix left out) where that will be planned first.
  uint64_t EstimatedFileBytes(double load_factor, bool order_array) const;
  // The same in hash order (whole keys).
  uint64_t EstimatedHashOrderBytes(double load_factor, bool order_array) const;

  // Places the entries at `load_factor` in hash order: false if some entry
  // would sit more than kInlineMaxDisplacement slots past its home (the
  // file must then take the log layout; the entries are still here).
  // Keys are hashed (`hash` with `seed`) only here, so that a file in key
  // order never holds their hashes.
  bool Plan(double load_factor, HashFunction hash, uint64_t seed,
            IndexGeometry* geometry);
  // Places the entries at `load_factor` in key order (key_order_model.h),
  // if that is as good as hashing: every entry within
  // kInlineMaxDisplacement of its home, and the mean displacement at most
  // KeyOrderDisplacementLimit. REQUIRES: keys added in bytewise order
  // (the table builder checks each key's order as it comes, and plans key
  // order only under the bytewise comparator).
  bool PlanKeyOrder(double load_factor, IndexGeometry* geometry);
  // After a successful PlanKeyOrder: its model.
  const KeyOrderModel* key_order() const {
    return key_ordered_ ? &model_ : nullptr;
  }
  // After Plan: passes the slots section (pages of the newest format
  // version, SlotPages) to `sink` in pieces and sets `*crc` (unmasked, of
  // the whole section). Frees the entries. `order`: WriteOrder will be
  // asked for.
  using Sink = std::function<Status(const Slice&)>;
  Status WriteSlots(const Sink& sink, bool order, uint32_t* crc);
  // After WriteSlots(order = true): passes the order array to `sink`, in
  // pieces.
  Status WriteOrder(const Sink& sink);

 private:
  char* At(uint64_t i) const {
    return chunks_[i / per_chunk_].get() + (i % per_chunk_) * stride_;
  }
  void Restride(uint32_t key_width, uint32_t value_width, uint32_t shared);
  uint64_t Estimate(double load_factor, bool order_array,
                    bool as_key_order) const;
  // Entries up to which a key that shares fewer bytes with the first
  // restrides to exactly what it shares.
  static constexpr uint64_t kExactRestrides = 4096;
  // Appends an entry to the spilled ones: [u8 klen][key][u8 vlen][value].
  Status AppendArrival(const Slice& key, const Slice& value);
  // The entry of a hash-order record (SpillSorter), and its hash and
  // ordinal.
  static constexpr size_t kSortHead = 12;
  void EncodeSorted(uint64_t hash, uint64_t ordinal, const Slice& key,
                    const Slice& value, char* rec) const;
  void DecodeSorted(const char* rec, uint64_t* hash, uint64_t* ordinal,
                    Slice* key, Slice* value) const;

  static constexpr size_t kChunkBytes = 1 << 20;
  const uint32_t slot_limit_;
  uint32_t key_width_ = 0;
  uint32_t value_width_ = 0;
  // In memory: the first bytes of every key, the first key's, left out of
  // the entries (at most what they share; 0 once spilled).
  uint32_t shared_ = 0;
  // Exactly the bytes every key so far shares with the first (all of it,
  // for one key): what a key-ordered file's slots leave out.
  uint32_t prefix_ = 0;
  // The bytes `key` shares with the first key, and so with every key so
  // far: at most prefix_.
  uint32_t SharedWithAll(const Slice& key) const;
  const bool elide_prefix_;
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
  bool key_ordered_ = false;
  KeyOrderModel model_;
  // Spilled: the entries as they came ([u8 klen][key][u8 vlen][value]),
  // the last key, and the sorters. The first key, always.
  SpillDir* spill_dir_ = nullptr;
  size_t sort_budget_ = 0;
  SpillBuffer arrivals_;
  std::string first_key_, last_key_;
  std::unique_ptr<SpillSorter> by_hash_;
  std::unique_ptr<SpillSorter> order_;
  Status status_;
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
