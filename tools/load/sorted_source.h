// What the merge reads: records in key order (equal keys in input order),
// from a sorted buffer still in memory or from a run spilled to disk.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tools/load/run_record.h"
#include "tools/load/sort_buffer.h"

namespace rh_load {

class SortedSource {
 public:
  virtual ~SortedSource() = default;
  // Positions at the first record whose key is not less than `lo`.
  virtual Status Seek(const Slice& lo) = 0;
  virtual bool Valid() const = 0;
  // REQUIRES: Valid(). Stays valid until the next Seek or Next.
  virtual const RunRecord& record() const = 0;
  virtual Status Next() = 0;
};

// Reads a sorted SortBuffer, which must outlive it and not change.
std::unique_ptr<SortedSource> NewMemorySource(const SortBuffer* buffer);

}  // namespace rh_load
