// The homes a thread's last Prepare calls asked for. RocksDB's compacted
// DB (a read-only DB of one level: a bulk load) prepares every key of a
// MultiGet batch, then Gets them in the same order; Version's Get prepares
// a key in each level-0 file, then Gets it in those whose range holds it.
// Where the line a Prepare brings in answers a lookup on its own (inline
// slots: a miss there costs what the filter's line would), the Prepare
// asks for no filter line and notes the home, and the Get that finds its
// home noted skips the filter: a batch keeps half the misses in flight.
//
// A Get matches by table and home, not key: another key with the same home
// finds the same line on its way, which is all a match says. A note not
// found (Gets in another order, too many notes between) leaves the Get to
// ask the filter, its line not on its way; a batch of more keys than the
// notes hold has its first keys noted and the rest prepared as before.
#pragma once

#include <cstdint>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

class PreparedHomes {
 public:
  // `table`'s Prepare asked for the line of `home` (non-zero: a layout's
  // hint). False, noting nothing, while 128 notes are not taken (a batch
  // larger than that): the rest of the batch is prepared for the filter
  // as well, and its Gets ask it, so that the keys first prepared keep
  // their notes.
  static bool Note(const void* table, uint64_t home);
  // Whether one of the next Notes not yet taken named `table` and `home`;
  // takes it and those before it. The next Note starts a new batch.
  static bool Take(const void* table, uint64_t home);
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
