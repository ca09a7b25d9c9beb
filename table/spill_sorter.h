// Fixed-size records sorted in bounded memory: held and sorted in memory
// up to a budget, written as sorted runs to temporary files past it
// (spill_buffer.h), and merged as they are read back. A builder with a
// memory bound sorts its hash index records, and an inline file's entries
// in hash order, here.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "rocksdb/status.h"
#include "table/spill_buffer.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

class SpillSorter {
 public:
  // A strict total order over whole records: records that are not equal
  // byte for byte never compare equal, so the order never depends on how
  // the records were split into runs.
  using Less = bool (*)(const char* a, const char* b);
  // The budget covers the records held, their sort order and, when the
  // runs are merged, a read buffer a run.
  SpillSorter(SpillDir* dir, size_t record_bytes, Less less, size_t budget);
  ~SpillSorter();

  Status Add(const char* record);
  uint64_t size() const { return count_; }
  // Calls `visit` with every record in order. May be called again; the
  // runs stay until Clear or the sorter goes.
  Status ForEach(const std::function<Status(const char*)>& visit);
  size_t MemoryUsage() const;
  uint64_t runs() const { return runs_.size(); }
  void Clear();

 private:
  // Sorts the records held and writes them out as a run.
  Status SpillRun();
  void SortHeld();
  // Merges the last `n` runs into one of tier `level`.
  Status MergeLast(size_t n, int level);
  // Merges runs [first, last) in order, handing each record to `visit`.
  Status Merge(size_t first, size_t last,
               const std::function<Status(const char*)>& visit);

  SpillDir* const dir_;
  const size_t record_bytes_;
  const Less less_;
  const size_t held_capacity_;  // records held before a run is written
  size_t read_buffer_;          // bytes a run's reader holds
  size_t fan_in_;               // runs merged at once
  std::string held_;
  std::vector<uint32_t> order_;
  bool held_sorted_ = false;
  uint64_t count_ = 0;
  std::vector<std::unique_ptr<SpillFile>> runs_;
  std::vector<int> levels_;  // each run's merge tier
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
