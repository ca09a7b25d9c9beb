// A block or page kept in RobinHoodTableOptions::block_cache: its bytes
// alone (the reader knows their size), under a key of the reader's cache id
// and the block's or page's number. Not an on-disk structure.
#pragma once

#include <cstdint>

#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "table/compat.h"  // Cache, whose header moved in 8.0
#include "table/read_use.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

// A cached block pinned in the block cache while this lives (or until the
// next lookup or insert into it), for a lookup that uses the cache as `use`
// says.
class CachedBlock {
 public:
  CachedBlock() = default;
  explicit CachedBlock(const ReadUse& use) : use_(use) {}
  CachedBlock(CachedBlock&& other) noexcept
      : use_(other.use_), cache_(other.cache_), handle_(other.handle_) {
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
  const ReadUse& use() const { return use_; }

  // What a lookup that may not read answers when it would have to.
  static Status NeedsRead() {
    return Status::Incomplete("RobinHoodTable: the entry needs a read");
  }

  // Makes `*contents` the `bytes` of block (`id`, `n`), from `cache` if it
  // has them (pinned), else as `read(contents)` makes them (checking the
  // block; from the file if `from_file`, else from memory: a mapping),
  // then kept in the cache, pinned, if `use()` fills it. Without reading:
  // NeedsRead() if the cache lacks them, the read is from the file and
  // `use()` forbids that.
  template <typename Read>
  Status Fetch(Cache* cache, uint64_t id, uint64_t n, size_t bytes,
               bool from_file, Read&& read, Slice* contents) {
    if (Lookup(cache, id, n, bytes, contents)) return Status::OK();
    if (use_.no_io && from_file) return NeedsRead();
    Status s = read(contents);
    if (s.ok() && use_.fill) Insert(cache, id, n, *contents, contents);
    return s;
  }

  // Makes `*contents` the `bytes` cached under (`id`, `n`) and pins them;
  // false if the cache lacks them.
  bool Lookup(Cache* cache, uint64_t id, uint64_t n, size_t bytes,
              Slice* contents);
  // Puts a copy of `block` in the cache under (`id`, `n`) unless it holds
  // one already (what a scan that may fill the cache leaves there).
  static void Keep(Cache* cache, uint64_t id, uint64_t n, const Slice& block) {
    CachedBlock pin;
    Slice kept;
    if (!pin.Lookup(cache, id, n, block.size(), &kept)) {
      pin.Insert(cache, id, n, block, &kept);
    }
  }
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
  ReadUse use_;
  Cache* cache_ = nullptr;
  Cache::Handle* handle_ = nullptr;
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
