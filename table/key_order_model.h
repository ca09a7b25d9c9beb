// The home function of an inline file whose slots are in key order (format
// version 4, meta block flag kKeyOrderedSlots): instead of a hash, a key's
// home slot is an estimate of its rank among the file's keys, scaled to the
// home slots. A greater key (bytewise) never gets a smaller home, so Robin
// Hood placement, which keeps entries in the order of their homes, keeps
// them in key order too: no order array, and Seek goes to the target's home
// and reads forward, one run of slots like a point lookup.
//
// The estimate: every key in the file starts with the bytes its first and
// last keys share (`prefix`). The next 8 bytes, big-endian and zero-padded,
// are the key's number x. Buckets of 2^shift numbers each, starting at the
// first key's number, split the file's range of numbers; a bucket's first
// home is where its keys begin in key order, scaled, and within a bucket
// homes are interpolated linearly. The builder takes this placement only if
// its displacements are as short as a hash's would be (inline_entries.h):
// keys that crowd within a bucket (or beyond the 8 bytes) fall back to hash
// order.
//
// Encoding, in the inline directory after its header:
//   fixed32 prefix_len     bytes every key shares (0..255)
//   fixed32 shift          bucket width, log2 (0..63)
//   fixed32 buckets        B (2..kMaxOrderBuckets)
//   fixed64 base           the first key's number
//   (B + 1) x fixed32      home of each bucket's first number: nondecreasing,
//                          from 0; the last is the home slot count
//   prefix_len bytes       the prefix
//
// Byte layout: docs/format.md, "Slots in key order (version 4)".
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "rocksdb/slice.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

constexpr uint32_t kMaxOrderBuckets = 4096;
// Home slot counts above this do not fit a bucket's fixed32.
constexpr uint64_t kMaxOrderedCapacity = 0xffffffffu;
// The most bytes an encoded model takes: its fields, the starts and the
// longest prefix (a key's).
constexpr uint32_t kKeyOrderModelMaxBytes =
    20 + (kMaxOrderBuckets + 1) * 4 + 255;

class KeyOrderModel {
 public:
  // Fits the model to `n` (>= 1) keys in bytewise order, `key(i)` giving
  // the i-th, for `capacity` (1..kMaxOrderedCapacity) home slots.
  void Fit(uint64_t n, const std::function<Slice(uint64_t)>& key,
           uint64_t capacity);
  // The same, for keys read once in order: `scan` hands each of the `n`
  // keys, first to last, to the function it is given.
  using KeyVisit = std::function<void(const Slice&)>;
  void Fit(uint64_t n, const Slice& first, const Slice& last,
           const std::function<void(const KeyVisit&)>& scan,
           uint64_t capacity);

  // The home of `key`, in [0, capacity): monotone in bytewise key order,
  // for any key (those below the file's keys get 0, above it capacity - 1).
  uint64_t Home(const Slice& key) const {
    const size_t plen = prefix_.size();
    if (plen != 0) {
      const size_t m = key.size() < plen ? key.size() : plen;
      const int c = memcmp(key.data(), prefix_.data(), m);
      if (c < 0 || (c == 0 && key.size() < plen)) return 0;
      if (c > 0) return capacity_ - 1;
    }
    const uint64_t x = NumberOf(key, plen);
    if (x < base_) return 0;
    const uint64_t off = x - base_;
    const uint64_t b = off >> shift_;
    if (b >= buckets_) return capacity_ - 1;
    const uint64_t lo = starts_[b];
    const uint64_t span = starts_[b + 1] - lo;
    const uint64_t within = off & ((uint64_t{1} << shift_) - 1);
    const uint64_t home =
        lo + static_cast<uint64_t>(
                 (static_cast<unsigned __int128>(span) * within) >> shift_);
    return home < capacity_ ? home : capacity_ - 1;
  }

  void EncodeTo(std::string* dst) const;
  // Decodes a model from the front of `*in` (advancing it) for `capacity`
  // home slots and keys of at most `key_width` bytes: false, with the reason
  // in `*why`, if any field is out of range or the homes go down.
  bool DecodeFrom(Slice* in, uint64_t capacity, uint32_t key_width,
                  std::string* why);

  size_t prefix_len() const { return prefix_.size(); }
  uint32_t buckets() const { return buckets_; }
  uint32_t shift() const { return shift_; }
  size_t MemoryUsage() const {
    return prefix_.capacity() + starts_.capacity() * sizeof(uint32_t);
  }
  // The 8 bytes of `key` from `at`, big-endian, zeros past its end.
  static uint64_t NumberOf(const Slice& key, size_t at) {
    uint64_t x = 0;
    if (key.size() >= at + 8) {
      memcpy(&x, key.data() + at, 8);
      return __builtin_bswap64(x);
    }
    for (size_t i = 0; i < 8; ++i) {
      x = (x << 8) |
          (at + i < key.size() ? static_cast<uint8_t>(key[at + i]) : 0);
    }
    return x;
  }

 private:

  std::string prefix_;
  uint32_t shift_ = 0;
  uint32_t buckets_ = 0;
  uint64_t base_ = 0;
  uint64_t capacity_ = 1;
  std::vector<uint32_t> starts_;  // buckets_ + 1
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
