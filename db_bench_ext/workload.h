// The built-in workloads and their keys and values. Every key is a pure
// function of a 64-bit "key hash" h = Mix(i) of its index i: its first 8
// bytes are h big-endian (or its first 20 are h in decimal digits, or its
// first 27 "tNN/user" and 19 digits, NN from h's top 4 bits, the digits
// the rest), so keys are distinct, sort in the order of h, and key i for
// i >= num is never in the database (the absent keys).
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "rocksdb/slice.h"

namespace db_bench_ext {

struct Workload {
  std::string name;       // cuckoo, sparkey, misses
  int key_size = 8;       // fixed key size, or 0 for variable
  int min_key = 8;        // variable keys: [min_key, max_key]
  int max_key = 32;
  int value_size = 100;
  // The share of each value that is random; the rest repeats it, so a
  // codec saves about 1 - this (db_bench's --compression_ratio).
  double compression_ratio = 1.0;
  // Keys begin with h in 20 zero-padded decimal digits instead of its 8
  // bytes (text keys, which sort the same way).
  bool decimal_keys = false;
  // Keys are "tNN/user" and 19 decimal digits: a tenant of 16 (h's top 4
  // bits) and an id (the other 60), compound keys that vary little in
  // their first bytes.
  bool compound_keys = false;
  bool mmap_read = true;  // for robinhood and block (cuckoo, plain always)
  // Phases this workload runs when --benchmarks is not given.
  std::vector<std::string> default_phases;
  std::string description;

  bool FixedKeys() const { return key_size > 0; }
  double AverageKeySize() const {
    return FixedKeys() ? key_size : (min_key + max_key) / 2.0;
  }
  static constexpr int kMaxKeySize = 64;
};

// Looks up a built-in workload by name and applies --key_size/--value_size
// overrides. Returns false for an unknown name.
bool MakeWorkload(const std::string& name, int key_size_override,
                  int value_size_override, Workload* out);

// A bijection on 64-bit integers (splitmix64's finalizer).
inline uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

class KeySpace {
 public:
  KeySpace(const Workload& w, uint64_t num) : w_(w), num_(num) {}
  uint64_t num() const { return num_; }
  const Workload& workload() const { return w_; }

  static uint64_t HashOf(uint64_t index) { return Mix(index); }
  // Writes key of hash h into buf (>= Workload::kMaxKeySize bytes).
  rocksdb::Slice Key(uint64_t h, char* buf) const;
  // Writes the value of key hash h into buf (>= value_size bytes).
  rocksdb::Slice Value(uint64_t h, char* buf) const;

  // Key hashes of keys present (indexes 0..num-1), sorted by key.
  std::vector<uint64_t> SortedHashes() const;

 private:
  Workload w_;
  uint64_t num_;
};

// Random choice of present or absent keys for the read phases.
class KeyChooser {
 public:
  // `range`: present keys come from the first `range` (0: all `num`).
  KeyChooser(uint64_t num, uint64_t seed, uint64_t range = 0)
      : num_(num), range_(range == 0 || range > num ? num : range),
        rng_(seed) {}
  uint64_t PresentHash() { return KeySpace::HashOf(rng_() % range_); }
  uint64_t AbsentHash() { return KeySpace::HashOf(num_ + rng_() % num_); }

 private:
  uint64_t num_;
  uint64_t range_;
  std::mt19937_64 rng_;
};

}  // namespace db_bench_ext
