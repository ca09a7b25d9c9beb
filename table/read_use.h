// What a lookup or scan may do, from the caller's ReadOptions: with the
// block cache (fill it; or read nothing that is not in memory), and with
// the file system, for the positioned reads it makes without mmap: the
// call's deadline, each read's timeout, and the rate limiter's priority
// for the bytes read (IO_TOTAL: not charged), as BlockBasedTable passes
// them in IOOptions. Copied, not referenced: an iterator keeps its own.
// Not an on-disk structure.
#pragma once

#include <chrono>

#include "file/file_util.h"
#include "rocksdb/env.h"
#include "rocksdb/file_system.h"
#include "rocksdb/options.h"
#include "rocksdb/system_clock.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

struct ReadUse {
  // fill_cache: blocks it reads from the file are kept in the cache.
  bool fill = true;
  // read_tier kBlockCacheTier: it reads nothing from the file, so a block
  // the cache lacks leaves it Incomplete (CachedBlock::NeedsRead), as
  // BlockBasedTable's lookups are for a data block not in its cache.
  bool no_io = false;
  Env::IOPriority priority = Env::IO_TOTAL;
  std::chrono::microseconds deadline{0};    // since the epoch; 0: none
  std::chrono::microseconds io_timeout{0};  // each read's; 0: none

  static ReadUse Of(const ReadOptions& ro) {
    ReadUse use;
    use.fill = ro.fill_cache;
    use.no_io = ro.read_tier == kBlockCacheTier;
    use.priority = ro.rate_limiter_priority;
    use.deadline = ro.deadline;
    use.io_timeout = ro.io_timeout;
    return use;
  }

  // The options of one read made now, as RocksDB makes them from these
  // three (file_util.h): the time left to the deadline or the read's
  // timeout, whichever is shorter, and the priority. TimedOut once the
  // deadline has passed: the read is not made.
  IOStatus Prepare(SystemClock* clock, IOOptions* opts) const {
    ReadOptions ro;
    ro.deadline = deadline;
    ro.io_timeout = io_timeout;
    ro.rate_limiter_priority = priority;
    return PrepareIOFromReadOptions(ro, clock, *opts);
  }
};

// A read for no caller's options (opening a file, checks of the whole
// file): no deadline, not charged.
inline constexpr ReadUse kNoReadUse{};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
