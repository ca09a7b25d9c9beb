// Whether the homes that a batch of lookups is about to read are in
// memory, and asking the kernel for those that are not.
//
// A batch (RocksDB's compacted DB calls Prepare for each of its keys before
// the first Get; TableReader::MultiGet takes a batch's keys in one file)
// whose homes are on disk otherwise waits on one read after another, each
// a page fault or a positioned read in its Get. Asked for first (madvise
// WILLNEED on a mapping, readahead through the file system's Prefetch
// without one: each starts the read and returns), the reads overlap in the
// device's queue and each Get waits only for what is left of its own. The
// call costs about a microsecond (0.7 us here, for a page in memory), a
// hundred times less than a read from disk but more than a whole lookup in
// memory, so a reader asks only while a sample of homes says that more
// than one in 32 is not in memory. Checking one (mincore, on a mapped
// file) costs as much again, 1.1 us here: one key in 512 is checked, 2 ns
// a key where all is in memory. A file read without mmap cannot be asked;
// there one Get in 64 is timed instead, one that took as long as a read
// from disk counts as on disk, and those keys' pages are not asked for in
// a batch, so that what is timed is the disk, not the asking.
#pragma once

#include <cstddef>
#include <cstdint>

#include "rocksdb/rocksdb_namespace.h"
#include "table/miss_share.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

class Residency {
 public:
  // Mapped files: one key in 512, by its hash, is checked with mincore.
  static bool Sampled(uint64_t hash) { return Mapped::Sampled(hash); }
  // A sampled home: whether it was all in memory.
  void Note(bool resident, uint64_t hash) { mapped_.Note(!resident, hash); }
  // Files read without mmap: one Get in 64 is timed. A timer costs tens
  // of nanoseconds against a positioned read's microsecond, and each file
  // learns its share from its own lookups, a batch's keys spread over all
  // of a DB's files.
  static bool TimedSampled(uint64_t hash) { return Timed::Sampled(hash); }
  // A timed Get: whether it took as long as a read from disk.
  void NoteTime(int64_t nanos, uint64_t hash) {
    timed_.Note(nanos >= kFromDiskNanos, hash);
  }
  // `timed`: the file's samples are NoteTime's. A lookup in memory that
  // the scheduler delays past kFromDiskNanos weighs 1/16, so there the
  // share needs two such within eight samples to pass, and asks while more
  // than one lookup in 10 reads from disk. Measured in memory, about one
  // timed lookup in 500 was slow: at 1/32 one batched lookup in 50 asked
  // for a page in memory, at 1/10 none to one in 6,000.
  bool MostlyOnDisk(bool timed) const {
    return timed ? timed_.MoreThanOneIn(10) : mapped_.MoreThanOneIn(32);
  }

  // A lookup whose page is in memory takes a few microseconds here even
  // through a positioned read and a checksum; one from disk tens (a fast
  // NVMe device) to hundreds (this VM's disk).
  static constexpr int64_t kFromDiskNanos = 20000;

 private:
  using Mapped = SampledShare<9>;
  using Timed = SampledShare<6>;
  Mapped mapped_;
  Timed timed_;
};

// Whether every page of [p, p + n) of a file mapping is in memory (mincore);
// true where the kernel cannot say, so that nothing is asked for.
bool PagesResident(const char* p, size_t n);
// Asks the kernel to read [p, p + n) of a file mapping in, without waiting.
void AskForPages(const char* p, size_t n);

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
