#include "table/crc32c_fast.h"

#include <cstring>

#include "util/crc32c.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <nmmintrin.h>
#define RH_CRC32C_SSE42 1
#endif

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

namespace {

uint32_t ExtendPortable(uint32_t crc, const char* data, size_t n) {
  return crc32c::Extend(crc, data, n);
}

#ifdef RH_CRC32C_SSE42
// The register holds the CRC inverted, as the instruction works on it.
__attribute__((target("sse4.2"))) uint32_t ExtendSse42(uint32_t crc,
                                                        const char* data,
                                                        size_t n) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(data);
  uint64_t c = static_cast<uint32_t>(~crc);
  for (; n > 0 && (reinterpret_cast<uintptr_t>(p) & 7) != 0; --n) {
    c = _mm_crc32_u8(static_cast<uint32_t>(c), *p++);
  }
  for (; n >= 8; n -= 8, p += 8) {
    uint64_t word;
    memcpy(&word, p, 8);
    c = _mm_crc32_u64(c, word);
  }
  for (; n > 0; --n) c = _mm_crc32_u8(static_cast<uint32_t>(c), *p++);
  return ~static_cast<uint32_t>(c);
}
#endif

using Extend = uint32_t (*)(uint32_t, const char*, size_t);

Extend Choose() {
#ifdef RH_CRC32C_SSE42
  if (__builtin_cpu_supports("sse4.2")) return &ExtendSse42;
#endif
  return &ExtendPortable;
}

// Chosen on first use, so no static initializer depends on another's.
Extend Chosen() {
  static const Extend chosen = Choose();
  return chosen;
}

}  // namespace

uint32_t Crc32cExtend(uint32_t crc, const char* data, size_t n) {
  return Chosen()(crc, data, n);
}

bool Crc32cIsHardware() { return Chosen() != &ExtendPortable; }

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
