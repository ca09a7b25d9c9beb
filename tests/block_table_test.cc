// Unit tests of the block table (block_table.h): the section's exact
// bytes, address-to-block lookup, and the bounds that keep a crafted table
// from sizing memory or loops by numbers the file does not back.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "table/block_table.h"
#include "table/robinhood_format.h"
#include "tests/test_util.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {
namespace {

constexpr uint64_t kT = kTrailerSize;

// A table of raw blocks of the given logical sizes.
Status RawTable(const std::vector<uint64_t>& logical, BlockTable* t) {
  BlockTableBuilder b;
  uint64_t file = 0, total = 0;
  for (uint64_t l : logical) {
    b.Add(l + kT, l);
    file += l + kT;
    total += l;
  }
  return t->Init(b.Finish(), 0, file, total, 256, "f", 0);
}

TEST(BlockTableTest, ExactBytes) {
  BlockTableBuilder b;
  b.Add(300 + kT, 300);  // raw
  b.Add(100 + kT, 400);  // compressed
  const std::string got = b.Finish();
  // count 2; 305 = 0xb1 0x02; 300 = 0xac 0x02; 105 = 0x69; 400 = 0x90 0x03
  const std::string want("\x02\xb1\x02\xac\x02\x69\x90\x03", 8);
  EXPECT_EQ(got, want);
}

TEST(BlockTableTest, FindsEveryAddress) {
  const std::vector<uint64_t> logical = {256, 300, 256, 1000, 257, 10};
  BlockTable t;
  ASSERT_OK(RawTable(logical, &t));
  ASSERT_EQ(t.num_blocks(), logical.size());
  uint64_t total = 0;
  for (uint64_t l : logical) total += l;
  size_t block = 0;
  uint64_t start = 0;
  for (uint64_t a = 0; a < total; ++a) {
    if (a == start + logical[block]) start += logical[block++];
    ASSERT_EQ(t.Find(a), block) << "address " << a;
    const BlockLocation loc = t.Get(block);
    EXPECT_EQ(loc.logical_offset, start);
    EXPECT_FALSE(loc.compressed());
  }
}

// One huge block among small ones: pages grow so the page table stays
// proportional to the block count, and lookups in a page that spans many
// blocks still find the right one.
TEST(BlockTableTest, PageTableBoundedByBlocks) {
  std::vector<uint64_t> logical(50, 256);
  logical[10] = 100 << 20;  // a 100 MiB entry, stored raw
  BlockTable t;
  ASSERT_OK(RawTable(logical, &t));
  EXPECT_LT(t.MemoryUsage(), 4096u);
  uint64_t start = 0;
  for (size_t i = 0; i < logical.size(); ++i) {
    EXPECT_EQ(t.Find(start), i);
    EXPECT_EQ(t.Find(start + logical[i] - 1), i);
    start += logical[i];
  }
}

// Many blocks of uneven sizes, some far larger than the rest: Find guesses
// a block from the address's share of the log and must still land on the
// right one at every block's first and last address, wherever the guess
// falls.
TEST(BlockTableTest, FindsBlocksOfUnevenSizes) {
  std::mt19937_64 rng(20261127);  // fixed: a failure replays
  std::vector<uint64_t> logical(20000);
  for (auto& l : logical) {
    l = 256 + rng() % 450;
    if (rng() % 500 == 0) l *= 40;
  }
  BlockTable t;
  ASSERT_OK(RawTable(logical, &t));
  uint64_t start = 0;
  for (size_t i = 0; i < logical.size(); ++i) {
    ASSERT_EQ(t.Find(start), i);
    ASSERT_EQ(t.Find(start + logical[i] - 1), i);
    ASSERT_EQ(t.Find(start + rng() % logical[i]), i);
    start += logical[i];
  }
}

TEST(BlockTableTest, CompressionRatioBound) {
  const uint64_t contents = 200;
  auto init = [&](uint64_t logical) {
    BlockTableBuilder b;
    b.Add(contents + kT, logical);
    BlockTable t;
    return t.Init(b.Finish(), 0, contents + kT, logical, 256, "f.sst", 1234);
  };
  ASSERT_OK(init(kMaxCompressionRatio * contents));
  // One byte more than the codec could have expanded to: refused at open,
  // naming the file, the part and where it lies.
  Status s = init(kMaxCompressionRatio * contents + 1);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.ToString().find("f.sst: block table:"), std::string::npos)
      << s.ToString();
  EXPECT_NE(s.ToString().find("at offset 1234"), std::string::npos)
      << s.ToString();
  // A log of 2^40 - 1 bytes claimed by one 205-byte block: refused, and
  // without sizing anything by the claim (which would ask for 16 GiB).
  s = init((uint64_t{1} << 40) - 1);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
}

TEST(BlockTableTest, RefusesInconsistentTables) {
  auto init = [](const std::string& contents, uint64_t file,
                 uint64_t logical) {
    BlockTable t;
    return t.Init(contents, 0, file, logical, 256, "f", 0);
  };
  BlockTableBuilder ok;
  ok.Add(256 + kT, 256);
  ok.Add(10 + kT, 10);
  const std::string good = ok.Finish();
  EXPECT_OK(init(good, 266 + 2 * kT, 266));
  EXPECT_TRUE(init(good, 267 + 2 * kT, 266).IsCorruption());  // file size
  EXPECT_TRUE(init(good, 266 + 2 * kT, 267).IsCorruption());  // logical
  EXPECT_TRUE(init(good + "x", 266 + 2 * kT, 266).IsCorruption());
  EXPECT_TRUE(init(good.substr(0, 3), 266 + 2 * kT, 266).IsCorruption());
  BlockTableBuilder small_first;  // a block but the last below block size
  small_first.Add(10 + kT, 10);
  small_first.Add(256 + kT, 256);
  EXPECT_TRUE(
      init(small_first.Finish(), 266 + 2 * kT, 266).IsCorruption());
  BlockTableBuilder larger;  // stored larger than raw
  larger.Add(11 + kT, 10);
  EXPECT_TRUE(init(larger.Finish(), 11 + kT, 10).IsCorruption());
  std::string huge;  // a count of 2^62 must not size an allocation
  PutVarint64(&huge, uint64_t{1} << 62);
  EXPECT_TRUE(init(huge, 0, 0).IsCorruption());
}

}  // namespace
}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
