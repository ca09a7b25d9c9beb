// The entries rh_load holds in memory while reading its input: records
// (run_record.h) packed into chunks, and, once full, an array of references
// sorted by key and then by input order. Everything it allocates counts
// against the budget it is given, so a full buffer is the point where the
// loader spills a run (run_file.h).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "tools/load/run_record.h"

namespace rh_load {

class SortBuffer {
 public:
  // `budget`: bytes for chunks and references together.
  explicit SortBuffer(size_t budget);

  // Adds an entry; false (nothing added) when it would pass the budget.
  // An empty buffer takes any entry, whatever its size, so the loader
  // always makes progress (it refuses entries larger than its whole memory
  // limit before they get here).
  bool Add(const Slice& key, const Slice& value, uint64_t ordinal);

  // Orders the entries by key (bytewise), equal keys in input order.
  void Sort();
  size_t size() const { return count_; }
  // REQUIRES: Sort() called since the last Add.
  RunRecord At(size_t i) const;
  // The first entry whose key is not less than `key` (size() if none).
  size_t LowerBound(const Slice& key) const;

  // Frees everything.
  void Clear();
  size_t MemoryUsage() const { return allocated_ + refs_.capacity() * sizeof(Ref); }

 private:
  struct Ref {
    uint64_t prefix;  // the key's first 8 bytes, big-endian, zero padded
    const char* record;
  };
  static uint64_t Prefix(const Slice& key);
  static bool Less(const Ref& a, const Ref& b);

  const size_t budget_;
  const size_t chunk_size_;
  // Chunks are mapped with transparent huge pages where the kernel allows
  // (madvise mode): the merge reads records in key order, all over the
  // chunks, and 4 KiB pages would make most of those reads TLB misses.
  struct Unmap {
    size_t size;
    void operator()(char* p) const;
  };
  struct Chunk {
    std::unique_ptr<char, Unmap> data;
    char* end;  // past the last record written to it
  };
  static std::unique_ptr<char, Unmap> Map(size_t size);
  std::vector<Chunk> chunks_;
  char* chunk_end_ = nullptr;  // the last chunk's capacity
  size_t allocated_ = 0;
  size_t count_ = 0;
  std::vector<Ref> refs_;
  bool sorted_ = false;
};

}  // namespace rh_load
