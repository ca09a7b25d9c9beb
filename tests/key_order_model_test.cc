// Unit tests of key-ordered homes (table/key_order_model.h) and of the
// builder's choice between key and hash order (InlineEntryBuffer::
// PlanKeyOrder): homes never go down as keys go up, whatever the key, the
// encoding round-trips and refuses what would break that, and the plan
// takes key order exactly when the keys spread evenly.
#include "table/key_order_model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "table/hash_index.h"
#include "table/inline_entries.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {
namespace {

std::string BigEndian(uint64_t v) {
  std::string s(8, '\0');
  for (int i = 7; i >= 0; --i, v >>= 8) s[i] = static_cast<char>(v & 0xff);
  return s;
}

KeyOrderModel FitTo(const std::vector<std::string>& keys, uint64_t capacity,
                    uint32_t map_positions = 0) {
  KeyOrderModel m;
  m.Fit(
      keys.size(), [&](uint64_t i) { return Slice(keys[i]); }, capacity,
      map_positions);
  return m;
}

// The digit map positions of the model the builder's plan takes for
// `keys` (0: the raw bytes), or -1 if it takes hash order.
int PlannedMapPositions(const std::vector<std::string>& keys) {
  InlineEntryBuffer buf(64, true);
  for (const std::string& k : keys) buf.Add(k, "v");
  IndexGeometry g;
  if (!buf.PlanKeyOrder(0.8, &g)) return -1;
  return static_cast<int>(buf.key_order()->mapped_positions());
}

// Homes over `probes` in bytewise order never go down, and stay in range.
void ExpectMonotone(const KeyOrderModel& m, std::vector<std::string> probes,
                    uint64_t capacity) {
  std::sort(probes.begin(), probes.end());
  uint64_t last = 0;
  for (const std::string& k : probes) {
    const uint64_t h = m.Home(k);
    ASSERT_LT(h, capacity) << Slice(k).ToString(true);
    ASSERT_GE(h, last) << Slice(k).ToString(true);
    last = h;
  }
}

TEST(KeyOrderModelTest, HomesFollowKeyOrderForAnyKey) {
  std::mt19937_64 rng(11);
  // Keys sharing a 3-byte prefix, of varying lengths past it.
  std::set<std::string> set;
  while (set.size() < 5000) {
    std::string k = "usr" + std::string(1 + rng() % 12, '\0');
    for (size_t i = 3; i < k.size(); ++i) k[i] = static_cast<char>(rng());
    set.insert(k);
  }
  const std::vector<std::string> keys(set.begin(), set.end());
  const uint64_t capacity = IndexCapacity(keys.size(), 0.8);
  const KeyOrderModel m = FitTo(keys, capacity);
  EXPECT_EQ(m.prefix_len(), 3u);
  // The file's keys, and keys it does not have: shorter, other prefixes,
  // below and above it, empty, and every one-byte key.
  std::vector<std::string> probes = keys;
  for (int i = 0; i < 3000; ++i) {
    std::string k(rng() % 14, '\0');
    for (auto& c : k) c = static_cast<char>(rng());
    probes.push_back(k);
    probes.push_back("us" + k);
    probes.push_back("usr" + k);
    probes.push_back("usq" + k);
    probes.push_back("uss" + k);
  }
  for (int c = 0; c < 256; ++c) probes.push_back(std::string(1, char(c)));
  probes.push_back("");
  probes.push_back("usr");
  probes.push_back(std::string("usr\0", 4));
  probes.push_back("usr" + std::string(20, '\xff'));
  ExpectMonotone(m, probes, capacity);
  EXPECT_EQ(m.Home(""), 0u);
  EXPECT_EQ(m.Home("zzz"), capacity - 1);
}

TEST(KeyOrderModelTest, NumberOfReadsEightBytesFromAnyOffset) {
  std::mt19937_64 rng(5);
  for (size_t len = 0; len < 20; ++len) {
    std::string k(len, '\0');
    for (auto& c : k) c = static_cast<char>(rng());
    for (size_t at = 0; at <= len + 2; ++at) {
      uint64_t want = 0;
      for (size_t i = 0; i < 8; ++i) {
        want = (want << 8) |
               (at + i < len ? static_cast<uint8_t>(k[at + i]) : 0u);
      }
      ASSERT_EQ(KeyOrderModel::NumberOf(k, at), want)
          << "length " << len << " at " << at;
    }
  }
}

std::string Decimal(const char* prefix, uint64_t v, int width) {
  char buf[40];
  snprintf(buf, sizeof(buf), "%s%0*llu", prefix, width,
           static_cast<unsigned long long>(v));
  return buf;
}

// Keys over small alphabets, of several lengths, for digit maps.
std::vector<std::string> AlphabetKeys(std::mt19937_64& rng, size_t n,
                                      const std::string& alphabet,
                                      size_t min_len, size_t max_len) {
  std::set<std::string> set;
  while (set.size() < n) {
    std::string k(min_len + rng() % (max_len - min_len + 1), '\0');
    for (auto& c : k) c = alphabet[rng() % alphabet.size()];
    set.insert("id:" + k);
  }
  return {set.begin(), set.end()};
}

// A key of `keys` with one byte changed to anything or by one, cut, or
// extended: keys around the file's, mostly not in it.
std::string MutatedKey(const std::vector<std::string>& keys,
                       std::mt19937_64& rng) {
  std::string k = keys[rng() % keys.size()];
  const size_t at = rng() % k.size();
  switch (rng() % 4) {
    case 0: k[at] = static_cast<char>(rng()); break;
    case 1: k[at] = static_cast<char>(k[at] + ((rng() & 1) ? 1 : -1)); break;
    case 2: k.resize(at); break;
    default: k.append(1 + rng() % 4, static_cast<char>(rng())); break;
  }
  return k;
}

// A digit map keeps homes in key order for any key: the file's, keys with
// bytes outside a position's alphabet (below, between and above its
// values), shorter and longer ones, and keys off the prefix.
TEST(KeyOrderModelTest, DigitMapHomesFollowKeyOrderForAnyKey) {
  std::mt19937_64 rng(23);
  for (const std::string& alphabet :
       {std::string("0123456789"), std::string("0123456789abcdef"),
        std::string("ACGT"), std::string("\x01\x7f\xfe")}) {
    const std::vector<std::string> keys =
        AlphabetKeys(rng, 3000, alphabet, 1, 12);
    const uint64_t capacity = IndexCapacity(keys.size(), 0.8);
    const KeyOrderModel m = FitTo(keys, capacity, kMaxShortMapPositions);
    ASSERT_GT(m.mapped_positions(), 0u) << alphabet;
    std::vector<std::string> probes = keys;
    for (int i = 0; i < 4000; ++i) {
      probes.push_back(MutatedKey(keys, rng));
      std::string any(rng() % 14, '\0');
      for (auto& c : any) c = static_cast<char>(rng());
      probes.push_back("id:" + any);
      probes.push_back(any);
    }
    probes.push_back("");
    probes.push_back("id:");
    probes.push_back("id:" + std::string(12, '\xff'));
    probes.push_back("id:" + std::string(12, '\0'));
    ExpectMonotone(m, probes, capacity);
  }
}

// Zero-padded decimal counters under a digit map: dense numbers, so every
// key gets its own home, evenly spread; without the map they crowd.
TEST(KeyOrderModelTest, DigitMapSpreadsDecimalCounters) {
  std::vector<std::string> keys;
  const uint64_t n = 100000;
  for (uint64_t i = 0; i < n; ++i) keys.push_back(Decimal("key", i, 5));
  const uint64_t capacity = IndexCapacity(n, 0.8);
  const KeyOrderModel m = FitTo(keys, capacity, kMaxShortMapPositions);
  EXPECT_EQ(m.prefix_len(), 3u);
  // Five digits (radix 11) and the padding past them (radix 2): all 8.
  EXPECT_EQ(m.mapped_positions(), 8u);
  for (uint64_t i = 1; i < n; ++i) {
    ASSERT_GE(m.Home(keys[i]), m.Home(keys[i - 1]));
  }
  for (uint64_t i = 0; i < n; i += 997) {
    const double want = static_cast<double>(i) * capacity / n;
    EXPECT_NEAR(static_cast<double>(m.Home(keys[i])), want, capacity / 64.0)
        << keys[i];
  }
  // The raw bytes put the keys in few of 4,096 buckets.
  const KeyOrderModel raw = FitTo(keys, capacity);
  std::set<uint64_t> homes;
  for (const std::string& k : keys) homes.insert(raw.Home(k));
  EXPECT_LT(homes.size(), n / 2);
}

// Binary keys use every byte value: the map keeps the positions whose
// radixes (257 each) fit below 2^63, seven of them.
TEST(KeyOrderModelTest, DigitMapOfFullAlphabetsKeepsWhatFits) {
  std::mt19937_64 rng(29);
  std::set<std::string> set;
  while (set.size() < 20000) set.insert(BigEndian(rng()));
  const std::vector<std::string> keys(set.begin(), set.end());
  const uint64_t capacity = IndexCapacity(keys.size(), 0.8);
  const KeyOrderModel m = FitTo(keys, capacity, kMaxShortMapPositions);
  EXPECT_EQ(m.mapped_positions(), 7u);
  ExpectMonotone(m, keys, capacity);
}

TEST(KeyOrderModelTest, DigitMapEncodingRoundTripsAndRefusesBadMaps) {
  std::vector<std::string> keys;
  for (uint64_t i = 0; i < 5000; ++i) {
    keys.push_back(Decimal("u/", i * 19997, 8));
  }
  const uint64_t capacity = IndexCapacity(keys.size(), 0.8);
  const KeyOrderModel m = FitTo(keys, capacity, kMaxShortMapPositions);
  ASSERT_EQ(m.mapped_positions(), 8u);
  std::string enc;
  m.EncodeTo(&enc);
  const size_t map_at = 20 + (m.buckets() + 1) * 4 + m.prefix_len();
  ASSERT_EQ(enc.size(), map_at + 4 + 8 * 32);
  // The first position's alphabet: the digits '0' to '9'.
  for (int b = 0; b < 256; ++b) {
    const bool set = (enc[map_at + 4 + b / 8] >> (b % 8)) & 1;
    EXPECT_EQ(set, b >= '0' && b <= '9') << b;
  }
  enc += "rest";
  KeyOrderModel d;
  std::string why;
  Slice in(enc);
  ASSERT_TRUE(d.DecodeFrom(&in, capacity, 10, kMaxShortMapPositions, &why)) << why;
  EXPECT_EQ(in.ToString(), "rest");
  EXPECT_EQ(d.mapped_positions(), 8u);
  for (const std::string& k : keys) ASSERT_EQ(d.Home(k), m.Home(k));

  auto refused = [&](std::string bytes, const char* what) {
    KeyOrderModel x;
    std::string reason;
    Slice s(bytes);
    EXPECT_FALSE(x.DecodeFrom(&s, capacity, 10, kMaxShortMapPositions, &reason)) << what;
    EXPECT_FALSE(reason.empty()) << what;
  };
  refused(enc.substr(0, map_at), "no map");
  refused(enc.substr(0, map_at + 4 + 7 * 32 + 31), "map cut");
  std::string bad = enc;
  EncodeFixed32(&bad[map_at], 0);
  refused(bad, "no positions");
  bad = enc;
  EncodeFixed32(&bad[map_at], kMaxShortMapPositions + 1);
  refused(bad, "too many positions");
  bad = enc;
  std::fill(bad.begin() + map_at + 4 + 32, bad.begin() + map_at + 4 + 64, 0);
  refused(bad, "an empty alphabet");
  bad = enc;
  // Every value at every position: 257^8 numbers, past 2^63.
  std::fill(bad.begin() + map_at + 4, bad.begin() + map_at + 4 + 8 * 32,
            '\xff');
  refused(bad, "radixes past 2^63");
}

// Keys whose first bytes past the prefix vary little: a tenant digit,
// a fixed word, then the id that tells them apart.
std::vector<std::string> TenantKeys(size_t tenants, size_t per_tenant,
                                    uint64_t step) {
  std::vector<std::string> keys;
  for (size_t t = 0; t < tenants; ++t) {
    for (uint64_t i = 0; i < per_tenant; ++i) {
      char k[40];
      snprintf(k, sizeof(k), "tenant%zu/user%08llu", t,
               static_cast<unsigned long long>(i * step));
      keys.push_back(k);
    }
  }
  return keys;
}

// A long map reads past the constant bytes to the id's digits: every key
// its own number, evenly spread, where the map of 8 leaves a number to
// hundreds of keys. It ends at its last position of more than one value,
// and a position of one value keeps homes in key order for keys that
// leave it either way.
TEST(KeyOrderModelTest, LongDigitMapReadsPastConstantBytes) {
  const std::vector<std::string> keys = TenantKeys(10, 10000, 7);
  const uint64_t capacity = IndexCapacity(keys.size(), 0.8);
  const KeyOrderModel short_map =
      FitTo(keys, capacity, kMaxShortMapPositions);
  const KeyOrderModel m = FitTo(keys, capacity, kMaxMappedPositions);
  // Past "tenant": the digit, "/user" (5 bytes), 8 digits.
  EXPECT_EQ(m.prefix_len(), 6u);
  EXPECT_EQ(short_map.mapped_positions(), 8u);
  EXPECT_EQ(m.mapped_positions(), 14u);
  std::set<uint64_t> short_homes, homes;
  for (const std::string& k : keys) {
    short_homes.insert(short_map.Home(k));
    homes.insert(m.Home(k));
  }
  EXPECT_LT(short_homes.size(), keys.size() / 50);
  EXPECT_GT(homes.size(), keys.size() * 9 / 10);
  for (size_t i = 0; i < keys.size(); i += 997) {
    const double want = static_cast<double>(i) * capacity / keys.size();
    EXPECT_NEAR(static_cast<double>(m.Home(keys[i])), want, capacity / 64.0)
        << keys[i];
  }
  std::mt19937_64 rng(37);
  std::vector<std::string> probes = keys;
  for (int i = 0; i < 20000; ++i) probes.push_back(MutatedKey(keys, rng));
  for (const char* k : {"tenant0/user", "tenant0/usez", "tenant0/usea",
                        "tenant0/user99999999", "tenant9/user00000000x",
                        "tenant", "tenant:", "tenant/", "tenanu"}) {
    probes.push_back(k);
  }
  ExpectMonotone(m, probes, capacity);
}

// The builder's choice: the raw bytes, then the map of 8 (version 9),
// then a long map only where that fails; binary keys and keys the map of
// 8 spreads keep what they took.
TEST(KeyOrderModelTest, PlanTakesALongMapOnlyWhereTheShortOneCrowds) {
  EXPECT_EQ(PlannedMapPositions(TenantKeys(10, 3000, 13)), 14);
  // One tenant: the prefix takes the word, the map of 8 the digits.
  EXPECT_EQ(PlannedMapPositions(TenantKeys(1, 20000, 3)), 8);
  std::vector<std::string> binary;
  for (uint64_t i = 0; i < 20000; ++i) binary.push_back(BigEndian(i * 3));
  EXPECT_EQ(PlannedMapPositions(binary), 0);
  // Ids that crowd wherever the map ends (a third of the keys share one
  // id, each with its own suffix past 32 bytes): hash order.
  std::vector<std::string> crowded;
  for (int i = 0; i < 20000; ++i) {
    char k[64];
    snprintf(k, sizeof(k), "t%d/%032d/%06d", i % 3 == 0 ? 1 : 2,
             i % 3 == 0 ? 7 : i, i);
    crowded.push_back(k);
  }
  std::sort(crowded.begin(), crowded.end());
  EXPECT_EQ(PlannedMapPositions(crowded), -1);
}

// A long map's encoding is the short one's, with more positions: a reader
// of version 9 refuses it, one of version 10 reads it, and none reads more
// than 32 positions.
TEST(KeyOrderModelTest, LongDigitMapEncodingNeedsVersion10) {
  const std::vector<std::string> keys = TenantKeys(4, 2000, 11);
  const uint64_t capacity = IndexCapacity(keys.size(), 0.8);
  const KeyOrderModel m = FitTo(keys, capacity, kMaxMappedPositions);
  ASSERT_EQ(m.mapped_positions(), 14u);
  std::string enc;
  m.EncodeTo(&enc);
  const size_t map_at = 20 + (m.buckets() + 1) * 4 + m.prefix_len();
  ASSERT_EQ(enc.size(), map_at + 4 + 14 * 32);
  KeyOrderModel d;
  std::string why;
  Slice in(enc);
  ASSERT_TRUE(d.DecodeFrom(&in, capacity, 20, kMaxMappedPositions, &why))
      << why;
  EXPECT_TRUE(in.empty());
  for (const std::string& k : keys) ASSERT_EQ(d.Home(k), m.Home(k));
  in = Slice(enc);
  EXPECT_FALSE(d.DecodeFrom(&in, capacity, 20, kMaxShortMapPositions, &why));
  EXPECT_NE(why.find("14 positions"), std::string::npos) << why;
  std::string bad = enc + std::string(19 * 32, '\x01');
  EncodeFixed32(&bad[map_at], kMaxMappedPositions + 1);
  in = Slice(bad);
  EXPECT_FALSE(d.DecodeFrom(&in, capacity, 20, kMaxMappedPositions, &why));
  EXPECT_NE(why.find("33 positions"), std::string::npos) << why;
}

// Homes stay in key order for a shared prefix of any length, up to the 8
// bytes a number holds and past them, and for probes that stop inside the
// prefix, differ from it either way, or run past it.
TEST(KeyOrderModelTest, HomesFollowKeyOrderForEveryPrefixLength) {
  std::mt19937_64 rng(17);
  for (size_t plen = 1; plen <= 10; ++plen) {
    std::string prefix(plen, '\0');
    for (auto& c : prefix) c = static_cast<char>(0x40 + rng() % 0x80);
    std::set<std::string> set;
    while (set.size() < 2000) {
      std::string k = prefix + std::string(1 + rng() % 9, '\0');
      for (size_t i = plen; i < k.size(); ++i) k[i] = static_cast<char>(rng());
      set.insert(k);
    }
    const std::vector<std::string> keys(set.begin(), set.end());
    const uint64_t capacity = IndexCapacity(keys.size(), 0.8);
    const KeyOrderModel m = FitTo(keys, capacity);
    ASSERT_EQ(m.prefix_len(), plen);
    std::vector<std::string> probes = keys;
    for (int i = 0; i < 2000; ++i) {
      // The prefix with one byte moved either way, cut short, or whole with
      // a random tail: every side of the prefix comparison.
      std::string p = prefix;
      const size_t at = rng() % plen;
      p[at] = static_cast<char>(p[at] + ((rng() & 1) ? 1 : -1));
      std::string tail(rng() % 12, '\0');
      for (auto& c : tail) c = static_cast<char>(rng());
      probes.push_back(p + tail);
      probes.push_back(prefix.substr(0, rng() % plen) + tail);
      probes.push_back(prefix + tail);
    }
    ExpectMonotone(m, probes, capacity);
  }
}

TEST(KeyOrderModelTest, OneWordKeysGetTheHomesOfTheirZeroPaddedForms) {
  // A key's number is zero-padded past its end, so a key of one word and
  // the same key with a zero byte appended have one home, whichever way
  // Home reads them (the word itself, or the bytes past the prefix); with
  // 7-byte keys in the probes, homes stay monotone across the paths for
  // keys of a word, longer and shorter.
  std::mt19937_64 rng(23);
  for (size_t plen = 0; plen <= 8; ++plen) {
    const uint64_t high = rng() | 0x8000000000000000u;
    std::set<std::string> set;
    // A prefix of 7 bytes leaves 256 keys.
    const size_t n = plen == 7 ? 200 : 3000;
    while (set.size() < n) {
      const uint64_t low = plen == 8 ? 0 : rng() >> (8 * plen);
      const uint64_t mask = plen == 0 ? 0 : ~uint64_t{0} << (64 - 8 * plen);
      set.insert(BigEndian((high & mask) | low));
      if (plen == 8) break;
    }
    const std::vector<std::string> keys(set.begin(), set.end());
    const uint64_t capacity = IndexCapacity(keys.size(), 0.8);
    const KeyOrderModel m = FitTo(keys, capacity);
    ASSERT_EQ(m.mapped_positions(), 0u);
    if (keys.size() > 1) {
      ASSERT_EQ(m.prefix_len(), plen);
    }
    std::vector<std::string> probes = keys;
    for (int i = 0; i < 3000; ++i) {
      std::string k = keys[rng() % keys.size()];
      k[rng() % 8] = static_cast<char>(rng());
      probes.push_back(k);
      probes.push_back(BigEndian(rng()));
      probes.push_back(k.substr(0, 7));
      probes.push_back(k + std::string(1 + rng() % 4, '\0'));
    }
    for (const std::string& k : probes) {
      if (k.size() != 8) continue;
      ASSERT_EQ(m.Home(k), m.Home(k + std::string(1, '\0')))
          << "prefix " << plen << " key " << Slice(k).ToString(true);
    }
    ExpectMonotone(m, probes, capacity);
  }
}

TEST(KeyOrderModelTest, EvenKeysGetEvenHomes) {
  // Counters: key i of n has home about i / n of the way through.
  std::vector<std::string> keys;
  const uint64_t n = 100000;
  for (uint64_t i = 0; i < n; ++i) keys.push_back(BigEndian(1000 + 7 * i));
  const uint64_t capacity = IndexCapacity(n, 0.8);
  const KeyOrderModel m = FitTo(keys, capacity);
  EXPECT_LE(m.buckets(), kMaxOrderBuckets);
  // Evenly spaced homes; the slots after the last key's home, which the
  // last bucket's unused numbers would have taken, are at most a bucket's
  // share of them.
  const double last = static_cast<double>(m.Home(keys[n - 1]));
  EXPECT_GE(last, (n - 1.0) * capacity / n * (1.0 - 1.0 / m.buckets()) - 2);
  for (uint64_t i = 0; i < n; i += 977) {
    const double want = static_cast<double>(i) * last / (n - 1);
    EXPECT_NEAR(static_cast<double>(m.Home(keys[i])), want, 2.0) << i;
  }
}

TEST(KeyOrderModelTest, OneKeyAndEqualNumbers) {
  // One key: every number the same; keys alike in their first 8 bytes past
  // the prefix get one home.
  const KeyOrderModel one = FitTo({"only"}, 1);
  EXPECT_EQ(one.Home("only"), 0u);
  EXPECT_EQ(one.Home("a"), 0u);
  EXPECT_EQ(one.Home("z"), 0u);
  // (The prefix first and last share is skipped: here there is none.)
  const std::vector<std::string> alike = {"a1234567x", "a1234567y",
                                          "a1234567z", "b"};
  const KeyOrderModel m = FitTo(alike, 5);
  EXPECT_EQ(m.prefix_len(), 0u);
  EXPECT_EQ(m.Home(alike[0]), m.Home(alike[2]));
  EXPECT_LT(m.Home(alike[2]), m.Home(alike[3]));
  ExpectMonotone(m, {"a", "a1", "a1234567", "a1234567x", "a2", "b", "c"}, 5);
}

TEST(KeyOrderModelTest, EncodingRoundTripsAndRefusesBadModels) {
  std::mt19937_64 rng(5);
  std::set<std::string> set;
  while (set.size() < 2000) set.insert("p/" + BigEndian(rng()));
  const std::vector<std::string> keys(set.begin(), set.end());
  const uint64_t capacity = IndexCapacity(keys.size(), 0.8);
  const KeyOrderModel m = FitTo(keys, capacity);
  std::string enc;
  m.EncodeTo(&enc);
  EXPECT_EQ(enc.size(), 20 + (m.buckets() + 1) * 4 + m.prefix_len());
  enc += "rest";

  KeyOrderModel d;
  std::string why;
  Slice in(enc);
  ASSERT_TRUE(d.DecodeFrom(&in, capacity, 10, false, &why)) << why;
  EXPECT_EQ(in.ToString(), "rest");
  for (const std::string& k : keys) ASSERT_EQ(d.Home(k), m.Home(k));

  auto refused = [&](std::string bytes, uint64_t cap, uint32_t width,
                     const char* what) {
    KeyOrderModel x;
    std::string reason;
    Slice s(bytes);
    EXPECT_FALSE(x.DecodeFrom(&s, cap, width, false, &reason)) << what;
    EXPECT_FALSE(reason.empty()) << what;
  };
  refused(enc, capacity + 1, 10, "last home is not the capacity");
  refused(enc, capacity, 1, "prefix longer than any key");
  refused(enc.substr(0, 19), capacity, 10, "header cut");
  refused(enc.substr(0, enc.size() - 6), capacity, 10, "prefix cut");
  std::string bad = enc;
  EncodeFixed32(&bad[4], 64);
  refused(bad, capacity, 10, "shift of 64");
  bad = enc;
  EncodeFixed32(&bad[8], 1);
  refused(bad, capacity, 10, "one bucket");
  bad = enc;
  EncodeFixed32(&bad[8], kMaxOrderBuckets + 1);
  refused(bad, capacity, 10, "too many buckets");
  bad = enc;
  EncodeFixed32(&bad[20 + 4 * 5], DecodeFixed32(&bad[20 + 4 * 6]) + 1);
  refused(bad, capacity, 10, "homes go down");
  bad = enc;
  EncodeFixed32(&bad[20], 1);
  refused(bad, capacity, 10, "first home not 0");
  refused(enc, uint64_t{1} << 33, 10, "capacity beyond fixed32");
}

// The plan of an inline buffer over `keys` (sorted), in key order or not.
bool PlansKeyOrder(const std::vector<std::string>& keys,
                   IndexGeometry* geo = nullptr) {
  InlineEntryBuffer buf(64, true);
  for (const std::string& k : keys) buf.Add(k, "v");
  IndexGeometry g;
  const bool ok = buf.PlanKeyOrder(0.8, &g);
  EXPECT_EQ(ok, buf.key_order() != nullptr);
  if (geo != nullptr) *geo = g;
  return ok;
}

TEST(KeyOrderModelTest, PlanTakesEvenKeysAndRefusesCrowdedOnes) {
  // 0.8 load: hashing averages 2 slots past home; key order may take 3.5.
  EXPECT_DOUBLE_EQ(KeyOrderDisplacementLimit(0.8), 3.5);
  std::mt19937_64 rng(3);
  std::set<std::string> random_keys;
  while (random_keys.size() < 20000) random_keys.insert(BigEndian(rng()));
  IndexGeometry geo;
  ASSERT_TRUE(PlansKeyOrder({random_keys.begin(), random_keys.end()}, &geo));
  // Random keys place no worse than a hash (about 2 past home): better,
  // as the buckets' counts even out the keys' chance clumps.
  const double mean = static_cast<double>(geo.total_displacement) / geo.keys;
  EXPECT_GT(mean, 0.0);
  EXPECT_LT(mean, 2.0);
  EXPECT_LE(geo.slots, geo.capacity + geo.max_displacement + 1);

  std::vector<std::string> counters;
  for (uint64_t i = 0; i < 20000; ++i) counters.push_back(BigEndian(i * 3));
  ASSERT_TRUE(PlansKeyOrder(counters, &geo));
  EXPECT_EQ(geo.max_displacement, 0u);  // evenly spaced: each at home

  // Half the keys in one 1/4096th of the range: that bucket's homes crowd.
  std::vector<std::string> crowded;
  for (uint64_t i = 0; i < 10000; ++i) crowded.push_back(BigEndian(i));
  for (uint64_t i = 1; i <= 10000; ++i) {
    crowded.push_back(BigEndian(i * (~uint64_t{0} / 10001)));
  }
  std::sort(crowded.begin(), crowded.end());
  EXPECT_FALSE(PlansKeyOrder(crowded));
  // Keys alike in the first 8 bytes (no prefix is shared): two numbers
  // for all of them in the raw bytes and under a map of 8, so they take a
  // long map, which reads their digits.
  std::vector<std::string> alike;
  for (int i = 0; i < 300; ++i) {
    char k[20];
    snprintf(k, sizeof(k), "%c.......%06d", i < 150 ? 'a' : 'b', i);
    alike.push_back(k);
  }
  ASSERT_TRUE(PlansKeyOrder(alike, &geo));
  // Keys alike in the 32 bytes a long map reads: two homes for all.
  std::vector<std::string> alike32;
  for (int i = 0; i < 300; ++i) {
    char k[48];
    snprintf(k, sizeof(k), "%c%s%06d", i < 150 ? 'a' : 'b',
             std::string(31, '.').c_str(), i);
    alike32.push_back(k);
  }
  EXPECT_FALSE(PlansKeyOrder(alike32));
}

// Keys a digit map spreads take key order with one; binary keys keep the
// raw bytes.
TEST(KeyOrderModelTest, PlanMapsDigitsOnlyWhereTheRawBytesCrowd) {
  std::vector<std::string> counters;
  for (uint64_t i = 0; i < 20000; ++i) {
    counters.push_back(Decimal("key", i, 6));
  }
  EXPECT_EQ(PlannedMapPositions(counters), 8);
  // YCSB's keys: "user" and a hashed number, of any length.
  std::mt19937_64 rng(31);
  std::set<std::string> ycsb;
  while (ycsb.size() < 20000) {
    ycsb.insert("user" + std::to_string(rng() >> (rng() % 40)));
  }
  EXPECT_GT(PlannedMapPositions({ycsb.begin(), ycsb.end()}), 0);
  // Random numbers in 20 zero-padded digits (db_bench_ext's decimal
  // workload): every digit of every position is used, so the map leaves no
  // numbers unused between them (a radix one past the alphabet would leave
  // a tenth of each range empty at every position, and the keys of the
  // rest would crowd past the displacement rule).
  std::set<std::string> decimal;
  while (decimal.size() < 200000) decimal.insert(Decimal("", rng(), 20));
  EXPECT_EQ(PlannedMapPositions({decimal.begin(), decimal.end()}), 8);
  std::vector<std::string> binary;
  for (uint64_t i = 0; i < 20000; ++i) binary.push_back(BigEndian(i * 3));
  EXPECT_EQ(PlannedMapPositions(binary), 0);
}

// Random keys whose last one ends a quarter into its bucket: the homes
// of that bucket's keys must spread over the slots its keys need, not
// crowd into a quarter of its share (which, at about 1,000 keys a
// bucket, put keys over 150 slots past home and sent big files of random
// keys to hash order).
// `keys` placed in order at their homes: the mean and worst displacement,
// and the slot past the last one used.
struct Placed {
  double mean;
  uint64_t worst;
  uint64_t end;
};
Placed Displacement(const KeyOrderModel& m,
                    const std::vector<std::string>& keys) {
  uint64_t next = 0, worst = 0, total = 0;
  for (const std::string& k : keys) {
    const uint64_t home = m.Home(k);
    const uint64_t slot = std::max(home, next);
    worst = std::max(worst, slot - home);
    total += slot - home;
    next = slot + 1;
  }
  return {static_cast<double>(total) / keys.size(), worst, next};
}

// Random keys with a gap in their numbers whose edges fall inside buckets
// (ids that stop at 1.15e18 of 2e18, tenants that end at 15 of 20): at a
// thousand keys a bucket, the keys of a bucket that straddles an edge
// crowd into the part of its slots their numbers use, past the
// displacement rule. With room for such buckets they spread as a hash
// would place them, and homes stay in key order.
TEST(KeyOrderModelTest, BucketsAtTheEdgeOfAGapDoNotCrowd) {
  const uint64_t n = 4000000;
  const uint64_t unit = uint64_t{1} << 40;
  std::mt19937_64 rng(13);
  std::vector<uint64_t> numbers(n);
  // [0, 1000.3 units) and [2999.6, 4095.5): 4,096 buckets of a unit each.
  for (uint64_t& x : numbers) {
    x = rng() % 2 == 0 ? rng() % (1000 * unit + unit * 3 / 10)
                       : 2999 * unit + unit * 6 / 10 +
                             rng() % (1095 * unit + unit * 9 / 10);
  }
  std::sort(numbers.begin(), numbers.end());
  numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
  std::vector<std::string> keys;
  keys.reserve(numbers.size());
  for (uint64_t x : numbers) keys.push_back(BigEndian(x));
  const uint64_t capacity = static_cast<uint64_t>(keys.size() / 0.8);
  KeyOrderModel m = FitTo(keys, capacity);
  const auto fitted = Displacement(m, keys);
  EXPECT_GT(fitted.worst, 300u);  // past a slot's distance byte
  ASSERT_TRUE(m.SpreadPartialBuckets());
  const auto spread = Displacement(m, keys);
  EXPECT_LT(spread.worst, 64u);
  EXPECT_LT(spread.mean, 2.5);
  ExpectMonotone(m, keys, capacity);
  // The builder takes that second try: key order, where it took hash order.
  IndexGeometry geo;
  EXPECT_TRUE(PlansKeyOrder(keys, &geo));
  EXPECT_LT(static_cast<double>(geo.total_displacement) / geo.keys, 2.5);
  // Evenly spaced keys fill their buckets but the last: spread or not,
  // each keeps a home of its own.
  std::vector<std::string> even;
  for (uint64_t i = 0; i < 100000; ++i) even.push_back(BigEndian(i * 7));
  const uint64_t even_capacity = IndexCapacity(even.size(), 0.8);
  KeyOrderModel e = FitTo(even, even_capacity);
  EXPECT_EQ(Displacement(e, even).worst, 0u);
  e.SpreadPartialBuckets();
  EXPECT_EQ(Displacement(e, even).worst, 0u);
  ExpectMonotone(e, even, even_capacity);
}

TEST(KeyOrderModelTest, TheLastBucketsKeysDoNotCrowd) {
  const uint64_t n = 4000000;
  // Numbers in [0, 2^52 + 2^50): 4,096 buckets of 2^40 need shift 40, and
  // the last of them (number 4,096 would be past) is a quarter used.
  const uint64_t range = (uint64_t{1} << 52) + (uint64_t{1} << 50);
  std::mt19937_64 rng(11);
  std::vector<uint64_t> numbers(n);
  for (uint64_t& x : numbers) x = rng() % range;
  std::sort(numbers.begin(), numbers.end());
  numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
  std::vector<std::string> keys;
  keys.reserve(numbers.size());
  for (uint64_t x : numbers) keys.push_back(BigEndian(x));
  const uint64_t capacity = static_cast<uint64_t>(keys.size() / 0.8);
  const KeyOrderModel m = FitTo(keys, capacity);
  const Placed placed = Displacement(m, keys);
  EXPECT_LT(placed.worst, 64u);
  EXPECT_LT(placed.mean, 2.5);
  EXPECT_LE(placed.end, capacity + placed.worst + 1);
}

}  // namespace
}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
