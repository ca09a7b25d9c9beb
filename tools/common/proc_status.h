// The process's memory as the kernel counts it: one reader of
// /proc/self/status for the programs that report it (rh_load's peak,
// rh_lookup_bench's resident set, db_bench_ext's builder peak).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

namespace rh_tools {

// A field of /proc/self/status given in kB ("VmRSS:", "VmHWM:"), in
// bytes; 0 where the file or the field is missing.
inline uint64_t ProcStatusBytes(const std::string& field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.compare(0, field.size(), field) == 0) {
      return static_cast<uint64_t>(
                 std::strtoull(line.c_str() + field.size(), nullptr, 10))
             << 10;
    }
  }
  return 0;
}

}  // namespace rh_tools
