#include "table/prepared_homes.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

namespace {

// Notes kept: a batch of up to this many keys skips every filter (db_bench
// sends 50).
constexpr uint32_t kNotes = 128;
// How many notes past the next a Get looks at: level-0 files whose range
// leaves the key out were prepared but are not read.
constexpr uint32_t kReach = 16;

struct Notes {
  const void* table[kNotes];
  uint64_t home[kNotes];
  uint64_t put = 0;    // notes written
  uint64_t next = 0;   // the first not taken
  bool taken = false;  // a Get has looked since the last note
};

thread_local Notes notes;

}  // namespace

bool PreparedHomes::Note(const void* table, uint64_t home) {
  Notes& n = notes;
  // A Prepare after Gets starts another batch: what the last one left (a
  // level-0 file read no further once the key was found, keys whose Gets
  // never came) will not be read.
  if (n.taken) {
    n.next = n.put;
    n.taken = false;
  }
  if (n.put - n.next == kNotes) return false;
  const uint32_t at = static_cast<uint32_t>(n.put % kNotes);
  n.table[at] = table;
  n.home[at] = home;
  ++n.put;
  return true;
}

bool PreparedHomes::Take(const void* table, uint64_t home) {
  Notes& n = notes;
  n.taken = true;
  const uint64_t end = n.put - n.next > kReach ? n.next + kReach : n.put;
  for (uint64_t i = n.next; i < end; ++i) {
    const uint32_t at = static_cast<uint32_t>(i % kNotes);
    if (n.table[at] == table && n.home[at] == home) {
      n.next = i + 1;
      return true;
    }
  }
  return false;
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
