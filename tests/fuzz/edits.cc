#include "tests/fuzz/edits.h"

#include <algorithm>

namespace rh_fuzz {

const std::vector<std::string>& BaseNames() {
  static const std::vector<std::string> names = {
      "paged-log", "paged-log-compressed", "paged-8k"};
  return names;
}

std::string ApplyEdits(const std::vector<std::string>& bases,
                       const uint8_t* input, size_t size, bool* rechecksum) {
  *rechecksum = true;
  if (bases.empty()) return std::string();
  const uint8_t head = size > 0 ? input[0] : 0;
  *rechecksum = (head & 0x80) == 0;
  std::string file = bases[(head & 0x7f) % bases.size()];
  size_t i = 1;
  while (i + 4 <= size && !file.empty()) {
    const uint8_t op = input[i];
    const size_t n = (op & 7) + 1;
    const uint64_t raw = (uint64_t{input[i + 1]} << 16) |
                         (uint64_t{input[i + 2]} << 8) | input[i + 3];
    i += 4;
    uint64_t at = raw % file.size();
    if (op & 8) at = file.size() - 1 - at;
    if (op & 16) {
      file.resize(at);
      continue;
    }
    const size_t have = std::min(n, size - i);
    const size_t fit = std::min<uint64_t>(have, file.size() - at);
    std::copy(input + i, input + i + fit, &file[at]);
    i += have;
  }
  return file;
}

}  // namespace rh_fuzz
