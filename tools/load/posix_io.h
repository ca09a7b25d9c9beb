// The few POSIX file calls rh_load makes itself, as Status returns that
// name the file; interrupted calls are retried, so a signal stops the
// loader at its next check, not in the middle of a write.
#pragma once

#include <cstdint>
#include <string>

#include "rocksdb/status.h"

namespace rh_load {

using ROCKSDB_NAMESPACE::Status;

Status IoError(const std::string& what, const std::string& path);
Status WriteAll(int fd, const char* data, size_t n, const std::string& path);
// Reads exactly `n` bytes at `offset`.
Status ReadAll(int fd, char* data, size_t n, uint64_t offset,
               const std::string& path);
// Reads up to `n` bytes from the current position; *got = 0 at the end.
Status ReadSome(int fd, char* data, size_t n, size_t* got,
                const std::string& path);

}  // namespace rh_load
