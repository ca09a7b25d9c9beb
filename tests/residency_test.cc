// Unit tests of what a reader knows of its homes' residency
// (residency.h): the share of timed lookups that turns asking on and off,
// and the two kernel calls on a file's mapping: mincore's answer, and
// WILLNEED bringing pages in without a touch.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <random>
#include <string>
#include <thread>

#include "table/residency.h"
#include "tests/test_util.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {
namespace {

// Off at first; on once more than one timed lookup in 10 took as long as
// a read from disk, off again when none does.
TEST(ResidencyTest, FollowsTheTimedLookups) {
  std::mt19937_64 rng(5);
  Residency r;
  EXPECT_FALSE(r.MostlyOnDisk());
  auto run = [&](int lookups, double on_disk) {
    for (int i = 0; i < lookups; ++i) {
      const bool slow = std::uniform_real_distribution<double>()(rng) < on_disk;
      r.NoteTime(slow ? 200000 : 2000, rng());
    }
  };
  run(100000, 0.0);
  EXPECT_FALSE(r.MostlyOnDisk());
  run(100000, 1.0);
  EXPECT_TRUE(r.MostlyOnDisk());
  run(200000, 0.0);
  EXPECT_FALSE(r.MostlyOnDisk());
  run(200000, 0.4);
  EXPECT_TRUE(r.MostlyOnDisk());
}

// One key in 64, by the top bits of its KeyHash, is timed; only those
// move the share.
TEST(ResidencyTest, OnlySampledHashesMoveIt) {
  EXPECT_TRUE(Residency::Sampled(0));
  EXPECT_TRUE(Residency::Sampled((uint64_t{1} << 58) - 1));
  EXPECT_FALSE(Residency::Sampled(uint64_t{1} << 58));
  Residency r;
  const int64_t slow = Residency::kFromDiskNanos;
  for (uint64_t i = 0; i < 10000; ++i) {
    r.NoteTime(slow, (uint64_t{1 + i % 63} << 58) | i);
  }
  EXPECT_FALSE(r.MostlyOnDisk());
  r.NoteTime(slow, 7);
  r.NoteTime(slow, 9);
  EXPECT_TRUE(r.MostlyOnDisk());
}

// A Get of 20 us or more counts as from disk, and one alone, a delay by
// the scheduler as likely as a read, does not turn asking on; two do.
TEST(ResidencyTest, TimedSamplesNeedTwoSlowLookups) {
  Residency r;
  const int64_t slow = Residency::kFromDiskNanos;
  const int64_t fast = 3000;
  for (int i = 0; i < 100; ++i) r.NoteTime(fast, 0);
  EXPECT_FALSE(r.MostlyOnDisk());
  r.NoteTime(slow, 0);
  EXPECT_FALSE(r.MostlyOnDisk());
  r.NoteTime(slow - 1, 0);
  EXPECT_FALSE(r.MostlyOnDisk());
  r.NoteTime(slow, 0);
  EXPECT_TRUE(r.MostlyOnDisk());
  for (int i = 0; i < 100; ++i) r.NoteTime(fast, 0);
  EXPECT_FALSE(r.MostlyOnDisk());
}

// In memory (where lookups may skip the filter) only while no timed lookup
// read from disk lately: one is enough to say otherwise, though far from
// "mostly on disk", and it takes some 40 fast ones to forget it.
TEST(ResidencyTest, InMemoryUntilOneLookupReadsFromDisk) {
  Residency r;
  const int64_t slow = Residency::kFromDiskNanos;
  const int64_t fast = 3000;
  EXPECT_TRUE(r.InMemory());
  for (int i = 0; i < 1000; ++i) r.NoteTime(fast, 0);
  EXPECT_TRUE(r.InMemory());
  r.NoteTime(slow, 0);
  EXPECT_FALSE(r.InMemory());
  EXPECT_FALSE(r.MostlyOnDisk());
  int fast_after = 0;
  while (!r.InMemory() && fast_after < 1000) {
    r.NoteTime(fast, 0);
    ++fast_after;
  }
  EXPECT_GE(fast_after, 30);
  EXPECT_LE(fast_after, 60);
  // An untimed key's lookup says nothing, however slow.
  r.NoteTime(slow, uint64_t{1} << 63);
  EXPECT_TRUE(r.InMemory());
}

class MappedFile {
 public:
  explicit MappedFile(size_t bytes)
      : path_(test_util::TempPath("residency", "file")), bytes_(bytes) {
    std::string data(bytes, 'x');
    fd_ = open(path_.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0644);
    EXPECT_GE(fd_, 0);
    EXPECT_EQ(write(fd_, data.data(), data.size()),
              static_cast<ssize_t>(data.size()));
    EXPECT_EQ(fsync(fd_), 0);
    map_ = static_cast<const char*>(
        mmap(nullptr, bytes_, PROT_READ, MAP_SHARED, fd_, 0));
    EXPECT_NE(map_, MAP_FAILED);
  }
  ~MappedFile() {
    munmap(const_cast<char*>(map_), bytes_);
    close(fd_);
    unlink(path_.c_str());
  }
  // Drops the file's clean pages from the page cache (none is mapped in:
  // nothing has touched them). False where the kernel kept them.
  bool Drop() {
    posix_fadvise(fd_, 0, 0, POSIX_FADV_DONTNEED);
    for (size_t off = 0; off < bytes_; off += 4096) {
      if (PagesResident(map_ + off, 1)) return false;
    }
    return true;
  }
  const char* data() const { return map_; }

 private:
  const std::string path_;
  const size_t bytes_;
  int fd_ = -1;
  const char* map_ = nullptr;
};

TEST(ResidencyTest, AsksForPagesWithoutTouchingThem) {
  MappedFile f(1024 * 4096);
  if (!f.Drop()) GTEST_SKIP() << "the kernel kept the file's pages";
  const char* home = f.data() + 10 * 4096 + 100;  // spans pages 10 and 11
  EXPECT_FALSE(PagesResident(home, 4096));
  AskForPages(home, 4096);
  bool in = false;
  for (int i = 0; i < 500 && !in; ++i) {
    in = PagesResident(home, 4096);
    if (!in) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(in);
  // Only what was asked for (and what the kernel reads around it).
  EXPECT_FALSE(PagesResident(f.data() + 1000 * 4096, 4096));
}

// Where mincore cannot say (nothing, or a range longer than a home), the
// answer is "in memory": nothing is asked for.
TEST(ResidencyTest, WhatItCannotSayCountsAsInMemory) {
  MappedFile f(64 * 4096);
  if (!f.Drop()) GTEST_SKIP() << "the kernel kept the file's pages";
  EXPECT_TRUE(PagesResident(f.data(), 0));
  EXPECT_TRUE(PagesResident(f.data(), 64 * 4096));
  EXPECT_FALSE(PagesResident(f.data(), 16 * 4096));
}

}  // namespace
}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
