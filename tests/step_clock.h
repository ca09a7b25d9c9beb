// A clock for the tests whose outcome hangs on how long a reader's timed
// lookups take (table/residency.h: one that takes as long as a read from
// disk stops the filter's skip and starts the asking for pages). Each
// reading of NowNanos is 100 ns past the one before, or a millisecond while
// `slow`: a lookup takes as long as the test says, however long the
// scheduler of a loaded machine keeps it off the core. The rest (the
// reads' deadlines, sleeps) is the system's.
#pragma once

#include <atomic>
#include <cstdint>

#include "rocksdb/system_clock.h"

namespace ROCKSDB_NAMESPACE {

class StepClock : public SystemClockWrapper {
 public:
  StepClock() : SystemClockWrapper(SystemClock::Default()) {
    now_ = target_->NowNanos();
  }
  static const char* kClassName() { return "RobinHoodTestStepClock"; }
  const char* Name() const override { return kClassName(); }
  uint64_t NowNanos() override {
    readings.fetch_add(1, std::memory_order_relaxed);
    return now_ += slow ? kSlowStep : kStep;
  }
  std::atomic<bool> slow{false};
  // NowNanos's calls so far: a timed lookup reads the clock twice.
  std::atomic<uint64_t> readings{0};

 private:
  static constexpr uint64_t kStep = 100;
  static constexpr uint64_t kSlowStep = 1000000;
  std::atomic<uint64_t> now_{0};
};

}  // namespace ROCKSDB_NAMESPACE
