// A block or page kept in RobinHoodTableOptions::block_cache: its bytes
// alone (the reader knows their size), under a key of the reader's cache id
// and the block's or page's number. Not an on-disk structure.
#pragma once

#include <cstdint>

#include "rocksdb/slice.h"
#include "table/compat.h"  // Cache, whose header moved in 8.0

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

// A cached block pinned in the block cache while this lives (or until the
// next lookup or insert into it).
class CachedBlock {
 public:
  CachedBlock() = default;
  CachedBlock(CachedBlock&& other) noexcept
      : cache_(other.cache_), handle_(other.handle_) {
    other.handle_ = nullptr;
  }
  CachedBlock(const CachedBlock&) = delete;
  CachedBlock& operator=(const CachedBlock&) = delete;
  ~CachedBlock() { Reset(); }
  void Reset() {
    if (handle_ != nullptr) cache_->Release(handle_);
    handle_ = nullptr;
  }
  bool holds() const { return handle_ != nullptr; }

  // Makes `*contents` the `bytes` cached under (`id`, `n`) and pins them;
  // false if the cache lacks them.
  bool Lookup(Cache* cache, uint64_t id, uint64_t n, size_t bytes,
              Slice* contents);
  // Puts a copy of `block` in the cache under (`id`, `n`), pinned, and
  // makes `*contents` the copy (or `block` itself if the cache refuses it).
  void Insert(Cache* cache, uint64_t id, uint64_t n, const Slice& block,
              Slice* contents);

 private:
  void Hold(Cache* cache, Cache::Handle* handle) {
    Reset();
    cache_ = cache;
    handle_ = handle;
  }
  Cache* cache_ = nullptr;
  Cache::Handle* handle_ = nullptr;
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
