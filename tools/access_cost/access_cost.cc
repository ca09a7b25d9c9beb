// What random reads of a large file mapping cost on this machine: the bound
// under a hash-ordered inline file's scans (docs/benchmarks.md, "Scans:
// seekrandom"; output in docs/bench/2026-11-24-access-cost.txt). In such a
// file Seek's search inside a sample interval reads slots one after another
// (each address needs the previous key), and each Next reads one more slot
// at random. Per operation,
// the shape of a Seek plus 10 Nexts at 10M keys:
//   chain:   18 dependent reads, each address from the previous read's byte;
//   overlap: 7 dependent reads, then 11 whose addresses are known up front,
//            all prefetched before any is read (the best a scan could do);
//   single:  1 read (independent across operations, so the CPU overlaps
//            them: a throughput, not a latency).
// Each over a shared read-only mapping of a file (4 KiB pages, as RocksDB's
// mmap reads) and over anonymous memory with MADV_HUGEPAGE (2 MiB pages
// when the kernel grants them), medians of 5.
//
//   rh_access_cost [MiB, default 195: the slots of 10M entries] [scratch file]
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

namespace {

uint64_t Mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return x;
}

constexpr int kDependent = 7, kIndependent = 11, kOps = 200000;

// Nanoseconds per operation of each kind.
struct Costs {
  double chain, overlap, single;
};

Costs Measure(const uint8_t* p, uint64_t size) {
  const uint64_t lines = size / 64;
  uint64_t sink = 0;
  auto per_op = [](std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::nano>(
               std::chrono::steady_clock::now() - t0).count() / kOps;
  };
  Costs c{};
  auto t0 = std::chrono::steady_clock::now();
  for (int op = 0; op < kOps; ++op) {
    uint64_t a = Mix(op) % lines;
    for (int i = 0; i < kDependent + kIndependent; ++i) {
      a = Mix(a + p[a * 64]) % lines;
    }
    sink += a;
  }
  c.chain = per_op(t0);
  t0 = std::chrono::steady_clock::now();
  for (int op = 0; op < kOps; ++op) {
    uint64_t a = Mix(op + kOps) % lines;
    for (int i = 0; i < kDependent; ++i) a = Mix(a + p[a * 64]) % lines;
    uint64_t next[kIndependent];
    for (int i = 0; i < kIndependent; ++i) {
      next[i] = Mix(a * 131 + i) % lines;
      __builtin_prefetch(p + next[i] * 64);
    }
    for (int i = 0; i < kIndependent; ++i) sink += p[next[i] * 64];
  }
  c.overlap = per_op(t0);
  t0 = std::chrono::steady_clock::now();
  for (int op = 0; op < kOps; ++op) sink += p[Mix(op + 2 * kOps) % lines * 64];
  c.single = per_op(t0);
  if (sink == 42) puts("");  // keeps the reads
  return c;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const uint64_t size = (argc > 1 ? strtoull(argv[1], nullptr, 10) : 195) << 20;
  const char* path = argc > 2 ? argv[2] : "/tmp/rh_access_cost.bin";
  int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
  if (fd < 0) return perror(path), 1;
  std::vector<uint8_t> buf(1 << 20);
  std::mt19937_64 rng(1);
  for (uint64_t off = 0; off < size; off += buf.size()) {
    for (auto& b : buf) b = static_cast<uint8_t>(rng());
    if (write(fd, buf.data(), buf.size()) != static_cast<ssize_t>(buf.size())) {
      return perror(path), 1;
    }
  }
  close(fd);
  fd = open(path, O_RDONLY);
  auto* file = static_cast<const uint8_t*>(
      mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0));
  auto* anon = static_cast<uint8_t*>(mmap(nullptr, size, PROT_READ | PROT_WRITE,
                                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  if (file == MAP_FAILED || anon == MAP_FAILED) return perror("mmap"), 1;
  madvise(anon, size, MADV_HUGEPAGE);
  memcpy(anon, file, size);  // also brings every page of the file in
  std::vector<double> fc, fo, fs, ac, ao, as;
  for (int rep = 0; rep < 5; ++rep) {
    Costs f = Measure(file, size), a = Measure(anon, size);
    fc.push_back(f.chain), fo.push_back(f.overlap), fs.push_back(f.single);
    ac.push_back(a.chain), ao.push_back(a.overlap), as.push_back(a.single);
  }
  printf("%llu MiB, ns per operation, medians of 5\n",
         static_cast<unsigned long long>(size >> 20));
  printf("%-22s %10s %10s %8s\n", "", "chain 18", "overlap", "single");
  printf("%-22s %10.0f %10.0f %8.0f\n", "file mapping (4 KiB)", Median(fc),
         Median(fo), Median(fs));
  printf("%-22s %10.0f %10.0f %8.0f\n", "anonymous, huge pages", Median(ac),
         Median(ao), Median(as));
  munmap(const_cast<uint8_t*>(file), size);
  close(fd);
  unlink(path);
  return 0;
}
