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
// memory, so a reader asks only while its lookups say that more than one
// in 10 reads from disk.
//
// They say it by their time: one Get in 64 (by its key's KeyHash) is
// timed, and one that took as long as a read from disk counts as one. A
// timer costs tens of nanoseconds, a nanosecond a lookup; mincore, which
// can see a mapped file's pages but not what a positioned read will find,
// costs 1.1 us here. The sampled keys' pages are never asked for in a
// batch, so that what is timed is the disk, not the asking: timing Gets
// that had been asked for turned the asking off while it worked.
#pragma once

#include <cstddef>
#include <cstdint>

#include "rocksdb/rocksdb_namespace.h"
#include "table/miss_share.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

class Residency {
 public:
  // Whether the lookups of a key that samples by `hash` (layout.h
  // SampleOf: its KeyHash, or its home mixed) are timed. Each file
  // learns its share from its own lookups, a batch's keys spread over all
  // of a DB's files: at one in 64, a file has its first samples after a
  // few hundred lookups.
  static bool Sampled(uint64_t hash) { return Timed::Sampled(hash); }
  // A timed Get: whether it took as long as a read from disk.
  void NoteTime(int64_t nanos, uint64_t hash) {
    timed_.Note(nanos >= kFromDiskNanos, hash);
  }
  // A lookup in memory that the scheduler delays past kFromDiskNanos
  // weighs 1/16, so the share needs two such within eight samples to pass,
  // and asks while more than one lookup in 10 reads from disk. Measured in
  // memory, about one timed lookup in 500 was slow: at 1/32 one batched
  // lookup in 50 asked for a page in memory, at 1/10 none to one in 6,000.
  bool MostlyOnDisk() const { return timed_.MoreThanOneIn(10); }
  // Whether no sampled lookup read from disk lately (about the last 40
  // samples, 2,700 lookups). Skipping the filter (a miss then reads its
  // home, not the filter's cached line) pays only while nearly nothing is
  // read from disk: with a miss in five lookups, a hit spared 60 ns and a
  // read from disk costing hundreds of microseconds, one lookup in a
  // thousand reading from disk costs as much as the skip spares.
  bool InMemory() const { return !timed_.MoreThanOneIn(256); }

  // A lookup whose page is in memory takes a few microseconds here even
  // through a positioned read and a checksum (a mapped page not yet in the
  // process's page table: a minor fault, about a microsecond); one from
  // disk tens (a fast NVMe device) to hundreds (this VM's disk).
  static constexpr int64_t kFromDiskNanos = 20000;

 private:
  using Timed = SampledShare<6>;
  Timed timed_;
};

// Whether every page of [p, p + n) of a file mapping is in memory (mincore);
// true where the kernel cannot say, so that nothing is asked for.
bool PagesResident(const char* p, size_t n);
// Asks the kernel to read [p, p + n) of a file mapping in, without waiting.
void AskForPages(const char* p, size_t n);

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
