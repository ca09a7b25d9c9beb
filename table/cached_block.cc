#include "table/cached_block.h"

#include <cstring>
#include <memory>

#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

namespace {
struct CacheKey {
  CacheKey(uint64_t id, uint64_t n) {
    EncodeFixed64(bytes, id);
    EncodeFixed64(bytes + 8, n);
  }
  Slice slice() const { return Slice(bytes, sizeof(bytes)); }
  char bytes[16];
};
}  // namespace

bool CachedBlock::Lookup(Cache* cache, uint64_t id, uint64_t n, size_t bytes,
                         Slice* contents) {
  Reset();
  Cache::Handle* handle = cache->Lookup(CacheKey(id, n).slice());
  if (handle == nullptr) return false;
  Hold(cache, handle);
  *contents = Slice(static_cast<const char*>(cache->Value(handle)), bytes);
  return true;
}

void CachedBlock::Insert(Cache* cache, uint64_t id, uint64_t n,
                         const Slice& block, Slice* contents) {
  Reset();
  std::unique_ptr<char[]> value(new char[block.size()]);
  memcpy(value.get(), block.data(), block.size());
  Cache::Handle* handle = nullptr;
  // Charged its bytes; the cache adds its own overhead.
  Status s = compat::CacheInsert(cache, CacheKey(id, n).slice(), value.get(),
                                 block.size(), &handle);
  if (!s.ok()) {  // a full cache with a strict limit: go without
    *contents = block;
    return;
  }
  Hold(cache, handle);
  *contents = Slice(value.release(), block.size());
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
