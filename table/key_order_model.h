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
// Digit map (format version 9, inline directory shape bit 3): keys written
// in a few byte values a position (decimal or hex digits, letters: "key"
// followed by a zero-padded counter) use a sliver of the 8-byte numbers,
// and equal-width buckets crowd them. With a map, the key's number is
// instead its first `positions` bytes past the prefix read as digits of a
// mixed radix: at position i the values the file's keys have there (its
// alphabet, k_i values) are the digits 0 to k_i - 1, in order, and the
// radix is k_i. The file's own keys map exactly, so decimal counters
// become dense numbers again. A byte outside its alphabet ends the number:
// below every value, with the least number the digits so far lead to
// (the rest 0); otherwise with the greatest number of the value below it
// (that digit, the rest at their greatest), so that it sorts between the
// keys of the values around it. Positions are taken while the radixes'
// product stays within 2^63: at most 8 in format version 9.
//
// Long digit map (format version 10, the same encoding): keys whose first
// 8 bytes past the prefix vary little ("tenant3/user00012345": a digit,
// five bytes that never change, two digits) crowd even under a map of 8
// positions. A long map reads up to 32 positions; a position of one value
// (radix 1) costs the product nothing and a lookup only a compare, so the
// digits past the constant run count. The builder tries it only where the
// map of 8 fails, ends it at its last position of more than one value, and
// writes version 10 only for a map longer than 8.
//
// Encoding, in the inline directory after its header:
//   fixed32 prefix_len     bytes every key shares (0..255)
//   fixed32 shift          bucket width, log2 (0..63)
//   fixed32 buckets        B (2..kMaxOrderBuckets)
//   fixed64 base           the first key's number
//   (B + 1) x fixed32      home of each bucket's first number: nondecreasing,
//                          from 0; the last is the home slot count
//   prefix_len bytes       the prefix
//   with a digit map only (shape bit 3):
//   fixed32 positions      bytes mapped (1..8; 1..32 from version 10)
//   positions x 32 bytes   each position's alphabet, a bitmap: bit (b % 8)
//                          of byte (b / 8) set if some key has byte b there
//                          (0 past a key's end); never empty
//
// Byte layout: docs/format.md, "Slots in key order (version 4)",
// "Digit map (version 9)" and "Long digit map (version 10)".
#pragma once

#include <array>
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
// The most bytes a digit map reads: in format version 9, and from 10 on.
constexpr uint32_t kMaxShortMapPositions = 8;
constexpr uint32_t kMaxMappedPositions = 32;
// The most bytes an encoded model takes: its fields, the starts, the
// longest prefix (a key's) and the largest digit map.
constexpr uint32_t kKeyOrderModelMaxBytes =
    20 + (kMaxOrderBuckets + 1) * 4 + 255 + 4 + kMaxMappedPositions * 32;

class KeyOrderModel {
 public:
  // Fits the model to `n` (>= 1) keys in bytewise order, `key(i)` giving
  // the i-th, for `capacity` (1..kMaxOrderedCapacity) home slots; with a
  // digit map of at most `map_positions` positions if that is not 0:
  // kMaxShortMapPositions takes the first that fit (version 9), more a
  // long map ended at its last position of more than one value.
  void Fit(uint64_t n, const std::function<Slice(uint64_t)>& key,
           uint64_t capacity, uint32_t map_positions = 0);
  // The same, for keys read in order: `scan` hands each of the `n` keys,
  // first to last, to the function it is given (once, or twice with a
  // map).
  using KeyVisit = std::function<void(const Slice&)>;
  void Fit(uint64_t n, const Slice& first, const Slice& last,
           const std::function<void(const KeyVisit&)>& scan,
           uint64_t capacity, uint32_t map_positions = 0);

  // The home of `key`, in [0, capacity): monotone in bytewise key order,
  // for any key (those below the file's keys get 0, above it capacity - 1).
  uint64_t Home(const Slice& key) const {
    if (positions_ != 0 || prefix_.size() >= 8 || key.size() < 8) {
      return HomeOfAny(key);
    }
    // A key of a word or more, a prefix shorter than a word and no digit
    // map (fixed-width binary keys): the key's first word, loaded once,
    // gives the prefix compare (one mask) and, for a key of one word, the
    // number. Inline and without the map's loop, which costs a frame of
    // saved registers where it shares a body with it.
    uint64_t w;
    memcpy(&w, key.data(), 8);
    w = __builtin_bswap64(w);
    const uint64_t head = w & prefix_mask_;
    if (head != prefix_bits_) return head < prefix_bits_ ? 0 : capacity_ - 1;
    return Place(key.size() == 8 ? w << (8 * prefix_.size())
                                 : NumberOf(key, prefix_.size()));
  }

  // After Fit: where a bucket's keys use only part of its numbers, gives it
  // slots as if they used all of them at that density (the builder's
  // second try where the first placement crowds). False, changing nothing,
  // if no bucket is so.
  bool SpreadPartialBuckets();

  void EncodeTo(std::string* dst) const;
  // Decodes a model from the front of `*in` (advancing it) for `capacity`
  // home slots and keys of at most `key_width` bytes, with a digit map of
  // at most `max_positions` positions if that is not 0: false, with the
  // reason in `*why`, if any field is out of range or the homes go down.
  bool DecodeFrom(Slice* in, uint64_t capacity, uint32_t key_width,
                  uint32_t max_positions, std::string* why);

  size_t prefix_len() const { return prefix_.size(); }
  // The bytes every key of the file starts with.
  const std::string& prefix() const { return prefix_; }
  uint32_t buckets() const { return buckets_; }
  uint32_t shift() const { return shift_; }
  // Bytes the digit map reads (0: no map, the raw 8 bytes).
  uint32_t mapped_positions() const { return positions_; }
  size_t MemoryUsage() const {
    return prefix_.capacity() + starts_.capacity() * sizeof(uint32_t) +
           digits_.capacity() * sizeof(uint16_t) +
           alphabets_.capacity() * sizeof(alphabets_[0]);
  }
  // The 8 bytes of `key` from `at`, big-endian, zeros past its end.
  static uint64_t NumberOf(const Slice& key, size_t at) {
    uint64_t x = 0;
    if (key.size() >= at + 8) {
      memcpy(&x, key.data() + at, 8);
      return __builtin_bswap64(x);
    }
    if (key.size() <= at) return 0;
    if (key.size() >= 8) {
      // The key's last word ends with bytes [at, size): shifted up, they
      // lead, with zeros after.
      memcpy(&x, key.data() + key.size() - 8, 8);
      return __builtin_bswap64(x) << (8 * (8 - (key.size() - at)));
    }
    for (size_t i = 0; i < 8; ++i) {
      x = (x << 8) |
          (at + i < key.size() ? static_cast<uint8_t>(key[at + i]) : 0);
    }
    return x;
  }
  // The key's number under the digit map, from byte `at`.
  uint64_t MappedNumberOf(const Slice& key, size_t at) const {
    uint64_t x = 0;
    for (uint32_t i = 0; i < positions_; ++i) {
      const uint8_t b =
          at + i < key.size() ? static_cast<uint8_t>(key[at + i]) : 0;
      if (run_[i] != 0) {
        // An alphabet of consecutive values (digits, a constant byte):
        // the digit is the distance from the lowest, without the table.
        const uint32_t d = static_cast<uint32_t>(b) - low_[i];
        if (d < run_[i]) {
          x += d * weights_[i];
          continue;
        }
        // Below the lowest: the least number; above: the greatest.
        return b < low_[i] ? x : x + run_[i] * weights_[i] - 1;
      }
      const uint16_t d = digits_[i * 256 + b];
      const uint64_t below = d >> 1;  // the alphabet's values below b
      if ((d & 1) != 0) {
        x += below * weights_[i];
        continue;
      }
      // Outside the alphabet: the greatest number of the keys with the
      // value below b or, with none below, the least the digits so far
      // lead to.
      if (below == 0) return x;
      return x + (below - 1) * weights_[i] + (weights_[i] - 1);
    }
    return x;
  }

 private:
  // Home for any key: a prefix of any length, a digit map (out of line:
  // the map's loop outweighs a call).
  uint64_t HomeOfAny(const Slice& key) const;
  void SetPrefix(const char* data, size_t len);
  // The home of the number `x` of a key that has the prefix.
  uint64_t Place(uint64_t x) const {
    if (x < base_) return 0;
    const uint64_t off = x - base_;
    const uint64_t b = off >> shift_;
    if (b >= buckets_) return capacity_ - 1;
    const uint64_t lo = starts_[b];
    const uint64_t span = starts_[b + 1] - lo;
    const uint64_t within = off & ((uint64_t{1} << shift_) - 1);
    // shift_ <= 63 (DecodeFrom, Fit): the mask spares the product's shift
    // a test for 64 and more.
    const uint64_t home =
        lo + static_cast<uint64_t>(
                 (static_cast<unsigned __int128>(span) * within) >>
                 (shift_ & 63));
    return home < capacity_ ? home : capacity_ - 1;
  }

  // Sets the digit map from `alphabets` (a 256-bit set a position): as
  // many positions as keep the radixes' product within 2^63, at least
  // one. False if an alphabet is empty.
  bool SetDigits(const std::vector<std::array<uint64_t, 4>>& alphabets);
  // The positions SetDigits would take of `alphabets`, without the ones of
  // one value after the last of more.
  static size_t LongMapPositions(
      const std::vector<std::array<uint64_t, 4>>& alphabets);

  std::string prefix_;
  // For Home's compare of a prefix of at most a word: the bits of a
  // number's first word the prefix takes, and its value there.
  uint64_t prefix_mask_ = 0;
  uint64_t prefix_bits_ = 0;
  uint32_t shift_ = 0;
  uint32_t buckets_ = 0;
  uint64_t base_ = 0;
  uint64_t capacity_ = 1;
  std::vector<uint32_t> starts_;  // buckets_ + 1
  // Fit's per bucket: its keys, their least and greatest offset in it.
  std::vector<uint64_t> counts_, first_in_, last_in_;
  // Digit map: for position i and byte b, digits_[i * 256 + b] is twice
  // the alphabet's values below b, plus 1 if b is in it; weights_[i] the
  // product of the later positions' radixes.
  uint32_t positions_ = 0;
  std::vector<uint16_t> digits_;
  std::vector<std::array<uint64_t, 4>> alphabets_;  // as encoded
  uint64_t weights_[kMaxMappedPositions] = {};
  // Where a position's alphabet is the run of values [low_, low_ + run_):
  // run_ its radix, else 0 (the digits_ table decides).
  uint8_t low_[kMaxMappedPositions] = {};
  uint16_t run_[kMaxMappedPositions] = {};
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
