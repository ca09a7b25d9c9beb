#include "tools/load/signals.h"

#include <csignal>
#include <cstring>

namespace rh_load {

namespace {
volatile sig_atomic_t stop_signal = 0;
void OnStop(int sig) { stop_signal = sig; }
}  // namespace

void InstallStopHandlers() {
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = OnStop;
  sigemptyset(&sa.sa_mask);
  // No SA_RESTART: a read of a pipe that blocks returns EINTR, so a loader
  // waiting on its input stops too.
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

bool StopRequested() { return stop_signal != 0; }
int StopSignal() { return stop_signal; }

ROCKSDB_NAMESPACE::Status Interrupted() {
  return ROCKSDB_NAMESPACE::Status::Aborted(
      std::string("stopped by ") + (stop_signal == SIGTERM ? "SIGTERM" : "SIGINT"));
}

}  // namespace rh_load
