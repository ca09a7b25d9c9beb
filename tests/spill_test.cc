// Unit tests of the bounded builder's temporary files: a SpillBuffer gives
// back what went in, in memory and spilled; a SpillSorter sorts as
// std::sort does whatever its budget (one run, many, merges of merges),
// reads twice, and leaves no file behind.
#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rocksdb/env.h"
#include "rocksdb/file_system.h"
#include "table/spill_buffer.h"
#include "table/spill_sorter.h"
#include "tests/test_util.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {
namespace {

class SpillTest : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = test_util::TempPath("spill", "dir");
    ASSERT_OK(Env::Default()->CreateDirIfMissing(dir_));
  }
  void TearDown() override {
    for (const std::string& f : Files()) Env::Default()->DeleteFile(dir_ + "/" + f);
    Env::Default()->DeleteDir(dir_);
  }
  std::vector<std::string> Files() { return test_util::ListDir(dir_); }
  std::string dir_;
};

std::string Records(int n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string out;
  for (int i = 0; i < n; ++i) {
    const size_t len = 1 + rng() % 300;
    out.push_back(static_cast<char>(len & 0xff));
    out.push_back(static_cast<char>(len >> 8));
    for (size_t j = 0; j < len; ++j) out.push_back(static_cast<char>(rng()));
  }
  return out;
}

size_t RecordLength(const Slice& in) {
  if (in.size() < 2) return 0;
  return 2 + (static_cast<uint8_t>(in[0]) | (static_cast<uint8_t>(in[1]) << 8));
}

TEST_F(SpillTest, BufferGivesBackItsBytesInMemoryAndSpilled) {
  SpillDir dir(FileSystem::Default().get(), dir_, "buffer");
  const std::string data = Records(20000, 1);  // about 3 MiB
  for (int spill_at : {-1, 0, 7000}) {
    SpillBuffer b;
    int n = 0;
    Slice rest(data);
    while (!rest.empty()) {
      if (n++ == spill_at) ASSERT_OK(b.Spill(&dir));
      const size_t len = RecordLength(rest);
      ASSERT_OK(b.Append(Slice(rest.data(), len)));
      rest.remove_prefix(len);
    }
    EXPECT_EQ(b.spilled(), spill_at >= 0);
    EXPECT_EQ(b.size(), data.size());
    EXPECT_EQ(Files().size(), spill_at >= 0 ? 1u : 0u);
    if (spill_at >= 0) {
      EXPECT_LE(b.MemoryUsage(), 2 * SpillFile::kBufferBytes);
    }
    std::string pieces;
    ASSERT_OK(b.ForEachPiece([&](const Slice& p) {
      EXPECT_LE(p.size(), SpillFile::kBufferBytes);
      pieces.append(p.data(), p.size());
      return Status::OK();
    }));
    EXPECT_EQ(pieces, data);
    std::string records;
    int count = 0;
    ASSERT_OK(b.ForEachRecord(&RecordLength, [&](const Slice& r) {
      records.append(r.data(), r.size());
      ++count;
      return Status::OK();
    }));
    EXPECT_EQ(records, data);
    EXPECT_EQ(count, 20000);
    b.Clear();
    EXPECT_TRUE(Files().empty());
  }
}

TEST_F(SpillTest, BufferRefusesARecordCutShort) {
  SpillDir dir(FileSystem::Default().get(), dir_, "cut");
  for (bool spill : {false, true}) {
    SpillBuffer b;
    if (spill) ASSERT_OK(b.Spill(&dir));
    std::string data = Records(10, 2);
    data.resize(data.size() - 1);
    ASSERT_OK(b.Append(data));
    int seen = 0;
    Status s = b.ForEachRecord(&RecordLength, [&](const Slice&) {
      ++seen;
      return Status::OK();
    });
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    EXPECT_EQ(seen, 9);
  }
}

TEST_F(SpillTest, SpillIntoAMissingDirectoryIsAnError) {
  SpillDir dir(FileSystem::Default().get(), dir_ + "/missing", "x");
  SpillBuffer b;
  ASSERT_OK(b.Append("abc"));
  Status s = b.Spill(&dir);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
}

constexpr size_t kRecord = 24;
bool Less16(const char* a, const char* b) { return memcmp(a, b, 16) < 0; }

// Records whose first 16 bytes are unique (a sort key, then a number).
std::vector<std::string> SortInput(int n, int distinct_keys, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::string> v;
  for (int i = 0; i < n; ++i) {
    std::string r(kRecord, '\0');
    const uint64_t key = rng() % distinct_keys;
    for (int b = 0; b < 8; ++b) r[b] = static_cast<char>(key >> (56 - 8 * b));
    for (int b = 0; b < 8; ++b) r[8 + b] = static_cast<char>(uint64_t(i) >> (56 - 8 * b));
    for (int b = 16; b < 24; ++b) r[b] = static_cast<char>(rng());
    v.push_back(r);
  }
  return v;
}

TEST_F(SpillTest, SorterSortsAsStdSortAtEveryBudget) {
  SpillDir dir(FileSystem::Default().get(), dir_, "sort");
  const int n = 200000;
  std::vector<std::string> in = SortInput(n, 5000, 3);  // many equal keys
  std::vector<std::string> want = in;
  std::sort(want.begin(), want.end(), [](const std::string& a, const std::string& b) {
    return Less16(a.data(), b.data());
  });
  // Everything in memory; a few runs; runs so many that they are merged
  // while records still arrive (a budget of two read buffers merges two
  // at a time).
  for (size_t budget : {size_t{64} << 20, size_t{1} << 20, size_t{256} << 10}) {
    SCOPED_TRACE(budget);
    SpillSorter sorter(&dir, kRecord, &Less16, budget);
    const uint64_t written_before = dir.bytes_written();
    for (const std::string& r : in) ASSERT_OK(sorter.Add(r.data()));
    EXPECT_EQ(sorter.size(), uint64_t(n));
    if (budget == (size_t{64} << 20)) {
      EXPECT_EQ(sorter.runs(), 0u);
    } else {
      EXPECT_GT(sorter.runs(), 0u);
      EXPECT_LE(sorter.MemoryUsage(), budget + SpillFile::kBufferBytes);
    }
    for (int pass = 0; pass < 2; ++pass) {
      size_t i = 0;
      ASSERT_OK(sorter.ForEach([&](const char* r) {
        EXPECT_EQ(std::string(r, kRecord), want[i]) << "record " << i;
        ++i;
        return Status::OK();
      }));
      EXPECT_EQ(i, want.size());
    }
    // Runs merge in tiers: each record is rewritten a few times (log of
    // the runs, here 43 runs two at a time), not once a run.
    EXPECT_LE(dir.bytes_written() - written_before, uint64_t{10} * n * kRecord);
    sorter.Clear();
    EXPECT_TRUE(Files().empty());
  }
}

TEST_F(SpillTest, SorterStopsAtTheVisitorsError) {
  SpillDir dir(FileSystem::Default().get(), dir_, "stop");
  SpillSorter sorter(&dir, kRecord, &Less16, 256 << 10);
  for (const std::string& r : SortInput(50000, 1 << 30, 4)) {
    ASSERT_OK(sorter.Add(r.data()));
  }
  int seen = 0;
  Status s = sorter.ForEach([&](const char*) {
    return ++seen == 10 ? Status::Aborted("enough") : Status::OK();
  });
  EXPECT_TRUE(s.IsAborted());
  EXPECT_EQ(seen, 10);
}

TEST_F(SpillTest, SorterLeavesNoFileWhenDestroyed) {
  SpillDir dir(FileSystem::Default().get(), dir_, "gone");
  {
    SpillSorter sorter(&dir, kRecord, &Less16, 256 << 10);
    for (const std::string& r : SortInput(50000, 1 << 30, 5)) {
      ASSERT_OK(sorter.Add(r.data()));
    }
    EXPECT_FALSE(Files().empty());
  }
  EXPECT_TRUE(Files().empty());
  EXPECT_GT(dir.bytes_written(), 0u);
}

}  // namespace
}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
