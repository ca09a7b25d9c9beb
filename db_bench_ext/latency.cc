#include "db_bench_ext/latency.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace db_bench_ext {

double NowSeconds() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

uint64_t NowTicks() {
#if defined(__x86_64__)
  return __rdtsc();
#else
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
#endif
}

static double CalibrateNanosPerTick() {
#if defined(__x86_64__)
  double t0 = NowSeconds();
  uint64_t c0 = NowTicks();
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  double t1 = NowSeconds();
  uint64_t c1 = NowTicks();
  if (c1 <= c0) return 1.0;
  return (t1 - t0) * 1e9 / double(c1 - c0);
#else
  return 1.0;
#endif
}

double NanosPerTick() {
  static const double ns = CalibrateNanosPerTick();
  return ns;
}

void LatencyRecorder::Merge(const LatencyRecorder& other) {
  ticks_.insert(ticks_.end(), other.ticks_.begin(), other.ticks_.end());
}

double LatencyRecorder::PercentileMicros(double p) {
  if (ticks_.empty()) return 0;
  size_t rank = size_t(p / 100.0 * double(ticks_.size()));
  if (rank >= ticks_.size()) rank = ticks_.size() - 1;
  std::nth_element(ticks_.begin(), ticks_.begin() + rank, ticks_.end());
  return ticks_[rank] * NanosPerTick() / 1000.0;
}

Progress::Progress(std::string label, uint64_t total, double quiet_seconds)
    : label_(std::move(label)),
      total_(total),
      start_(NowSeconds()),
      quiet_(quiet_seconds),
      tty_(isatty(STDERR_FILENO)) {}

Progress::~Progress() { Finish(); }

void Progress::Check(uint64_t done) {
  double now = NowSeconds();
  double elapsed = now - start_;
  if (elapsed < quiet_ || now - last_print_ < (tty_ ? 0.5 : 5.0)) return;
  last_print_ = now;
  double pct = total_ ? 100.0 * double(done) / double(total_) : 0;
  fprintf(stderr, "%s%s: %llu/%llu (%.0f%%) %.1fs%s", tty_ ? "\r" : "",
          label_.c_str(), (unsigned long long)done,
          (unsigned long long)total_, pct, elapsed, tty_ ? "   " : "\n");
  fflush(stderr);
  printed_ = true;
}

void Progress::Finish() {
  if (printed_ && tty_) {
    fprintf(stderr, "\r%s: done in %.1fs%*s\n", label_.c_str(),
            NowSeconds() - start_, 20, "");
  }
  printed_ = false;
}

Ticker::Ticker(std::string label) : label_(std::move(label)) {
  thread_ = std::thread([this] {
    const double start = NowSeconds();
    std::unique_lock<std::mutex> lock(mu_);
    double wait = 3.0;
    while (!cv_.wait_for(lock, std::chrono::duration<double>(wait),
                         [this] { return done_; })) {
      fprintf(stderr, "%s: %.0fs\n", label_.c_str(), NowSeconds() - start);
      fflush(stderr);
      wait = 5.0;
    }
  });
}

Ticker::~Ticker() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    done_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

}  // namespace db_bench_ext
