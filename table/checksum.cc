#include "table/checksum.h"

#include <cstring>

#include "util/crc32c.h"

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

namespace {

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) uint32_t HardwareExtend(uint32_t crc,
                                                          const char* p,
                                                          size_t n) {
  uint64_t c = ~crc & 0xffffffffu;
  for (; n >= 8; p += 8, n -= 8) {
    uint64_t word;
    memcpy(&word, p, 8);
    c = _mm_crc32_u64(c, word);
  }
  uint32_t c32 = static_cast<uint32_t>(c);
  for (; n > 0; ++p, --n) {
    c32 = _mm_crc32_u8(c32, static_cast<uint8_t>(*p));
  }
  return ~c32;
}

bool DetectHardware() { return __builtin_cpu_supports("sse4.2"); }
#else
uint32_t HardwareExtend(uint32_t crc, const char* p, size_t n) {
  return crc32c::Extend(crc, p, n);
}
bool DetectHardware() { return false; }
#endif

const bool kHardware = DetectHardware();

}  // namespace

uint32_t Crc32cExtend(uint32_t crc, const char* data, size_t n) {
  return kHardware ? HardwareExtend(crc, data, n)
                   : crc32c::Extend(crc, data, n);
}

bool Crc32cIsHardware() { return kHardware; }

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
