// The benchmark data set rh_load_gen writes and rh_lookup_bench looks up:
// entry i of a shape, from the index alone, so the reader regenerates any
// key without the input.
//   cuckoo   8-byte keys (big-endian), 4-byte values (db_bench's CuckooTable setup)
//   sparkey  16..32-byte keys (16 hex digits, then 'k's), 100-byte values
//   compound 27-byte keys: "tNN/user" (a tenant of 16, the id's top 4 bits)
//            and the id's other 60 bits in 19 decimal digits; 4-byte values
#pragma once

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace rh_bench {

// A bijection on 64-bit integers (the SplitMix64 finalizer), so distinct
// indexes give distinct keys in an order unrelated to the index.
inline uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

enum class Shape { kCuckoo, kSparkey, kCompound };

inline bool ParseShape(const std::string& name, Shape* shape) {
  if (name == "cuckoo") *shape = Shape::kCuckoo;
  else if (name == "sparkey") *shape = Shape::kSparkey;
  else if (name == "compound") *shape = Shape::kCompound;
  else return false;
  return true;
}

// The identity of entry i: i itself when the input is sorted.
inline uint64_t EntryId(uint64_t i, uint64_t seed, bool sorted) {
  return sorted ? i : Mix(i ^ Mix(seed));
}

// Writes entry `id`'s key at `key` (32 bytes of room); returns its length.
inline size_t MakeKey(Shape shape, uint64_t id, char* key) {
  if (shape == Shape::kCuckoo) {
    for (int b = 0; b < 8; b++) key[b] = char(id >> (56 - 8 * b));
    return 8;
  }
  if (shape == Shape::kCompound) {
    snprintf(key, 32, "t%02u/user%019" PRIu64, unsigned(id >> 60),
             id & ((uint64_t{1} << 60) - 1));
    return 27;
  }
  const size_t len = 16 + Mix(id) % 17;
  char hex[17];
  snprintf(hex, sizeof(hex), "%016" PRIx64, id);
  memcpy(key, hex, 16);
  memset(key + 16, 'k', len - 16);
  return len;
}

// Writes entry (i, id)'s value at `value` (100 bytes of room).
inline size_t MakeValue(Shape shape, uint64_t i, uint64_t id, char* value) {
  if (shape != Shape::kSparkey) {
    for (int b = 0; b < 4; b++) value[b] = char(uint32_t(i) >> (8 * b));
    return 4;
  }
  for (size_t b = 0; b < 100; b += 8) {
    const uint64_t w = Mix(id + b);
    memcpy(value + b, &w, 100 - b < 8 ? 100 - b : 8);
  }
  return 100;
}

}  // namespace rh_bench
