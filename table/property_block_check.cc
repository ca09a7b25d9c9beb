#include "table/property_block_check.h"

#include <string>

#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

namespace {
Status Bad(const char* what, size_t at) {
  return Status::Corruption(std::string(what) + " at block offset " +
                            std::to_string(at));
}
}  // namespace

Status CheckPropertyBlock(const Slice& block) {
  const size_t size = block.size();
  if (size < 8) return Bad("block too short", 0);
  const uint32_t footer = DecodeFixed32(block.data() + size - 4);
  if (footer >> 31) return Bad("hash index flag set", size - 4);
  const uint64_t restarts = footer;
  if (restarts == 0 || (restarts + 1) * 4 > size) {
    return Bad("bad restart count", size - 4);
  }
  const size_t data_end = size - (restarts + 1) * 4;
  const char* base = block.data();
  const char* limit = base + data_end;

  std::string key;
  const char* p = base;
  uint64_t next_restart = 0;
  size_t entries = 0;
  while (p < limit) {
    const size_t at = static_cast<size_t>(p - base);
    bool at_restart = false;
    if (next_restart < restarts) {
      const uint32_t r = DecodeFixed32(limit + next_restart * 4);
      if (r < at) return Bad("restart point not at an entry", at);
      if (r == at) {
        at_restart = true;
        ++next_restart;
      }
    }
    if (entries == 0 && !at_restart) return Bad("no restart at 0", at);
    // RocksDB's decoder reads three bytes before it looks at them.
    if (limit - p < 3) return Bad("truncated entry", at);
    uint32_t shared = 0, non_shared = 0, value_length = 0;
    p = GetVarint32Ptr(p, limit, &shared);
    if (p != nullptr) p = GetVarint32Ptr(p, limit, &non_shared);
    if (p != nullptr) p = GetVarint32Ptr(p, limit, &value_length);
    if (p == nullptr) return Bad("bad entry header", at);
    if (uint64_t{non_shared} + value_length >
        static_cast<uint64_t>(limit - p)) {
      return Bad("entry past the block", at);
    }
    if (shared > key.size() || (at_restart && shared != 0)) {
      return Bad("entry shares more than its predecessor has", at);
    }
    std::string next(key.data(), shared);
    next.append(p, non_shared);
    if (entries > 0 && Slice(next).compare(Slice(key)) <= 0) {
      return Bad("keys out of order", at);
    }
    key = std::move(next);
    p += non_shared + value_length;
    ++entries;
  }
  if (next_restart != restarts) {
    return Bad("restart point past the entries", data_end);
  }
  return Status::OK();
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
