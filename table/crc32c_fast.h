// CRC32C (Castagnoli), the checksum of every block, section and page of a
// file (robinhood_format.h), computed as RocksDB's crc32c::Value and
// crc32c::Extend compute it, bit for bit, but with the CPU's CRC32
// instruction where it has one (x86-64 with SSE4.2, chosen at run time).
// RocksDB's own picks that instruction only when it was compiled for it,
// and portable builds (Debian's) are not: they checksum in software, about
// a seventh as fast, which a lookup pays on every page or block it is the
// first to read.
#pragma once

#include <cstddef>
#include <cstdint>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

// The CRC32C of `n` bytes at `data` continuing `crc` (the CRC of the bytes
// before them; 0 to start): crc32c::Extend's value.
uint32_t Crc32cExtend(uint32_t crc, const char* data, size_t n);
// crc32c::Value's.
inline uint32_t Crc32c(const char* data, size_t n) {
  return Crc32cExtend(0, data, n);
}
// Whether the instruction is in use (for tests and benchmarks to say).
bool Crc32cIsHardware();

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
