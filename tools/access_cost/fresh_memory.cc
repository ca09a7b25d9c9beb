// What filling memory the process has never touched costs on this machine:
// the bound under a paged file's build, which holds the file's pages in
// fresh memory until Finish (docs/benchmarks.md, "Ingestion and builder
// memory"). On a VM whose balloon reports free memory to the host, a page
// the guest frees goes back to the host, and the next first touch of it
// faults on the host as well as in the guest.
//
// Fills `MiB` of fresh anonymous memory with 64 KiB copies, five times
// each way: in 4 KiB pages, and 2 MiB-aligned with MADV_HUGEPAGE (one
// fault a 2 MiB page where the kernel grants them); then the same memory
// again, already touched. Prints MB/s for each.
//
//   rh_fresh_memory [MiB, default 512]
#include <sys/mman.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

constexpr size_t kHuge = size_t{2} << 20;

double Seconds() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// MB/s of one fill of `bytes` at `at` with 64 KiB copies of `src`.
double Fill(char* at, size_t bytes, const char* src, size_t piece) {
  const double t0 = Seconds();
  for (size_t o = 0; o + piece <= bytes; o += piece) memcpy(at + o, src, piece);
  const double t1 = Seconds();
  return static_cast<double>(bytes) / 1e6 / (t1 - t0);
}

}  // namespace

int main(int argc, char** argv) {
  const size_t mib = argc > 1 ? strtoull(argv[1], nullptr, 10) : 512;
  if (mib == 0 || mib > (size_t{1} << 20)) {
    fprintf(stderr, "usage: rh_fresh_memory [MiB, 1..1048576]\n");
    return 2;
  }
  const size_t bytes = mib << 20;
  static char src[64 << 10];
  memset(src, 7, sizeof(src));
  printf("# fill %zu MiB of fresh anonymous memory, 64 KiB copies, MB/s\n",
         mib);
  printf("%-6s %-12s %10s %10s\n", "round", "pages", "fresh", "touched");
  for (int round = 1; round <= 5; ++round) {
    for (int huge = 0; huge <= 1; ++huge) {
      const size_t mapped = bytes + kHuge;
      void* m = mmap(nullptr, mapped, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (m == MAP_FAILED) {
        perror("mmap");
        return 1;
      }
      char* at = static_cast<char*>(m);
      if (huge) {
        at += (kHuge - reinterpret_cast<uintptr_t>(at) % kHuge) % kHuge;
#ifdef MADV_HUGEPAGE
        madvise(at, bytes, MADV_HUGEPAGE);
#endif
      }
      const double fresh = Fill(at, bytes, src, sizeof(src));
      const double touched = Fill(at, bytes, src, sizeof(src));
      printf("%-6d %-12s %10.0f %10.0f\n", round,
             huge ? "2 MiB (THP)" : "4 KiB", fresh, touched);
      munmap(m, mapped);
    }
  }
  return 0;
}
