// The hash filter (filter_policy=hashbloom:<bits>): a cache-local Bloom
// filter over the file's own 64-bit key hashes (KeyHash with the file's
// seed, the hash the index already computes), so a probe hashes nothing
// more, and a builder can write it from its hashes in hash order, one
// block after another, without holding it (a bounded builder sorts them on
// disk, spill_sorter.h).
//
// Its bytes are the filter of a filter section (filter_section.h) named
// kHashFilterName; the section puts them at a multiple of 64 in the file.
//
//   +----------------------+-------------+---------+---------+---------+
//   | blocks: m x 64 bytes | page crcs:  | m:      | probes: | crc:    |
//   |                      | p x fixed32 | fixed32 | fixed32 | fixed32 |
//   +----------------------+-------------+---------+---------+---------+
//   m:       1 .. 2^32 - 1, ceil(keys x bits / 512) as built
//   block:   of hash h, ((h >> 32) x m) >> 32; 512 bits, bit b of the
//            block is bit b % 8 of its byte b / 8
//   probes:  k in [1, kMaxHashFilterProbes]; a key sets (and a lookup
//            tests) k bits of its block: with x = h mod 2^32, each probe
//            takes bit x >> 23, then x = x * 0x9e3779b9 mod 2^32
//   page:    64 blocks, 4096 bytes (the last may be shorter); p =
//            ceil(m / 64); a page's crc is the masked CRC32C of its blocks
//   crc:     masked CRC32C of the page crcs, m and probes
//
// A filter whose blocks sit at increasing hashes is what makes it stream:
// the block of a hash never decreases as the hash grows. The page crcs let
// a mapped file's filter be checked a page at a time, as lookups first
// touch it, so opening a file reads 4 bytes for every 4 KiB of filter.
//
// Byte layout: docs/format.md, "Filter (version 3)".
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "table/verified_bits.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

class SpillDir;
class SpillSorter;

constexpr char kHashFilterName[] = "robinhood.HashBloom";
constexpr uint32_t kHashFilterBlockBytes = 64;
constexpr uint32_t kHashFilterPageBlocks = 64;
// m, probes and the crc after the page crcs.
constexpr uint32_t kHashFilterFixedTail = 12;
constexpr uint32_t kMaxHashFilterProbes = 16;
constexpr uint32_t kMinHashFilterBits = 1;
constexpr uint32_t kMaxHashFilterBits = 64;

// The block of `hash` among `blocks`: FastRange32 of its top half.
inline uint64_t HashFilterBlock(uint64_t hash, uint64_t blocks) {
  return ((hash >> 32) * blocks) >> 32;
}
// Calls `visit(bit)` for each of the `probes` bits `hash` takes in its
// block, until `visit` returns false; returns whether it never did. The
// builder sets them, a lookup tests them: one walk for both.
template <typename Visit>
inline bool ForEachHashFilterBit(uint64_t hash, uint32_t probes,
                                 Visit&& visit) {
  uint32_t x = static_cast<uint32_t>(hash);
  for (uint32_t p = 0; p < probes; ++p) {
    if (!visit(x >> 23)) return false;
    x *= 0x9e3779b9u;
  }
  return true;
}

// The probes for `bits` a key: about bits x 0.6, which a 512-bit block's
// uneven load favors over the textbook bits x ln 2.
uint32_t HashFilterProbes(uint32_t bits_per_key);

class HashFilterBuilder {
 public:
  using Sink = std::function<Status(const Slice&)>;

  // REQUIRES: bits_per_key in [kMinHashFilterBits, kMaxHashFilterBits].
  explicit HashFilterBuilder(uint32_t bits_per_key);
  ~HashFilterBuilder();

  // Each distinct key's hash once (a hash twice only sets its bits twice).
  Status Add(uint64_t hash);
  uint64_t num_keys() const { return keys_; }
  // 8 bytes a hash held, in chunks of kHeldChunk; once spilled, what the
  // sorter holds.
  size_t MemoryUsage() const;
  // Sends the hashes held, and every later one, to a sorter in `dir`
  // holding at most `budget` bytes.
  Status Spill(SpillDir* dir, size_t budget);
  bool spilled() const { return sorter_ != nullptr; }

  // The filter's bytes for the hashes added.
  uint64_t FilterBytes() const;
  // Hands them to `sink`: a block at a time once spilled; else built
  // whole in memory (bits / 8 bytes a key, beside the hashes) first. Once.
  Status Finish(const Sink& sink);

 private:
  uint64_t Blocks() const;

  const uint32_t bits_;
  uint64_t keys_ = 0;
  static constexpr size_t kHeldChunk = 65536;
  std::vector<std::vector<uint64_t>> held_;
  std::unique_ptr<SpillSorter> sorter_;
};

// A filter read back: `filter` is its bytes, at an address that is a
// multiple of 64 for one cache line a probe (filter_section.h sees to it).
class HashFilterReader {
 public:
  enum Answer { kAbsent, kMayMatch, kDamaged };

  // Checks the tail (page crcs, m, probes) by its crc; `pages_checked`:
  // the caller checked every byte already, else each page is checked the
  // first time a probe reads it. False, with `*why`, if `filter` is not
  // such a filter.
  bool Init(const Slice& filter, bool pages_checked, const char** why);
  Answer Probe(uint64_t hash) const {
    const uint64_t i = BlockIndex(hash);
    if (!pages_checked_ && !verified_.Test(i / kHashFilterPageBlocks) &&
        !CheckPage(i / kHashFilterPageBlocks)) {
      return kDamaged;
    }
    const uint8_t* block = blocks_at_ + i * kHashFilterBlockBytes;
    return ForEachHashFilterBit(hash, probes_,
                                [block](uint32_t bit) {
                                  return (block[bit >> 3] >> (bit & 7)) & 1;
                                })
               ? kMayMatch
               : kAbsent;
  }
  void Prefetch(uint64_t hash) const {
    __builtin_prefetch(blocks_at_ + BlockIndex(hash) * kHashFilterBlockBytes);
  }
  // Where, from the filter's start, the page a probe of `hash` reads
  // starts.
  uint64_t PageOffsetOf(uint64_t hash) const {
    return BlockIndex(hash) / kHashFilterPageBlocks * kHashFilterPageBlocks *
           kHashFilterBlockBytes;
  }
  size_t MemoryUsage() const { return verified_.MemoryUsage(); }

 private:
  uint64_t BlockIndex(uint64_t hash) const {
    return HashFilterBlock(hash, blocks_);
  }
  bool CheckPage(uint64_t page) const;

  const uint8_t* blocks_at_ = nullptr;
  const char* page_crcs_ = nullptr;
  uint64_t blocks_ = 0;
  uint32_t probes_ = 0;
  bool pages_checked_ = true;
  VerifiedBits verified_;
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
