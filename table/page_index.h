// The page index of a paged file (paged_layout.h): which page holds a key.
// Page i's separator is the shortest prefix of its first key that is
// greater than page i-1's last key (page 0's is its first key), so the key
// lies in the last page whose separator is not greater than it.
//
// Section contents (the meta block's `block_table` handle):
//   varint32 page_count          P >= 1, the pages of the file
//   varint32 common_len, bytes   what every key of the file begins with
//                                (the common prefix of its first and last
//                                keys), c bytes
//   varint32 last_len, bytes     the last key of the file, past those c
//   P x fixed32 prefix           separator i's 4 bytes after the first c,
//                                zero padded, as a big-endian number
//   P x fixed32 end              where separator i ends in the bytes below
//   separator bytes              each separator past its first c bytes
// Separators increase strictly; each begins with the c common bytes.
//
// A lookup compares 32-bit prefixes, and whole separators only where the
// prefixes tie. At first use a reader builds a radix table over the
// prefixes' leading bits (a bucket of 4 bytes for one or two pages), so the
// search is over the few pages that share them. In memory: 8 bytes a page,
// the separators' bytes past the common prefix, and the radix table.
//
// Byte layout: docs/format.md, "Page index".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rocksdb/slice.h"
#include "rocksdb/status.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

class PageIndexBuilder {
 public:
  // Page `pages()` begins with `first_key`; `prev_last_key` is the last key
  // of the page before it (ignored for the first page). Keys bytewise.
  void AddPage(const Slice& prev_last_key, const Slice& first_key);
  uint64_t pages() const { return pages_; }
  // The section contents, once the last page is added. REQUIRES: pages().
  std::string Finish(const Slice& last_key) const;
  size_t MemoryUsage() const { return separators_.capacity(); }

 private:
  std::string separators_;  // length-prefixed, whole
  std::string first_key_;
  uint64_t pages_ = 0;
};

class PageIndex {
 public:
  // Decodes `contents` (which point into `buf` or stay valid while this
  // lives), for a file of `pages` pages, and checks every invariant the
  // search relies on. `section_offset` locates it in errors.
  Status Init(std::string&& buf, const Slice& contents, uint64_t pages,
              const std::string& file, uint64_t section_offset);

  uint64_t pages() const { return pages_; }
  // The page that holds `key` if the file does; false if `key` lies
  // before the first key or after the last. `share`, if given: where the
  // key's 4 bytes past the common ones lie between its page's separator
  // and the next page's (the last key, past the last page), in 65536ths,
  // below 65536: in evenly spread keys, about the share of the page's
  // entries before it, so a lookup can guess where its entry lies.
  bool Find(const Slice& key, uint64_t* page, uint32_t* share = nullptr) const;
  // The first page that may hold keys >= `key`: 0 before the first key,
  // pages() after the last.
  uint64_t SeekPage(const Slice& key) const;
  // Whether `key` lies after the last key of the pages.
  bool PastLast(const Slice& key) const;
  // Page i's separator, whole: no greater than the page's first key,
  // greater than every key of the pages before it.
  std::string Separator(uint64_t i) const {
    return common_.ToString() + SeparatorAt(i).ToString();
  }
  size_t MemoryUsage() const {
    return buf_.capacity() + radix_.capacity() * sizeof(uint32_t);
  }

 private:
  uint64_t PrefixAt(uint64_t i) const;
  Slice SeparatorAt(uint64_t i) const;  // past the common bytes
  // Whether separator i is greater than `rest` (a key past the common
  // bytes) with prefix `prefix`.
  bool Greater(uint64_t i, uint64_t prefix, const Slice& rest) const;
  uint64_t Bucket(uint64_t prefix) const {
    return radix_bits_ == 0 ? 0 : (prefix << radix_shift_) >> (64 - radix_bits_);
  }

  std::string buf_;
  Slice common_;
  Slice last_;  // past the common bytes
  const char* prefixes_ = nullptr;
  const char* ends_ = nullptr;
  const char* separators_ = nullptr;
  uint64_t pages_ = 0;
  uint64_t first_prefix_ = 0;  // separator 0's
  uint64_t last_prefix_ = 0;   // the last key's
  uint32_t radix_shift_ = 0;
  uint32_t radix_bits_ = 0;
  std::vector<uint32_t> radix_;  // first page of each bucket, and pages_
};

// Bytes [0, 4) of `rest`, zero padded, as a big-endian number, in the
// high half of the result (so prefixes order as the keys do).
uint64_t KeyPrefix(const Slice& rest);

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
