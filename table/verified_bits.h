// Which units of a file a reader has found intact: log blocks
// (log_block_reader.h), pages of inline slots (inline_table.h) or pages of
// entries (paged_layout.h), a bit each. With mmap the file is memory, as RocksDB's block cache is, so a
// unit whose checksum held once is trusted after; readers on several
// threads set and test bits without a lock (a unit checked twice costs a
// second check, never a wrong answer). A filter keeps its pages seen in
// memory the same way (filter_section.h).
#pragma once

#include <atomic>
#include <cassert>
#include <cstdint>
#include <memory>

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

class VerifiedBits {
 public:
  // Room for units 0..n-1, none verified.
  explicit VerifiedBits(uint64_t n = 0) { Reset(n); }
  void Reset(uint64_t n) {
    words_ = n / 64 + 1;
    bits_.reset(new std::atomic<uint64_t>[words_]());
  }
  // REQUIRES: i < n.
  bool Test(uint64_t i) const {
    assert(i / 64 < words_);
    return (bits_[i / 64].load(std::memory_order_relaxed) >> (i % 64)) & 1;
  }
  void Set(uint64_t i) const {
    assert(i / 64 < words_);
    bits_[i / 64].fetch_or(uint64_t{1} << (i % 64), std::memory_order_relaxed);
  }
  // Unsets every bit; safe beside Test and Set on other threads.
  void Clear() const {
    for (uint64_t w = 0; w < words_; ++w) {
      bits_[w].store(0, std::memory_order_relaxed);
    }
  }
  size_t MemoryUsage() const { return words_ * sizeof(uint64_t); }

 private:
  uint64_t words_ = 0;
  std::unique_ptr<std::atomic<uint64_t>[]> bits_;
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
