// How many pages a scan without mmap reads at once, for iterators over
// files of fixed-size pages (paged entries, inline slots). A compaction
// reads runs of 2 MiB (or its readahead, if larger); a scan given a
// readahead_size reads runs of that size; any other scan reads one page at
// a time until it has stepped to the next page twice in a row, then 8 KiB,
// twice as many pages each read, up to 256 KiB, starting over at a jump,
// as the log's scans and BlockBasedTable's iterators read ahead. With mmap
// a run is one page: the mapping is the read.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "rocksdb/slice.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

// What a scan reads ahead by: `bytes` at a time (ReadOptions::readahead_size,
// or a compaction's), or 0 for runs that grow; and the user key it stays
// below (ReadOptions::iterate_upper_bound, which outlives the scan), if any,
// past which a forward run reads nothing it can help.
struct ScanAhead {
  size_t bytes = 0;
  const Slice* upper = nullptr;
};

class ScanRuns {
 public:
  ScanRuns(bool mmap, bool compaction, size_t readahead, uint64_t page_bytes)
      : page_bytes_(std::max<uint64_t>(1, page_bytes)),
        pages_(Fixed(mmap, compaction, readahead, page_bytes_)),
        growing_(!mmap && !compaction && readahead == 0) {}

  // Counts a move of the scan to another page: `step` if that is the page
  // after the last one in the scan's direction; any other move starts over.
  void Note(bool step) {
    if (!growing_) return;
    steps_ = step ? steps_ + 1 : 0;
    if (!step) pages_ = 1;
  }
  // The pages the next read takes.
  uint64_t Next() {
    if (!growing_ || steps_ < kStepsBeforeRuns) return pages_;
    const uint64_t first = std::max<uint64_t>(1, kFirstRun / page_bytes_);
    const uint64_t last = std::max<uint64_t>(1, kLastRun / page_bytes_);
    const uint64_t run = std::max(pages_, first);
    pages_ = std::min(run * 2, last);
    return run;
  }

 private:
  static constexpr size_t kFirstRun = 8 << 10;
  static constexpr size_t kLastRun = 256 << 10;
  static constexpr size_t kCompactionRun = 2 << 20;
  static constexpr int kStepsBeforeRuns = 2;

  static uint64_t Fixed(bool mmap, bool compaction, size_t readahead,
                        uint64_t page_bytes) {
    if (mmap) return 1;
    const size_t bytes =
        compaction ? std::max(readahead, kCompactionRun) : readahead;
    return std::max<uint64_t>(1, bytes / page_bytes);
  }

  const uint64_t page_bytes_;
  uint64_t pages_;
  const bool growing_;
  int steps_ = 0;
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
