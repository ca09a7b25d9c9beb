#include "tools/load/progress.h"

#include <chrono>
#include <cinttypes>
#include <cstdio>

namespace rh_load {

double NowSeconds() {
  static const auto start = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

ProgressPrinter::ProgressPrinter(const Progress* progress, Mode mode)
    : progress_(progress), mode_(mode) {
  if (mode_ != Mode::kOff) thread_ = std::thread([this] { Run(); });
}

ProgressPrinter::~ProgressPrinter() { Stop(); }

void ProgressPrinter::Phase(const std::string& name) {
  std::lock_guard<std::mutex> l(mu_);
  phase_ = name;
  phase_start_ = NowSeconds();
  phase_bytes0_ = progress_->bytes_in.load();
  phase_entries0_ = progress_->entries_out.load();
}

void ProgressPrinter::Stop() {
  {
    std::lock_guard<std::mutex> l(mu_);
    if (stop_) return;
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  if (mode_ == Mode::kTerminal) fprintf(stderr, "\r\033[K");
}

namespace {
std::string Eta(double seconds) {
  char buf[32];
  if (seconds < 0 || seconds > 1e7) return "?";
  const uint64_t s = uint64_t(seconds + 0.5);
  if (s >= 3600) {
    snprintf(buf, sizeof(buf), "%" PRIu64 "h%02" PRIu64 "m", s / 3600, s / 60 % 60);
  } else if (s >= 60) {
    snprintf(buf, sizeof(buf), "%" PRIu64 "m%02" PRIu64 "s", s / 60, s % 60);
  } else {
    snprintf(buf, sizeof(buf), "%" PRIu64 "s", s);
  }
  return buf;
}
}  // namespace

// Under mu_.
std::string ProgressPrinter::Line(double now) const {
  const double secs = std::max(1e-3, now - phase_start_);
  char buf[256];
  if (phase_ == "read") {
    const uint64_t bytes = progress_->bytes_in.load();
    const uint64_t total = progress_->input_size.load();
    const double rate = double(bytes - phase_bytes0_) / secs;
    std::string tail;
    if (total > 0 && bytes <= total) {
      char t[64];
      snprintf(t, sizeof(t), ", %.0f%%, ETA %s", 100.0 * double(bytes) / double(total),
               Eta(double(total - bytes) / std::max(rate, 1.0)).c_str());
      tail = t;
    }
    snprintf(buf, sizeof(buf), "read: %" PRIu64 " entries, %.1f MB/s, %" PRIu64 " runs%s",
             progress_->entries_in.load(), rate / 1e6, progress_->runs.load(), tail.c_str());
  } else if (phase_ == "build") {
    const uint64_t done = progress_->entries_out.load();
    const uint64_t total = progress_->total_entries.load();
    const double rate = double(done - phase_entries0_) / secs;
    snprintf(buf, sizeof(buf),
             "build: %" PRIu64 " of %" PRIu64 " entries, %.2fM entries/s, %" PRIu64
             " files, %.0f%%, ETA %s",
             done, total, rate / 1e6, progress_->files_done.load(),
             total ? 100.0 * double(done) / double(total) : 0.0,
             Eta(double(total > done ? total - done : 0) / std::max(rate, 1.0)).c_str());
  } else {
    snprintf(buf, sizeof(buf), "%s: %.0f s", phase_.c_str(), secs);
  }
  return buf;
}

void ProgressPrinter::Run() {
  const auto interval = mode_ == Mode::kTerminal ? std::chrono::milliseconds(500)
                                                 : std::chrono::milliseconds(10000);
  std::unique_lock<std::mutex> l(mu_);
  while (!cv_.wait_for(l, interval, [this] { return stop_; })) {
    if (phase_.empty()) continue;
    const std::string line = Line(NowSeconds());
    if (mode_ == Mode::kTerminal) {
      fprintf(stderr, "\r\033[K%s", line.c_str());
    } else {
      fprintf(stderr, "rh_load: %s\n", line.c_str());
    }
    fflush(stderr);
  }
}

}  // namespace rh_load
