// Cheap per-operation timing, exact latency percentiles, and the progress
// line printed on stderr for phases that run longer than a few seconds.
#pragma once

#include <cstdint>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace db_bench_ext {

// A monotonic tick counter: the TSC on x86-64 (a few ns per read, so timing
// every operation costs little), steady_clock elsewhere.
uint64_t NowTicks();
// Nanoseconds per tick, calibrated once against steady_clock.
double NanosPerTick();
// Wall-clock seconds from steady_clock.
double NowSeconds();

// Latencies of one phase, one sample per operation (or per batch), kept
// whole so that percentiles are exact. Not thread-safe: one per thread.
class LatencyRecorder {
 public:
  void Reserve(size_t n) { ticks_.reserve(n); }
  void Add(uint64_t ticks) {
    ticks_.push_back(ticks > UINT32_MAX ? UINT32_MAX : uint32_t(ticks));
  }
  // Adds another recorder's samples (to merge threads).
  void Merge(const LatencyRecorder& other);
  size_t Count() const { return ticks_.size(); }
  // The p-th percentile (0 < p < 100) in microseconds; 0 with no samples.
  // Reorders the samples.
  double PercentileMicros(double p);

 private:
  std::vector<uint32_t> ticks_;
};

// Prints "label: done/total (pct%) elapsed" to stderr every couple of
// seconds once a phase has run for more than `quiet_seconds`.
class Progress {
 public:
  Progress(std::string label, uint64_t total, double quiet_seconds = 3.0);
  ~Progress();
  // Cheap: looks at the clock only every 4096 calls' worth of `done`.
  void Update(uint64_t done) {
    if ((done & 4095) == 0) Check(done);
  }
  void Check(uint64_t done);
  void Finish();

 private:
  std::string label_;
  uint64_t total_;
  double start_;
  double quiet_;
  double last_print_ = 0;
  bool printed_ = false;
  bool tty_;
};

// For one long call with no progress of its own (CompactRange, warm-up):
// prints "label: Ns" on stderr every 5 seconds after the first 3, from a
// thread of its own, until destroyed.
class Ticker {
 public:
  explicit Ticker(std::string label);
  ~Ticker();

 private:
  std::string label_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace db_bench_ext
