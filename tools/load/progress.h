// What rh_load reports while it works: counters the phases bump, and a
// thread that prints them: a line rewritten in place on a terminal (phase,
// entries, MB/s, percent, ETA), plain lines every few seconds elsewhere.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace rh_load {

struct Progress {
  std::atomic<uint64_t> bytes_in{0};    // input consumed
  std::atomic<uint64_t> entries_in{0};  // entries read
  std::atomic<uint64_t> entries_out{0};  // entries written to files
  std::atomic<uint64_t> files_done{0};
  std::atomic<uint64_t> file_bytes{0};
  std::atomic<uint64_t> runs{0};  // spilled to the temporary directory
  std::atomic<uint64_t> input_size{0};  // 0: unknown (a pipe)
  std::atomic<uint64_t> total_entries{0};  // known once the input is read
};

class ProgressPrinter {
 public:
  enum class Mode { kOff, kTerminal, kLines };
  ProgressPrinter(const Progress* progress, Mode mode);
  ~ProgressPrinter();
  // Names the phase that starts now.
  void Phase(const std::string& name);
  // Stops printing (and ends a terminal line).
  void Stop();

 private:
  void Run();
  std::string Line(double seconds) const;

  const Progress* progress_;
  const Mode mode_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::string phase_;
  double phase_start_ = 0;
  uint64_t phase_bytes0_ = 0, phase_entries0_ = 0;
  std::thread thread_;
};

// Seconds since the process's first call.
double NowSeconds();

}  // namespace rh_load
