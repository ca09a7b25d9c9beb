#include "db_bench_ext/heap.h"

#include <malloc.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>

#include "tools/common/proc_status.h"

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

namespace {
std::atomic<int64_t> g_rss_base{-1};

// Resets the resident set's high-water mark (Linux 4.0 on); false where
// the kernel does not offer it.
bool ResetResidentPeak() {
  FILE* f = fopen("/proc/self/clear_refs", "w");
  if (f == nullptr) return false;
  const bool ok = fputs("5", f) >= 0;
  return fclose(f) == 0 && ok;
}
}  // namespace

void StartHeapPeak() {
  int64_t now = g_live.load();
  g_base.store(now);
  g_peak.store(now);
  g_rss_base.store(
      ResetResidentPeak() ? int64_t(rh_tools::ProcStatusBytes("VmRSS:")) : -1);
  g_tracking.store(true);
}

int64_t HeapPeakGrowth() {
  g_tracking.store(false);
  const int64_t heap = g_peak.load() - g_base.load();
  // Memory a library maps itself, outside operator new, shows only in the
  // resident set: its high-water mark since the start, over the start.
  const int64_t rss_base = g_rss_base.load();
  const int64_t hwm =
      rss_base > 0 ? int64_t(rh_tools::ProcStatusBytes("VmHWM:")) : 0;
  const int64_t rss = hwm > 0 ? hwm - rss_base : -1;
  return rss > heap ? rss : heap;
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
