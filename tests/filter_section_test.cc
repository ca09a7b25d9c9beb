// Unit tests of the filter section (filter_section.h) and the hash filter
// (hash_filter.h): what the builder keeps alive, that its bytes do not
// depend on the host's defaults or on a memory bound, the alignment
// padding, the reader's answers in place and from a copy, its false
// positive rate, and what it makes of a damaged or unknown filter; and
// the share of lookups it rules out as a reader keeps it (miss_share.h).
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>

#include "rocksdb/env.h"
#include "rocksdb/file_system.h"
#include "table/filter_section.h"
#include "table/hash_index.h"
#include "table/miss_share.h"
#include "table/spill_buffer.h"
#include "tests/test_util.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {
namespace {

constexpr uint64_t kSeed = 42;

FilterSpec Spec(const std::string& value) {
  FilterSpec spec;
  EXPECT_OK(ResolveFilterPolicy(value, &spec));
  EXPECT_FALSE(spec.none()) << value;
  return spec;
}

std::string Key(int i) { return "key" + std::to_string(i * 7919); }
uint64_t HashOf(int i) { return KeyHash(Key(i), kSeed); }

Status Finish(FilterSectionBuilder* b, uint64_t offset, std::string* out) {
  out->clear();
  uint64_t filter_bytes = 0;
  return b->Finish(
      offset,
      [&](const Slice& piece) {
        out->append(piece.data(), piece.size());
        return Status::OK();
      },
      &filter_bytes);
}

// The filter's answer, which must not be damage.
bool May(const FilterSection& f, const Slice& key, uint64_t hash) {
  bool may = false;
  EXPECT_OK(f.KeyMayMatch(key, hash, &may));
  return may;
}

// `spill_dir`: the builder's hashes go there after the first key.
std::string Build(const std::string& value, int keys, uint64_t offset,
                  SpillDir* spill_dir = nullptr) {
  FilterSectionBuilder b(Spec(value));
  for (int i = 0; i < keys; ++i) {
    EXPECT_OK(b.AddKey(Key(i), HashOf(i)));
    if (i == 0 && spill_dir != nullptr) {
      EXPECT_OK(b.Spill(spill_dir, 64 << 10));  // 8K hashes a run
    }
  }
  std::string contents;
  EXPECT_OK(Finish(&b, offset, &contents));
  return contents;
}

// From RocksDB 9.2 on, Bloom builders point at a rounding balance inside their
// policy; the table builder resolves the policy from a string and keeps no
// copy, so the section builder must. (Found on the 9.11.2 host: the policy
// freed after the table builder's constructor, its balance updated in
// freed memory at Finish, absent answers for keys the files held.)
TEST(FilterSectionTest, BuilderKeepsItsPolicyAlive) {
  for (const char* value : {"bloomfilter:10", "ribbonfilter:10"}) {
    FilterSpec spec = Spec(value);
    std::weak_ptr<const FilterPolicy> watch = spec.policy;
    FilterSectionBuilder b(std::move(spec));
    EXPECT_FALSE(watch.expired()) << value;
    ASSERT_OK(b.AddKey("a", 0));
    std::string contents;
    ASSERT_OK(Finish(&b, 0, &contents));
    EXPECT_FALSE(watch.expired()) << value;
  }
}

// The same keys make the same filter whatever the host's
// BlockBasedTableOptions defaults (optimize_filters_for_memory is on from
// 9.2, and would size the filter by malloc_usable_size): fixed sizes.
TEST(FilterSectionTest, SizeFollowsTheKeysOnly) {
  // FastLocalBloom at 10 bits a key: 10000 keys, 12500 bytes rounded up to
  // whole 64-byte lines, and 5 bytes of metadata.
  const std::string s = Build("bloomfilter:10", 10000, 0);
  const uint32_t name_len = DecodeFixed32(s.data() + s.size() - 4);
  EXPECT_EQ(s.size() - name_len - kFilterSectionTail, 12544u + 5);
  EXPECT_EQ(Build("bloomfilter:10", 10000, 0), s);
  EXPECT_EQ(Build("ribbonfilter:10", 10000, 0),
            Build("ribbonfilter:10", 10000, 0));
}

TEST(FilterSectionTest, PaddingAlignsTheFilterAndReadsBack) {
  for (const char* value : {"bloomfilter:10", "hashbloom:10"}) {
    for (uint64_t offset : {0, 1, 63, 64, 1000}) {
      SCOPED_TRACE(std::string(value) + " at " + std::to_string(offset));
      const std::string s = Build(value, 500, offset);
      const uint32_t pad = DecodeFixed32(s.data() + s.size() - 8);
      EXPECT_EQ((offset + pad) % kFilterAlignment, 0u);
      for (bool in_place : {false, true}) {
        FilterSection f;
        ASSERT_OK(f.Init(s, offset, in_place, "t.sst"));
        ASSERT_TRUE(f.usable());
        int passed = 0;
        for (int i = 0; i < 500; ++i) {
          ASSERT_TRUE(May(f, Key(i), HashOf(i))) << i;
        }
        for (int i = 500; i < 10500; ++i) {
          passed += May(f, Key(i), HashOf(i));
        }
        EXPECT_LT(passed, 300);  // about 1% at 10 bits a key
      }
    }
  }
}

TEST(FilterSectionTest, HashFilterSizeAndRate) {
  // 10 bits a key: 100000 keys take ceil(1e6 / 512) = 1954 blocks, in 31
  // pages of 64 blocks.
  const std::string s = Build("hashbloom:10", 100000, 0);
  const uint32_t name_len = DecodeFixed32(s.data() + s.size() - 4);
  EXPECT_EQ(s.size() - name_len - kFilterSectionTail,
            1954u * kHashFilterBlockBytes + 31 * 4 + kHashFilterFixedTail);
  EXPECT_EQ(HashFilterProbes(10), 6u);
  for (bool checked : {true, false}) {
    FilterSection f;
    ASSERT_OK(f.Init(s, 0, /*in_place=*/true, "t.sst", checked));
    ASSERT_TRUE(f.hashed());
    std::mt19937_64 rng(7);
    int passed = 0;
    const int kTries = 200000;
    for (int i = 0; i < kTries; ++i) passed += May(f, Slice(), rng());
    // A cache-local Bloom filter of 10 bits a key: about 1%.
    EXPECT_LT(passed, kTries * 15 / 1000);
    EXPECT_GT(passed, kTries * 3 / 1000);
    for (int i = 0; i < 100000; i += 7) ASSERT_TRUE(May(f, Key(i), HashOf(i)));
  }
}

// A batch past memory asks mincore about a mapped filter's page once:
// the reader notes a page seen in memory by the hash that reads it, for
// every hash that reads that page, until it forgets them all.
TEST(FilterSectionTest, PagesSeenResidentUntilForgotten) {
  const std::string s = Build("hashbloom:10", 100000, 0);  // 31 pages
  FilterSection f;
  ASSERT_OK(f.Init(s, 0, /*in_place=*/true, "t.sst"));
  uint64_t page_bytes = 0;
  auto page = [&](uint64_t hash) {
    uint64_t offset = 0;
    size_t n = 0;
    f.PageInFile(hash, &offset, &n);
    page_bytes = n;
    return offset / n;
  };
  std::mt19937_64 rng(11);
  const uint64_t noted = rng();
  EXPECT_FALSE(f.PageSeenResident(noted));
  f.NotePageResident(noted);
  EXPECT_TRUE(f.PageSeenResident(noted));
  int same = 0, other = 0;
  for (int i = 0; i < 2000; ++i) {
    const uint64_t h = rng();
    if (page(h) == page(noted)) {
      EXPECT_TRUE(f.PageSeenResident(h));
      same++;
    } else {
      EXPECT_FALSE(f.PageSeenResident(h));
      other++;
    }
  }
  EXPECT_EQ(page_bytes, 4096u);
  EXPECT_GT(same, 20);
  EXPECT_GT(other, 1000);
  // Forgotten within 65,536 questions.
  bool forgotten = false;
  for (int i = 0; i < 65536 && !forgotten; ++i) {
    forgotten = !f.PageSeenResident(noted);
  }
  EXPECT_TRUE(forgotten);
}

// A bounded builder writes the filter from its hashes sorted on disk,
// block after block: the same bytes as built whole in memory.
TEST(FilterSectionTest, HashFilterSpilledIsTheSame) {
  const std::string dir = test_util::TempPath("filter", "spill");
  ASSERT_OK(Env::Default()->CreateDirIfMissing(dir));
  for (int keys : {1, 2, 1000, 100000}) {
    SCOPED_TRACE(keys);
    SpillDir spill(FileSystem::Default().get(), dir, "f");
    EXPECT_EQ(Build("hashbloom:10", keys, 5, &spill),
              Build("hashbloom:10", keys, 5));
    if (keys == 100000) {
      EXPECT_GT(spill.bytes_written(), 0u);
    }
  }
  EXPECT_TRUE(test_util::ListDir(dir).empty());
  Env::Default()->DeleteDir(dir).PermitUncheckedError();
}

TEST(FilterSectionTest, RefusesBadValues) {
  for (const char* bad : {"hashbloom:", "hashbloom:0", "hashbloom:65",
                          "hashbloom:x", "hashbloom:10.5", "hashbloom:-3",
                          "nosuchfilter:10"}) {
    FilterSpec spec;
    const Status s = ResolveFilterPolicy(bad, &spec);
    EXPECT_TRUE(s.IsInvalidArgument()) << bad;
    EXPECT_NE(s.ToString().find("filter_policy"), std::string::npos) << bad;
  }
  FilterSpec spec;
  ASSERT_OK(ResolveFilterPolicy("", &spec));
  EXPECT_TRUE(spec.none());
  ASSERT_OK(ResolveFilterPolicy("hashbloom:64", &spec));
  EXPECT_EQ(spec.hash_bits, 64u);
}

// A hash filter whose own fields are bad is damage at open; a damaged
// page is damage when a probe first reads it, if the filter was not
// checked whole; a filter of a name the reader does not know is no filter
// (every key may match).
TEST(FilterSectionTest, DamagedOrUnknownHashFilter) {
  const int kKeys = 20000;  // 391 blocks: 7 pages
  const std::string good = Build("hashbloom:10", kKeys, 0);
  const uint32_t name_len = DecodeFixed32(good.data() + good.size() - 4);
  const size_t filter_size = good.size() - name_len - kFilterSectionTail;
  const size_t blocks_end = 391 * kHashFilterBlockBytes;
  // Each byte of the tail: the page crcs, m, probes and the crc.
  for (size_t at = blocks_end; at < filter_size; ++at) {
    std::string s = good;
    s[at] ^= 0x10;
    FilterSection f;
    const Status st = f.Init(s, 0, true, "t.sst", /*checked=*/false);
    EXPECT_TRUE(st.IsCorruption()) << at;
    EXPECT_NE(st.ToString().find("t.sst"), std::string::npos);
  }
  {
    // A block's bit: the probes that read its page say so, with where.
    std::string s = good;
    const size_t at = 3 * 4096 + 100;
    s[at] ^= 0x01;
    FilterSection f;
    ASSERT_OK(f.Init(s, 0, true, "t.sst", /*checked=*/false));
    int damaged = 0, fine = 0;
    for (int i = 0; i < kKeys; ++i) {
      bool may = false;
      const Status st = f.KeyMayMatch(Key(i), HashOf(i), &may);
      if (st.ok()) {
        ASSERT_TRUE(may) << i;
        ++fine;
      } else {
        ASSERT_TRUE(st.IsCorruption());
        EXPECT_NE(st.ToString().find("page 3"), std::string::npos) << st.ToString();
        EXPECT_NE(st.ToString().find("offset 12288"), std::string::npos)
            << st.ToString();
        ++damaged;
      }
    }
    EXPECT_GT(damaged, 0);
    EXPECT_GT(fine, 0);
  }
  {
    std::string cut = good.substr(0, filter_size - 1) + good.substr(filter_size);
    FilterSection f;
    EXPECT_TRUE(f.Init(cut, 0, false, "t.sst").IsCorruption());
  }
  {
    std::string s = good;
    s[filter_size] = 'X';  // the name: no longer one this reader knows
    FilterSection f;
    ASSERT_OK(f.Init(s, 0, false, "t.sst"));
    EXPECT_FALSE(f.usable());
  }
}

// `lookups` lookups of random keys, each a miss with probability
// `miss_share`.
void NoteLookups(MissShare* share, std::mt19937_64* rng, int lookups,
                 double miss_share) {
  for (int i = 0; i < lookups; ++i) {
    share->Note(std::uniform_real_distribution<double>()(*rng) < miss_share,
                (*rng)());
  }
}

// The share follows the lookups: none at first, most of them once misses
// run, and back when hits do; around the quarter it turns on, the side it
// lands on follows the share.
TEST(MissShareTest, FollowsTheFilterAnswers) {
  std::mt19937_64 rng(11);
  MissShare share;
  EXPECT_FALSE(share.MostlyMisses());
  auto run = [&](int lookups, double miss_share) {
    NoteLookups(&share, &rng, lookups, miss_share);
  };
  run(2000, 0.0);
  EXPECT_FALSE(share.MostlyMisses());
  run(2000, 1.0);
  EXPECT_TRUE(share.MostlyMisses());
  run(2000, 0.0);
  EXPECT_FALSE(share.MostlyMisses());
  run(4000, 0.6);
  EXPECT_TRUE(share.MostlyMisses());
  run(4000, 0.05);
  EXPECT_FALSE(share.MostlyMisses());
}

// Past three misses in four a lookup waits with its search too: a run of
// misses passes that mark, a share of half does not, and hits bring it
// back under.
TEST(MissShareTest, NearlyAllMissPastThreeInFour) {
  std::mt19937_64 rng(12);
  MissShare share;
  EXPECT_FALSE(share.NearlyAllMiss());
  auto run = [&](int lookups, double miss_share) {
    NoteLookups(&share, &rng, lookups, miss_share);
  };
  run(2000, 1.0);
  EXPECT_TRUE(share.NearlyAllMiss());
  run(4000, 0.5);
  EXPECT_TRUE(share.MostlyMisses());
  EXPECT_FALSE(share.NearlyAllMiss());
  run(4000, 0.95);
  EXPECT_TRUE(share.NearlyAllMiss());
  run(2000, 0.0);
  EXPECT_FALSE(share.NearlyAllMiss());
  EXPECT_FALSE(share.MostlyMisses());
}

// One key in eight, by hash, moves it: lookups of keys whose hashes fall
// outside the sample leave it as it was, so concurrent lookups seldom
// write it.
TEST(MissShareTest, OnlySampledHashesMoveIt) {
  MissShare share;
  for (uint64_t i = 0; i < 10000; ++i) {
    share.Note(true, (uint64_t{1 + i % 7} << 61) | i);
  }
  EXPECT_FALSE(share.MostlyMisses());
  int notes = 0;
  while (!share.MostlyMisses()) {
    share.Note(true, static_cast<uint64_t>(notes));
    ASSERT_LT(++notes, 100);
  }
  // From none to a quarter at 1/16 a sample: 5 samples.
  EXPECT_EQ(notes, 5);
}

}  // namespace
}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
