// A run of memory a builder fills once and writes out whole: the finished
// pages of a paged file (paged_entries.h). Nothing here is part of the
// format.
//
// A builder of a large file fills hundreds of megabytes of fresh memory,
// and on this kind of machine the kernel's first touch of each 4 KiB page
// costs more than filling it. Runs of kHugeBytes are allocated aligned to
// kHugeBytes and advised for transparent huge pages (where the kernel
// offers them): one fault a run instead of 512. Smaller runs come from the
// heap, so a small file's builder holds no more than its bytes.
#pragma once

#include <cassert>
#include <cstddef>
#include <utility>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

class BuildChunk {
 public:
  static constexpr size_t kHugeBytes = size_t{2} << 20;

  BuildChunk() = default;
  // Room for `capacity` bytes, none used.
  explicit BuildChunk(size_t capacity);
  ~BuildChunk() { Free(); }
  BuildChunk(BuildChunk&& other) noexcept { *this = std::move(other); }
  BuildChunk& operator=(BuildChunk&& other) noexcept;
  BuildChunk(const BuildChunk&) = delete;
  BuildChunk& operator=(const BuildChunk&) = delete;

  const char* data() const { return data_; }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  size_t room() const { return capacity_ - size_; }
  // The next `n` bytes, now counted as used. REQUIRES: n <= room().
  char* Extend(size_t n) {
    assert(n <= room());
    char* p = data_ + size_;
    size_ += n;
    return p;
  }

 private:
  void Free();

  char* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
  bool mapped_ = false;  // mapped for it, not from the heap
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
