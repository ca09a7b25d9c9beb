// A run: the records of one full sort buffer, in order, spilled to a file
// of rh_load's temporary directory (records as run_record.h lays them out,
// back to back). The writer keeps every kIndexInterval-th key and its
// offset in memory, so a reader can start a key range near its first key
// instead of at the head of the run.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tools/load/sorted_source.h"

namespace rh_load {

struct RunInfo {
  std::string path;
  uint64_t records = 0;
  uint64_t bytes = 0;
  struct Mark {
    std::string key;
    uint64_t offset;
  };
  std::vector<Mark> index;  // ascending
};

class RunWriter {
 public:
  static constexpr uint64_t kIndexInterval = 4096;
  RunWriter() = default;
  ~RunWriter();
  RunWriter(const RunWriter&) = delete;
  RunWriter& operator=(const RunWriter&) = delete;

  Status Open(const std::string& path);
  // REQUIRES: records in sorted order (asserted at each index mark).
  Status Add(const RunRecord& r);
  Status Finish(RunInfo* info);

 private:
  Status Flush();
  int fd_ = -1;
  std::string buf_;
  RunInfo info_;
};

// Reads a run with a buffer of about `buffer_size` bytes (more if one
// record needs it).
std::unique_ptr<SortedSource> NewRunSource(const RunInfo* run,
                                           size_t buffer_size);

}  // namespace rh_load
