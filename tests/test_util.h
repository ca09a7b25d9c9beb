// Helpers shared by the gtest suites: status assertions and scratch paths.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "rocksdb/cache.h"
// Since 8.0 the Cache class itself (GetCapacity, GetUsage) is declared
// here, rocksdb/cache.h only names it.
#if __has_include("rocksdb/advanced_cache.h")
#include "rocksdb/advanced_cache.h"
#endif
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/merge_operator.h"
#include "tests/join_merge_operator.h"
#include "rocksdb/metadata.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "tools/common/db_open.h"

// gtest has no Status matchers; these print the Status when they fail.
#define ASSERT_OK(expr)                                  \
  do {                                                   \
    const ::ROCKSDB_NAMESPACE::Status _s = (expr);       \
    ASSERT_TRUE(_s.ok()) << _s.ToString();               \
  } while (0)
#define EXPECT_OK(expr)                                  \
  do {                                                   \
    const ::ROCKSDB_NAMESPACE::Status _s = (expr);       \
    EXPECT_TRUE(_s.ok()) << _s.ToString();               \
  } while (0)

namespace ROCKSDB_NAMESPACE {
namespace test_util {
using robinhood::DBResult;

// A path under gtest's temp dir that is unique to this process and `name`,
// so suites run in parallel by ctest never share files.
inline std::string TempPath(const std::string& suite, const std::string& name) {
  std::string dir = testing::TempDir();
  if (dir.empty() || dir.back() != '/') dir.push_back('/');
  return dir + "rh_" + suite + "_" + std::to_string(getpid()) + "_" + name;
}

// Removes `path` and everything under it, as a test's last step: DestroyDB
// removes only the files a DB names, so a repair's lost/, a compaction
// service's output directories or a test's own copies would stay behind.
inline void RemoveTree(const std::string& path) {
  std::error_code ec;
  std::filesystem::remove_all(path, ec);
  EXPECT_FALSE(ec) << path << ": " << ec.message();
}

// A test's scratch file, removed when the scope ends, however it ends
// (an ingested file stays where it was: RocksDB copies or links it).
class ScratchFile {
 public:
  explicit ScratchFile(std::string path) : path_(std::move(path)) {}
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;
  ~ScratchFile() { Env::Default()->DeleteFile(path_).PermitUncheckedError(); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// The names in `dir` (not "." and ".."), sorted; none if it cannot be read.
inline std::vector<std::string> ListDir(const std::string& dir) {
  std::vector<std::string> names;
  Env::Default()->GetChildren(dir, &names).PermitUncheckedError();
  names.erase(std::remove_if(names.begin(), names.end(),
                             [](const std::string& n) { return n == "." || n == ".."; }),
              names.end());
  std::sort(names.begin(), names.end());
  return names;
}

// DB::Open into a unique_ptr (null when the open fails).
inline Status OpenDB(const Options& o, const std::string& path,
                     std::unique_ptr<DB>* db) {
  return DB::Open(o, path, DBResult(db));
}

// The paths of the SST files the DB holds now.
inline std::vector<std::string> LiveSstPaths(DB* db) {
  std::vector<LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  std::vector<std::string> out;
  for (const auto& f : files) out.push_back(f.db_path + f.name);
  return out;
}

// A key or value for failure messages: quoted when printable, else hex;
// past 40 bytes abbreviated to its first 16 and last 8, unless `whole`.
inline std::string Printable(const Slice& s, bool whole = false) {
  bool printable = true;
  for (size_t i = 0; i < s.size(); i++) {
    if (!isprint(static_cast<unsigned char>(s[i])) || s[i] == '"') {
      printable = false;
    }
  }
  if (s.size() > 40 && !whole) {
    return "<" + std::to_string(s.size()) + " bytes " +
           Slice(s.data(), 16).ToString(true) + "..." +
           Slice(s.data() + s.size() - 8, 8).ToString(true) + ">";
  }
  if (printable) return "\"" + s.ToString() + "\"";
  return "0x" + s.ToString(true) + "(" + std::to_string(s.size()) + ")";
}

// The strongest codec this RocksDB has: ZSTD, else LZ4, else Snappy.
inline CompressionType BestCodec() {
  CompressionType best = kSnappyCompression;
  for (CompressionType t : GetSupportedCompressions()) {
    if (t == kZSTD || (t == kLZ4Compression && best != kZSTD)) best = t;
  }
  return best;
}

// The block caches a user may give a table: RocksDB's LRU cache, and the
// HyperClockCache RocksDB recommends for block caches since 8.x (lock-free
// lookups, 16-byte keys only, a table sized from an estimated entry
// charge). `shard_bits` as RocksDB's (-1: its choice); `strict`: inserts
// past `capacity` fail.
enum class CacheKind { kLru, kHyperClock };
inline const char* CacheKindName(CacheKind k) {
  return k == CacheKind::kLru ? "lru" : "hyperclock";
}
inline std::shared_ptr<Cache> NewCacheOf(CacheKind kind, size_t capacity,
                                         int shard_bits = -1,
                                         bool strict = false) {
  if (kind == CacheKind::kLru) {
    return NewLRUCache(capacity, shard_bits, strict);
  }
  HyperClockCacheOptions o(capacity, /*estimated_entry_charge=*/4096,
                           shard_bits, strict);
  return o.MakeSharedCache();
}

// The bytes of what `cache` holds: its entries' charges. Not GetUsage(),
// which a HyperClockCache starts with its table's size in.
inline size_t HeldBytes(Cache& cache) {
  size_t held = 0;
  // A generic callback: the value's and the helper's types differ by host.
  cache.ApplyToAllEntries(
      [&held](const Slice&, auto, size_t charge, auto) { held += charge; },
      Cache::ApplyToAllEntriesOptions());
  return held;
}

}  // namespace test_util
}  // namespace ROCKSDB_NAMESPACE
