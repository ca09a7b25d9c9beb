// The builder's side of the paged layout (paged_layout.h): while every
// entry of a file so far is a compacted put that fits a page, and the file
// is not inline, its entries wait here as finished pages (entry_page.h)
// instead of going to the log. At Finish the pages are written as they
// are; if an entry that does not fit arrives first, the builder takes the
// entries back in order (ForEach) and writes them to the log instead.
//
// Memory: the pages, about the file's own bytes, and the page index's
// separators (page_index.h).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "table/entry_page.h"
#include "table/hash_index.h"
#include "table/page_index.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

class PagedEntryBuffer {
 public:
  PagedEntryBuffer(HashFunction hash, uint64_t seed)
      : hash_(hash), seed_(seed) {}

  // Whether an entry of `key` and `value` fits a page.
  static bool Fits(const Slice& key, const Slice& value) {
    return EntryPageEntryBytes(key, value) <= kEntryPageMaxEntryBytes;
  }
  // REQUIRES: Fits(key, value); keys arrive in bytewise order.
  void Add(const Slice& key, const Slice& value);
  uint64_t size() const { return count_; }
  // The bytes the entries take in their pages, tails excluded.
  uint64_t EntryBytes() const { return entry_bytes_; }
  uint64_t SeparatorBytes() const { return index_.MemoryUsage(); }
  // Pages so far, the open one included.
  uint64_t pages() const { return index_.pages() + (open_.empty() ? 0 : 1); }

  // Hands every entry to `fn` in order, until it returns false.
  using Visit = std::function<bool(const Slice& key, const Slice& value)>;
  void ForEach(const Visit& visit) const;
  // Closes the open page and passes the pages to `sink` in pieces,
  // setting `*crc` (unmasked, of them all) and `*index` (the page index
  // section). Frees the pages. REQUIRES: size() > 0.
  using Sink = std::function<Status(const Slice&)>;
  Status Write(const Sink& sink, uint32_t* crc, std::string* index);

  size_t MemoryUsage() const;
  uint64_t EstimatedFileBytes() const {
    return pages() * uint64_t{kEntryPageBytes} + index_.MemoryUsage();
  }

 private:
  void ClosePage();

  // Small chunks: a small file's buffer stays close to its bytes.
  static constexpr size_t kPagesPerChunk = 16;
  const HashFunction hash_;
  const uint64_t seed_;
  EntryPageBuilder open_;
  std::vector<std::string> chunks_;  // finished pages
  PageIndexBuilder index_;
  std::string page_first_;  // first key of the open page
  std::string last_key_;    // the last key added
  std::string prev_last_;   // last key of the page before the open one
  uint64_t count_ = 0;
  uint64_t entry_bytes_ = 0;
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
