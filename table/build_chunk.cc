#include "table/build_chunk.h"

#include <cstdint>
#include <new>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

BuildChunk::BuildChunk(size_t capacity) : capacity_(capacity) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (capacity >= kHugeBytes && capacity % kHugeBytes == 0) {
    // Over-map by one huge page, then keep the aligned middle: the kernel
    // backs a range with a huge page only where it covers one aligned.
    const size_t want = capacity + kHugeBytes;
    void* m = mmap(nullptr, want, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m != MAP_FAILED) {
      char* base = static_cast<char*>(m);
      const uintptr_t at = reinterpret_cast<uintptr_t>(base);
      char* aligned = base + ((kHugeBytes - at % kHugeBytes) % kHugeBytes);
      const size_t head = static_cast<size_t>(aligned - base);
      if (head > 0) munmap(base, head);
      const size_t tail = want - head - capacity;
      if (tail > 0) munmap(aligned + capacity, tail);
      // Advice only: where the kernel declines, the run is ordinary pages.
      madvise(aligned, capacity, MADV_HUGEPAGE);
      data_ = aligned;
      mapped_ = true;
      return;
    }
  }
#endif
  data_ = new char[capacity];
}

BuildChunk& BuildChunk::operator=(BuildChunk&& other) noexcept {
  if (this != &other) {
    Free();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
    mapped_ = std::exchange(other.mapped_, false);
  }
  return *this;
}

void BuildChunk::Free() {
#ifdef __linux__
  if (mapped_) munmap(data_, capacity_);
#endif
  if (!mapped_) delete[] data_;
  data_ = nullptr;
  size_ = capacity_ = 0;
  mapped_ = false;
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
