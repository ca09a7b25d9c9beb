// Unit tests of the Robin Hood index (table/hash_index.h): hashes are fed
// in directly, so each test chooses homes and collisions and asserts the
// exact slot of every key.
#include "table/hash_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace ROCKSDB_NAMESPACE {
namespace robinhood {
namespace {

struct Built {
  std::string slots;
  IndexGeometry geo;
  HashIndex index;
};

// Builds an index over (hash, address) pairs for a log of `log_bytes`.
Status Build(const std::vector<std::pair<uint64_t, uint64_t>>& pairs,
             double load_factor, uint64_t log_bytes, Built* out) {
  HashIndexBuilder builder;
  for (const auto& p : pairs) builder.Add(p.first, p.second);
  out->slots.clear();
  Status s = builder.Finish(
      load_factor, log_bytes,
      [out](const Slice& piece) {
        out->slots.append(piece.data(), piece.size());
        return Status::OK();
      },
      &out->geo);
  out->index.Init(out->slots.data(), out->geo);
  return s;
}

// A hash whose home is `home` in a table of `capacity`, at fraction
// `t` / 2^16 of the way through that home's range: keys of one home sort,
// and get tags, in the order of `t` (0 < t < 2^16).
uint64_t HashAtHome(uint64_t home, uint64_t capacity, uint64_t t) {
  const uint64_t step = ~uint64_t{0} / capacity + 1;
  return (home * step + t * (step >> 16)) & ~uint64_t{0xff};
}

// Every address the probe offers for `hash`.
std::vector<uint64_t> Candidates(const HashIndex& index, uint64_t hash,
                                 uint64_t* slots_read = nullptr) {
  std::vector<uint64_t> out;
  uint64_t n = index.Probe(hash, [&](uint64_t a) {
    out.push_back(a);
    return false;
  });
  if (slots_read) *slots_read = n;
  return out;
}

uint64_t AddressAt(const Built& b, uint64_t slot) {
  return (b.index.Slot(slot) & ((uint64_t{1} << b.geo.address_bits) - 1)) - 1;
}
uint64_t DisplacementAt(const Built& b, uint64_t slot) {
  return (b.index.Slot(slot) >> b.geo.address_bits) & 0xff;
}

TEST(KeyHashTest, KnownAnswers) {
  // XXH3-64 of the empty input with seed 0 is 0x2D06800538D394C2 (the
  // xxHash reference value); the format clears the low 8 bits.
  EXPECT_EQ(KeyHash("", 0), 0x2d06800538d39400ULL);
  EXPECT_EQ(KeyHash("a", 0), 0xe6c632b61e964e00ULL);
  // With the default seed of RobinHoodTableOptions ("RobinHoo").
  const uint64_t seed = 0x526f62696e486f6fULL;
  EXPECT_EQ(KeyHash("", seed), 0x0dcb8c094557d600ULL);
  EXPECT_EQ(KeyHash("a", seed), 0xc1c129163e3cd700ULL);
  EXPECT_EQ(KeyHash("key00000001", seed), 0xa848b15ba006e300ULL);
  EXPECT_EQ(KeyHash("RobinHoodTable", seed), 0x0fef9fdbb971e300ULL);
}

TEST(HashIndexTest, GeometryHelpers) {
  EXPECT_EQ(IndexCapacity(0, 0.85), 1u);
  EXPECT_EQ(IndexCapacity(85, 0.85), 100u);
  EXPECT_EQ(IndexCapacity(100, 0.98), 103u);
  EXPECT_EQ(AddressBitsFor(0), 32u);
  EXPECT_EQ(AddressBitsFor((uint64_t{1} << 32) - 1), 32u);
  EXPECT_EQ(AddressBitsFor(uint64_t{1} << 32), 33u);
  EXPECT_EQ(AddressBitsFor((uint64_t{1} << 40) - 1), 40u);
  EXPECT_EQ(AddressBitsFor(uint64_t{1} << 40), 0u);
}

TEST(HashIndexTest, ExactSlotsUnderForcedCollisions) {
  // 4 keys at load 0.5: capacity 8. Three share home 2, one has home 3.
  const uint64_t cap = 8;
  const uint64_t h2a = HashAtHome(2, cap, 0x100);
  const uint64_t h2b = HashAtHome(2, cap, 0x200);
  const uint64_t h2c = HashAtHome(2, cap, 0x300);
  const uint64_t h3 = HashAtHome(3, cap, 0x100);
  Built b;
  // Insertion order does not matter: slots are in hash order.
  ASSERT_TRUE(Build({{h3, 40}, {h2c, 30}, {h2a, 10}, {h2b, 20}}, 0.5, 100, &b)
                  .ok());
  EXPECT_EQ(b.geo.capacity, cap);
  EXPECT_EQ(b.geo.slots, cap);
  EXPECT_EQ(b.slots.size(), cap * kSlotSize);
  for (uint64_t s : {0, 1, 6, 7}) EXPECT_EQ(b.index.Slot(s), 0u) << s;
  EXPECT_EQ(AddressAt(b, 2), 10u);
  EXPECT_EQ(AddressAt(b, 3), 20u);
  EXPECT_EQ(AddressAt(b, 4), 30u);
  EXPECT_EQ(AddressAt(b, 5), 40u);  // home 3, pushed two slots on
  EXPECT_EQ(DisplacementAt(b, 2), 0u);
  EXPECT_EQ(DisplacementAt(b, 3), 1u);
  EXPECT_EQ(DisplacementAt(b, 4), 2u);
  EXPECT_EQ(DisplacementAt(b, 5), 2u);
  EXPECT_EQ(b.geo.max_displacement, 2u);
  EXPECT_EQ(b.geo.total_displacement, 5u);

  EXPECT_EQ(Candidates(b.index, h2a), std::vector<uint64_t>{10});
  EXPECT_EQ(Candidates(b.index, h2b), std::vector<uint64_t>{20});
  EXPECT_EQ(Candidates(b.index, h2c), std::vector<uint64_t>{30});
  EXPECT_EQ(Candidates(b.index, h3), std::vector<uint64_t>{40});
}

TEST(HashIndexTest, MissesStopEarly) {
  const uint64_t cap = 8;
  Built b;
  ASSERT_TRUE(Build({{HashAtHome(2, cap, 0x10), 1},
                     {HashAtHome(2, cap, 0x30), 2},
                     {HashAtHome(3, cap, 0x10), 3}},
                    0.375, 100, &b)
                  .ok());
  uint64_t read = 0;
  // Home slot empty: one slot read.
  EXPECT_TRUE(Candidates(b.index, HashAtHome(0, cap, 0x10), &read).empty());
  EXPECT_EQ(read, 1u);
  // Same home, tag between the two keys: stops at the larger tag (slot 3).
  EXPECT_TRUE(Candidates(b.index, HashAtHome(2, cap, 0x20), &read).empty());
  EXPECT_EQ(read, 2u);
  // Tag below the first key of the home: stops at once.
  EXPECT_TRUE(Candidates(b.index, HashAtHome(2, cap, 0x01), &read).empty());
  EXPECT_EQ(read, 1u);
  // Home 3 is occupied by home-2 keys at slot 3: walks past it (it was
  // displaced from an earlier home), then meets home 3's own key.
  EXPECT_TRUE(Candidates(b.index, HashAtHome(3, cap, 0x20), &read).empty());
  EXPECT_EQ(read, 2u);
  // Home 4 holds the displaced home-3 key, whose displacement (1) is not
  // less than ours (0): walk on to the empty slot 5.
  EXPECT_TRUE(Candidates(b.index, HashAtHome(4, cap, 0x10), &read).empty());
  EXPECT_EQ(read, 2u);
}

TEST(HashIndexTest, OverflowPastTheEndOfTheTable) {
  // Capacity 4; three keys at home 3 go to overflow slots 4 and 5.
  const uint64_t cap = 4;
  Built b;
  ASSERT_TRUE(Build({{HashAtHome(3, cap, 0x100), 7},
                     {HashAtHome(3, cap, 0x200), 8},
                     {HashAtHome(3, cap, 0x300), 9}},
                    0.75, 100, &b)
                  .ok());
  EXPECT_EQ(b.geo.capacity, cap);
  EXPECT_EQ(b.geo.slots, 6u);
  EXPECT_EQ(b.geo.max_displacement, 2u);
  EXPECT_EQ(AddressAt(b, 3), 7u);
  EXPECT_EQ(AddressAt(b, 4), 8u);
  EXPECT_EQ(AddressAt(b, 5), 9u);
  EXPECT_EQ(Candidates(b.index, HashAtHome(3, cap, 0x300)),
            std::vector<uint64_t>{9});
  // A miss at the last home stops at the end of the slots.
  uint64_t read = 0;
  EXPECT_TRUE(Candidates(b.index, HashAtHome(3, cap, 0x400), &read).empty());
  EXPECT_EQ(read, 3u);
}

TEST(HashIndexTest, EqualHashesAreAllCandidates) {
  // Distinct keys with one hash: both offered; the log decides.
  const uint64_t h = HashAtHome(1, 4, 0x500);
  Built b;
  ASSERT_TRUE(Build({{h, 100}, {h, 50}}, 0.5, 1000, &b).ok());
  EXPECT_EQ(Candidates(b.index, h), (std::vector<uint64_t>{50, 100}));
}

TEST(HashIndexTest, SaturatedDisplacement) {
  // 400 keys with one home: displacements pass 255 and saturate.
  const uint64_t n = 400;
  std::vector<std::pair<uint64_t, uint64_t>> pairs;
  const double lf = 0.5;
  const uint64_t cap = IndexCapacity(n, lf);
  for (uint64_t i = 0; i < n; ++i) {
    pairs.emplace_back(HashAtHome(5, cap, i + 1), i);
  }
  Built b;
  ASSERT_TRUE(Build(pairs, lf, 1000, &b).ok());
  EXPECT_EQ(b.geo.max_displacement, n - 1);
  EXPECT_EQ(DisplacementAt(b, 5 + 300), kSaturatedDisplacement);
  for (uint64_t i = 0; i < n; ++i) {
    EXPECT_EQ(Candidates(b.index, pairs[i].first),
              std::vector<uint64_t>{pairs[i].second})
        << i;
  }
  uint64_t read = 0;
  EXPECT_TRUE(
      Candidates(b.index, HashAtHome(5, cap, n + 5), &read).empty());
  EXPECT_LE(read, b.geo.max_displacement + 1u);
}

TEST(HashIndexTest, RandomKeysAllFoundWithinTheBound) {
  for (double lf : {0.5, 0.85, 0.98}) {
    std::mt19937_64 rng(42);
    const uint64_t n = 100000;
    std::vector<std::pair<uint64_t, uint64_t>> pairs;
    for (uint64_t i = 0; i < n; ++i) {
      pairs.emplace_back(rng() & ~uint64_t{0xff}, i * 10);
    }
    Built b;
    ASSERT_TRUE(Build(pairs, lf, n * 10, &b).ok());
    EXPECT_EQ(b.geo.keys, n);
    uint64_t used = 0;
    for (uint64_t s = 0; s < b.geo.slots; ++s) used += b.index.Slot(s) != 0;
    EXPECT_EQ(used, n);
    for (const auto& p : pairs) {
      uint64_t read = 0;
      auto c = Candidates(b.index, p.first, &read);
      ASSERT_NE(std::find(c.begin(), c.end(), p.second), c.end());
      ASSERT_LE(read, b.geo.max_displacement + 1u);
    }
    // Misses: a 24-bit tag sends almost none of them to the log.
    uint64_t candidates = 0, reads = 0;
    for (int i = 0; i < 100000; ++i) {
      uint64_t read = 0;
      candidates += Candidates(b.index, rng() & ~uint64_t{0xff}, &read).size();
      reads += read;
      ASSERT_LE(read, b.geo.max_displacement + 1u);
    }
    EXPECT_LE(candidates, 2u) << "load factor " << lf;
    // Robin Hood with an early stop: short probes even at 0.98.
    EXPECT_LT(reads / 100000.0, lf < 0.9 ? 6.0 : 40.0) << "load factor " << lf;
  }
}

TEST(HashIndexTest, WideAddressesPast4GiB) {
  const uint64_t big = (uint64_t{1} << 35) + 12345;  // a 32 GiB log
  Built b;
  ASSERT_TRUE(Build({{HashAtHome(0, 2, 0x100), big - 1},
                     {HashAtHome(1, 2, 0x100), uint64_t{1} << 32}},
                    0.98, big, &b)
                  .ok());
  EXPECT_EQ(b.geo.address_bits, 36u);
  EXPECT_EQ(b.geo.tag_bits(), 20u);
  EXPECT_EQ(Candidates(b.index, HashAtHome(0, 2, 0x100)),
            std::vector<uint64_t>{big - 1});
  EXPECT_EQ(Candidates(b.index, HashAtHome(1, 2, 0x100)),
            std::vector<uint64_t>{uint64_t{1} << 32});
  Built too_big;
  EXPECT_TRUE(Build({{0, 0}}, 0.5, uint64_t{1} << 40, &too_big)
                  .IsNotSupported());
}

TEST(HashIndexTest, EmptyIndex) {
  Built b;
  ASSERT_TRUE(Build({}, 0.85, 0, &b).ok());
  EXPECT_EQ(b.geo.slots, 1u);
  EXPECT_EQ(b.index.Slot(0), 0u);
  EXPECT_TRUE(Candidates(b.index, 0x123400).empty());
}

// The layout the format defines, computed the obvious way: pairs sorted by
// (hash, address), each placed at max(home, previous slot + 1).
std::string ReferenceSlots(std::vector<std::pair<uint64_t, uint64_t>> pairs,
                           const IndexGeometry& geo) {
  std::sort(pairs.begin(), pairs.end());
  HashIndex shape;
  shape.Init(nullptr, geo);
  const uint32_t tag_shift = geo.address_bits + kDisplacementBits;
  std::vector<uint64_t> words;
  for (const auto& p : pairs) {
    const uint64_t home = shape.Home(p.first);
    if (words.size() < home) words.resize(home, 0);
    const uint64_t disp = std::min<uint64_t>(words.size() - home, 255);
    words.push_back(((p.first * geo.capacity) >> tag_shift << tag_shift) |
                    (disp << geo.address_bits) | (p.second + 1));
  }
  if (words.size() < geo.capacity) words.resize(geo.capacity, 0);
  std::string out;
  for (uint64_t w : words) PutFixed64(&out, w);
  return out;
}

TEST(HashIndexTest, SortedLayoutMatchesReference) {
  // Several builder chunks (65536 records each), hash distributions that
  // take the radix sort down every path (uniform; few distinct top bytes;
  // equal hashes that only the address orders), and both input orders.
  std::mt19937_64 rng(7);
  const uint64_t n = 200000;
  const std::vector<std::pair<const char*, uint64_t>> masks = {
      {"uniform", ~uint64_t{0xff}},
      {"16 distinct high bits", 0xf00000000000ff00ULL},
      {"low byte only", 0xff00ULL},
      {"8 distinct hashes", 0x7000000000000000ULL}};
  for (const auto& m : masks) {
    SCOPED_TRACE(m.first);
    std::vector<std::pair<uint64_t, uint64_t>> pairs;
    for (uint64_t i = 0; i < n; ++i) {
      pairs.emplace_back(rng() & m.second, i * 3);
    }
    Built forward, reversed;
    ASSERT_TRUE(Build(pairs, 0.85, n * 3, &forward).ok());
    EXPECT_EQ(forward.slots, ReferenceSlots(pairs, forward.geo));
    std::reverse(pairs.begin(), pairs.end());
    ASSERT_TRUE(Build(pairs, 0.85, n * 3, &reversed).ok());
    EXPECT_EQ(forward.slots, reversed.slots);
  }
}

TEST(HashIndexTest, AddressesAboveFourGiBSortAndDecode) {
  // The high address byte shares the record's word with the hash.
  std::vector<std::pair<uint64_t, uint64_t>> pairs;
  std::mt19937_64 rng(11);
  for (uint64_t i = 0; i < 1000; ++i) {
    pairs.emplace_back(rng() & 0xff00000000000000ULL,
                       (uint64_t{1} << 39) + (rng() % (uint64_t{1} << 38)));
  }
  Built b;
  ASSERT_TRUE(Build(pairs, 0.5, (uint64_t{1} << 40) - 1, &b).ok());
  EXPECT_EQ(b.geo.address_bits, 40u);
  EXPECT_EQ(b.slots, ReferenceSlots(pairs, b.geo));
}

}  // namespace
}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
