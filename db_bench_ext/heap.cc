#include "db_bench_ext/heap.h"

#include <malloc.h>

#include <atomic>
#include <cstdlib>
#include <new>

namespace db_bench_ext {
namespace {
std::atomic<int64_t> g_live{0};
std::atomic<int64_t> g_peak{0};
std::atomic<int64_t> g_base{0};
std::atomic<bool> g_tracking{false};

inline void Count(void* p) {
  if (!p) return;
  int64_t now = g_live.fetch_add(int64_t(malloc_usable_size(p)),
                                 std::memory_order_relaxed) +
                int64_t(malloc_usable_size(p));
  if (g_tracking.load(std::memory_order_relaxed)) {
    int64_t peak = g_peak.load(std::memory_order_relaxed);
    while (now > peak &&
           !g_peak.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
    }
  }
}

inline void Uncount(void* p) {
  if (p) {
    g_live.fetch_sub(int64_t(malloc_usable_size(p)),
                     std::memory_order_relaxed);
  }
}

void* Allocate(size_t n) {
  void* p = malloc(n ? n : 1);
  if (!p) throw std::bad_alloc();
  Count(p);
  return p;
}

void* AllocateAligned(size_t n, size_t align) {
  void* p = nullptr;
  if (posix_memalign(&p, align < sizeof(void*) ? sizeof(void*) : align,
                     n ? n : 1) != 0) {
    throw std::bad_alloc();
  }
  Count(p);
  return p;
}

void Free(void* p) {
  Uncount(p);
  free(p);
}
}  // namespace

int64_t HeapBytes() { return g_live.load(); }

void StartHeapPeak() {
  int64_t now = g_live.load();
  g_base.store(now);
  g_peak.store(now);
  g_tracking.store(true);
}

int64_t HeapPeakGrowth() {
  g_tracking.store(false);
  return g_peak.load() - g_base.load();
}

}  // namespace db_bench_ext

using db_bench_ext::Allocate;
using db_bench_ext::AllocateAligned;
using db_bench_ext::Free;

void* operator new(size_t n) { return Allocate(n); }
void* operator new[](size_t n) { return Allocate(n); }
void* operator new(size_t n, const std::nothrow_t&) noexcept {
  try { return Allocate(n); } catch (...) { return nullptr; }
}
void* operator new[](size_t n, const std::nothrow_t&) noexcept {
  try { return Allocate(n); } catch (...) { return nullptr; }
}
void* operator new(size_t n, std::align_val_t a) {
  return AllocateAligned(n, size_t(a));
}
void* operator new[](size_t n, std::align_val_t a) {
  return AllocateAligned(n, size_t(a));
}
void operator delete(void* p) noexcept { Free(p); }
void operator delete[](void* p) noexcept { Free(p); }
void operator delete(void* p, size_t) noexcept { Free(p); }
void operator delete[](void* p, size_t) noexcept { Free(p); }
void operator delete(void* p, std::align_val_t) noexcept { Free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { Free(p); }
void operator delete(void* p, size_t, std::align_val_t) noexcept { Free(p); }
void operator delete[](void* p, size_t, std::align_val_t) noexcept { Free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { Free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { Free(p); }
