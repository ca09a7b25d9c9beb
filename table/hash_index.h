// The Robin Hood hash index over the distinct user keys of a file.
//
// A key's 64-bit hash h (XXH3 of the user key with the file's seed, low 8
// bits cleared) is read as a fraction of 2^64 and multiplied by the capacity
// C (home slots): home = (h * C) >> 64, frac = (h * C) mod 2^64. Homes rise
// with h, so sorting the keys by h and placing each at max(home, previous
// slot + 1) is a Robin Hood layout built in one pass with no shifting. Slots
// are in hash order; keys past slot C - 1 go to overflow slots appended
// after the table (no wrap-around).
//
// Slot: one little-endian uint64, A = address_bits (32 while the log is
// under 4 GiB, up to 40):
//   63                       A+8 A+7         A A-1                 0
//   +-------------------------+-------------+----------------------+
//   | tag: top 56-A bits of   | displacement| entry address + 1     |
//   |      frac             | (255 = 255+)| (0 with 0 tag = empty)|
//   +-------------------------+-------------+----------------------+
// The all-zero word is an empty slot. The address is the entry's offset in
// the uncompressed log (block_table.h maps it to a block).
//
// A lookup walks from the home slot for at most max_displacement + 1 slots
// and stops early at an empty slot, at a slot whose displacement is smaller
// than the distance walked (its home is after ours), or at a slot of the
// same home with a larger tag (sorted). Only slots whose tag equals ours
// send the lookup to the log: with a 24-bit tag, a miss touches the log
// about once in 16 million probed slots of the same home.
//
// Byte layout: docs/format.md, "Hash index".
#pragma once

#include <cassert>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "table/spill_sorter.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

// The hash of the format: XXH3-64 of the key with `seed`, low 8 bits
// cleared (the builder keeps those bits for the address, see
// HashIndexBuilder). Known-answer vectors in tests/hash_index_test.cc.
uint64_t KeyHash(const Slice& key, uint64_t seed);
using HashFunction = uint64_t (*)(const Slice& key, uint64_t seed);

// KeyHash clears the hash's low kHashLowBits bits; the builder keeps
// address bits kRecordLowAddressBits and up in them (HashIndexBuilder).
constexpr uint32_t kHashLowBits = 8;
constexpr uint64_t kHashLowMask = (uint64_t{1} << kHashLowBits) - 1;
constexpr uint32_t kRecordLowAddressBits = 32;
constexpr uint32_t kMinAddressBits = 32;
constexpr uint32_t kMaxAddressBits = 40;
constexpr uint32_t kDisplacementBits = 8;
constexpr uint64_t kSaturatedDisplacement = (1u << kDisplacementBits) - 1;
constexpr size_t kSlotSize = 8;

struct IndexGeometry {
  uint64_t capacity = 1;  // home slots
  uint64_t slots = 1;     // capacity + overflow slots
  uint32_t address_bits = kMinAddressBits;
  uint32_t max_displacement = 0;
  uint64_t total_displacement = 0;  // sum over keys, for the mean
  uint64_t keys = 0;

  uint32_t tag_bits() const {
    return 64 - kDisplacementBits - address_bits;
  }
};

// The home slot of a key of hash `hash` among `capacity` home slots: the
// hash read as a fraction of 2^64, scaled. The one home formula of hash
// order, for the hash index and for inline slots alike.
inline uint64_t HomeOf(uint64_t hash, uint64_t capacity) {
  return static_cast<uint64_t>(
      (static_cast<unsigned __int128>(hash) * capacity) >> 64);
}

// Robin Hood's rule for a lookup walking from its key's home: a used slot
// `d` slots past that home holds an entry `disp` slots past its own home.
// If disp < d that entry's home is after ours, and so is every later one:
// the key is not here (kStop). If disp == d the entry shares our home and
// may be the key (kCandidate); if disp > d its home is before ours (kPass).
// `saturated`: disp is only a floor (the hash index's 255 means 255 or
// more), so the entry may share our home from d >= disp on. The one probe
// rule of both layouts (HashIndex::Probe, InlineTable::Probe) and of the
// inspector; an empty slot stops a walk before this is asked.
enum class RunStep { kStop, kPass, kCandidate };
inline RunStep RobinHoodStep(uint64_t disp, uint64_t d,
                             bool saturated = false) {
  if (saturated) return d >= disp ? RunStep::kCandidate : RunStep::kPass;
  return disp < d    ? RunStep::kStop
         : disp == d ? RunStep::kCandidate
                     : RunStep::kPass;
}

// Robin Hood placement of keys that arrive in the order of their homes
// (hash order, or key order with key_order_model.h's homes): each takes
// the first free slot at or after its home, so no key is ever moved. The
// one placement rule of both layouts, for planning and for writing.
class Placement {
 public:
  // The slot of the next key, whose home `home` is not below the last
  // one's; with `geo`, its displacement is counted there.
  uint64_t Place(uint64_t home, IndexGeometry* geo = nullptr) {
    assert(home >= last_home_);
    last_home_ = home;
    const uint64_t slot = home > next_free_ ? home : next_free_;
    next_free_ = slot + 1;
    if (geo != nullptr) {
      const uint64_t d = slot - home;
      if (d > geo->max_displacement) {
        geo->max_displacement = static_cast<uint32_t>(
            d < uint64_t{UINT32_MAX} ? d : uint64_t{UINT32_MAX});
      }
      geo->total_displacement += d;
    }
    return slot;
  }
  // The first slot no key has taken.
  uint64_t next_free() const { return next_free_; }

 private:
  uint64_t next_free_ = 0;
  uint64_t last_home_ = 0;
};

// Capacity for `keys` distinct keys at `load_factor`.
uint64_t IndexCapacity(uint64_t keys, double load_factor);
// Address bits for a log of `logical_bytes`; 0 if too large for the format.
uint32_t AddressBitsFor(uint64_t logical_bytes);

// Collects (hash, address) pairs in 12 bytes each and writes the slots in
// one pass. Pairs are kept in fixed-size chunks (no reallocation doubling,
// so memory stays at 12 bytes a key plus one part-filled chunk) and sorted
// in place at Finish by a most-significant-byte radix sort: hashes are
// uniform, so two or three byte passes leave runs short enough for an
// insertion sort, with no second buffer and no k-way merge.
//
// With a memory bound (SpillPast), records go to a SpillSorter instead:
// past the bound they are sorted in runs on disk and merged as the slots
// are written, in the same order, so the slots are the same.
class HashIndexBuilder {
 public:
  HashIndexBuilder();
  ~HashIndexBuilder();

  // From now on, holds at most about `budget` bytes of records, the rest in
  // temporary files in `dir`. REQUIRES: no key added yet.
  void SpillPast(SpillDir* dir, size_t budget);

  // REQUIRES: address < 2^40; `hash` has its low 8 bits clear.
  void Add(uint64_t hash, uint64_t address);
  uint64_t num_keys() const { return num_keys_; }

  // Lays out the slots for a log of `logical_bytes` and passes them to
  // `sink` in order, in pieces. Fills `*geometry`.
  using Sink = std::function<Status(const Slice&)>;
  Status Finish(double load_factor, uint64_t logical_bytes, const Sink& sink,
                IndexGeometry* geometry);

  // The same placement, in steps, for the inline layout (inline_table.h),
  // whose addresses are entry ordinals 0..n-1 (n < 2^32): sorts the keys
  // and returns where they would go (address_bits is left 0), writing
  // nothing; a builder can still change its mind.
  IndexGeometry Plan(double load_factor);
  // After Plan: calls `visit(slot, hash, address, ahead)` for every key in
  // slot order; `ahead` is the address of a key a few places later (or
  // kNoAddress), for the caller to prefetch what it will read there.
  static constexpr uint64_t kNoAddress = ~uint64_t{0};
  using Visit = std::function<Status(uint64_t slot, uint64_t hash,
                                     uint64_t address, uint64_t ahead)>;
  Status VisitSlots(const IndexGeometry& geometry, const Visit& visit);
  // After VisitSlots: calls `emit(slot)` for addresses 0, 1, ..., n-1 (the
  // slot of each entry, in entry order), radix-sorting the records by
  // address in place rather than holding a second array. Frees the records.
  Status SlotsByAddress(const std::function<Status(uint64_t slot)>& emit);

  // Bytes held now (the builder's index memory).
  size_t MemoryUsage() const;
  // The first error of a spill file, if any.
  Status status() const { return status_; }

 private:
#pragma pack(push, 4)
  struct Record {
    uint64_t hash_and_high;  // hash | address bits 32..39
    uint32_t address_low;
    bool operator<(const Record& o) const {
      return hash_and_high != o.hash_and_high ? hash_and_high < o.hash_and_high
                                              : address_low < o.address_low;
    }
    static bool Less(const char* a, const char* b);
  };
#pragma pack(pop)
  static_assert(sizeof(Record) == 12, "a record must take 12 bytes");
  static constexpr size_t kChunkShift = 16;
  static constexpr size_t kChunkRecords = size_t{1} << kChunkShift;

  Record& At(size_t i) {
    return chunks_[i >> kChunkShift][i & (kChunkRecords - 1)];
  }
  // Sorts records [lo, hi), which agree on the first `byte` bytes of their
  // 12-byte sort key (hash, then address), by the rest.
  static constexpr int kSortKeyBytes = 12;
  void RadixSort(size_t lo, size_t hi, int byte);

  // Hands each record to `visit` in sorted order.
  Status ForEachSorted(const std::function<Status(Record*)>& visit);

  std::vector<std::unique_ptr<Record[]>> chunks_;
  size_t in_last_chunk_ = kChunkRecords;
  uint64_t num_keys_ = 0;
  // With a memory bound: the records, and VisitSlots' records for
  // SlotsByAddress.
  std::unique_ptr<SpillSorter> spilled_;
  std::unique_ptr<SpillSorter> by_address_;
  SpillDir* spill_dir_ = nullptr;
  size_t spill_budget_ = 0;
  bool sorted_ = false;
  bool keep_by_address_ = true;
  Status status_;
};

// Reads slots in place (mmap) or from memory.
class HashIndex {
 public:
  HashIndex() = default;
  void Init(const char* slots, const IndexGeometry& geometry) {
    slots_ = slots;
    geo_ = geometry;
    addr_shift_ = geometry.address_bits;
    addr_mask_ = (uint64_t{1} << geometry.address_bits) - 1;
    tag_shift_ = geometry.address_bits + kDisplacementBits;
  }
  const IndexGeometry& geometry() const { return geo_; }

  uint64_t Home(uint64_t hash) const { return HomeOf(hash, geo_.capacity); }
  uint64_t Slot(uint64_t i) const {
    return DecodeFixed64(slots_ + i * kSlotSize);
  }
  // The tag of `hash`: the top bits of its fraction past the home slot.
  uint64_t Tag(uint64_t hash) const {
    return (hash * geo_.capacity) >> tag_shift_;
  }
  // The slot word for a key of tag `tag` at `displacement` slots from its
  // home whose entry is at `address`; the inverse of the accessors below.
  uint64_t EncodeSlot(uint64_t tag, uint64_t displacement,
                      uint64_t address) const {
    const uint64_t disp = displacement < kSaturatedDisplacement
                              ? displacement
                              : kSaturatedDisplacement;
    return (tag << tag_shift_) | (disp << addr_shift_) | (address + 1);
  }
  // The fields of a used (nonzero) slot `w`, as the layout above says.
  uint64_t TagOf(uint64_t w) const { return w >> tag_shift_; }
  uint64_t AddressOf(uint64_t w) const { return (w & addr_mask_) - 1; }
  uint64_t DisplacementOf(uint64_t w) const {
    return (w >> addr_shift_) & kSaturatedDisplacement;
  }
  void PrefetchHome(uint64_t hash) const {
    __builtin_prefetch(slots_ + Home(hash) * kSlotSize);
  }

  // Calls `candidate(address)` for each slot that may hold `hash`, in slot
  // order, until it returns true. Returns the number of slots read.
  template <typename Candidate>
  uint64_t Probe(uint64_t hash, Candidate&& candidate) const {
    const uint64_t home = Home(hash);
    const uint64_t tag = Tag(hash);
    uint64_t end = home + geo_.max_displacement + 1;
    if (end > geo_.slots) end = geo_.slots;
    uint64_t i = home;
    for (uint64_t d = 0; i < end; ++i, ++d) {
      const uint64_t w = Slot(i);
      if (w == 0) break;
      const uint64_t disp = DisplacementOf(w);
      const bool saturated = disp == kSaturatedDisplacement;
      const RunStep step = RobinHoodStep(disp, d, saturated);
      if (step == RunStep::kStop) break;
      if (step == RunStep::kCandidate) {
        const uint64_t t = TagOf(w);
        if (t == tag) {
          if (candidate(AddressOf(w))) return i - home + 1;
        } else if (t > tag && !saturated) {
          break;  // same home, later in hash order
        }
      }
    }
    return i - home + (i < end ? 1 : 0);
  }

 private:
  const char* slots_ = nullptr;
  IndexGeometry geo_;
  uint32_t addr_shift_ = 32;
  uint64_t addr_mask_ = 0;
  uint32_t tag_shift_ = 40;
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
