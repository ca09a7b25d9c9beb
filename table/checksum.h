// CRC32C for the format's trailers (robinhood_format.h), computed with the
// SSE4.2 instruction when the CPU has it. The host librocksdb is built
// PORTABLE and so checksums with a table-driven loop (about 1 GB/s here,
// against 8 GB/s for the instruction); the value is the same either way.
#pragma once

#include <cstddef>
#include <cstdint>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

// The CRC32C of data[0, n) continued from `crc` (the CRC of what came
// before, 0 for none), as crc32c::Extend.
uint32_t Crc32cExtend(uint32_t crc, const char* data, size_t n);
inline uint32_t Crc32c(const char* data, size_t n) {
  return Crc32cExtend(0, data, n);
}
// Whether Crc32cExtend uses the CPU instruction (for tests and tools).
bool Crc32cIsHardware();

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
