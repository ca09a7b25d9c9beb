// A page of the paged layout (paged_layout.h): P bytes at a multiple of P
// in the file, P a power of two from 4096 to 65536, the same for every
// page of a file (the pages' section size over their count). 4096 makes a
// page a device page; a file of entries that would leave much of such a
// page empty takes larger ones (paged_entries.h).
// Entries from its start, in key order; a tail at its end that finds them.
//
//   +---------------------------------+-------+-----------+--------+-----+-----+
//   | entry 0 | entry 1 | ... | n - 1 | zeros | offsets   | tags   | n   | crc |
//   |                                 |       | n x fixed16 | n x 1 | fx16 | fx32 |
//   +---------------------------------+-------+-----------+--------+-----+-----+
//   entry:   varint32 key_len, varint32 value_len, key, value (a compacted
//            put: sequence 0, kTypeValue)
//   offsets: where each entry starts in the page; the first is 0, each
//            next one is where the entry before it ends
//   tags:    the top byte of each key's KeyHash with the file's seed, so a
//            lookup compares one key, not all of them, and a miss none
//   n:       1 .. EntryPageMaxEntries(P)
//   crc:     masked CRC32C of the page's first P - 4 bytes
//
// A lookup reads the tail (the last cache line or two: crc, n, tags, then
// the offsets before them), then the one entry whose tag matches.
//
// Byte layout: docs/format.md, "Pages".
#pragma once

#include <cassert>

#include <cstdint>
#include <cstring>
#include <string>

#include "rocksdb/slice.h"
#include "rocksdb/status.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

constexpr uint32_t kEntryPageMinBytes = 4096;
// Offsets and n are 16 bits: no page is larger.
constexpr uint32_t kEntryPageMaxBytes = 65536;
constexpr uint32_t kEntryPageFixedTail = 2 + 4;  // n and crc
constexpr uint32_t kEntryPageTailPerEntry = 2 + 1;  // offset and tag
// A page size the format allows.
constexpr bool IsEntryPageSize(uint64_t bytes) {
  return bytes >= kEntryPageMinBytes && bytes <= kEntryPageMaxBytes &&
         (bytes & (bytes - 1)) == 0;
}
// The page sizes, kEntryPageMinBytes << s for s below this.
constexpr int kEntryPageSizes = 5;
static_assert(kEntryPageMinBytes << (kEntryPageSizes - 1) == kEntryPageMaxBytes,
              "page sizes");
// Whether an entry of `entry_bytes` fits a page of `page_bytes` beside `n`
// entries of `used` bytes: entries, their tail bytes and the fixed tail.
constexpr bool EntryPageFits(uint64_t page_bytes, uint64_t used, uint64_t n,
                             uint64_t entry_bytes) {
  return used + entry_bytes + (n + 1) * kEntryPageTailPerEntry +
             kEntryPageFixedTail <=
         page_bytes;
}
// The smallest entry (two one-byte lengths) with its tail bytes bounds n.
constexpr uint32_t EntryPageMaxEntries(uint32_t page_bytes) {
  return (page_bytes - kEntryPageFixedTail) / (2 + kEntryPageTailPerEntry);
}
// The longest entry the paged layout takes: one that fits the smallest
// page, whatever page a file chooses.
constexpr uint32_t kEntryPageMaxEntryBytes =
    kEntryPageMinBytes - kEntryPageFixedTail - kEntryPageTailPerEntry;

// The bytes `key` and `value` take as a page entry.
uint32_t EntryPageEntryBytes(const Slice& key, const Slice& value);
// A key's tag: the top byte of its hash.
inline uint8_t EntryPageTag(uint64_t hash) {
  return static_cast<uint8_t>(hash >> 56);
}

class EntryPageBuilder {
 public:
  // REQUIRES: IsEntryPageSize(page_bytes).
  explicit EntryPageBuilder(uint32_t page_bytes = kEntryPageMinBytes)
      : bytes_(page_bytes) {
    assert(IsEntryPageSize(page_bytes));
  }
  uint32_t page_bytes() const { return bytes_; }
  bool empty() const { return n_ == 0; }
  // Whether an entry of `entry_bytes` (EntryPageEntryBytes) fits beside
  // the ones added so far.
  bool Fits(uint32_t entry_bytes) const {
    return EntryPageFits(bytes_, used_, n_, entry_bytes);
  }
  // REQUIRES: Fits(EntryPageEntryBytes(key, value)); keys in order.
  void Add(const Slice& key, const Slice& value, uint8_t tag);
  // Appends the page, page_bytes() bytes, to `dst` and starts anew.
  // REQUIRES: !empty().
  void Finish(std::string* dst);
  // The same, into the page_bytes() bytes at `dst`; returns the CRC32C of
  // all of them (a section's checksum combines its pages').
  uint32_t Finish(char* dst);

 private:
  std::string entries_;
  std::string offsets_;
  std::string tags_;
  uint32_t bytes_;
  uint32_t used_ = 0;
  uint32_t n_ = 0;
};

// A page in memory, decoded lazily: each accessor bounds what it reads
// by the page, so a page whose checksum was recomputed over damage still
// reads nothing outside itself.
class EntryPage {
 public:
  // `page` holds `page_bytes` bytes (IsEntryPageSize). Checks n only:
  // false if it is 0 or leaves no room for the tail.
  bool Parse(const char* page, uint32_t page_bytes);
  // Checks the CRC of `page`, of `page_bytes` bytes.
  static bool CrcMatches(const char* page, uint32_t page_bytes);

  uint32_t size() const { return n_; }
  uint8_t tag(uint32_t i) const { return static_cast<uint8_t>(tags_[i]); }
  // The first entry from `from` on whose tag is `tag`; size() if none.
  uint32_t FindTag(uint8_t tag, uint32_t from) const {
    if (from >= n_) return n_;
    const void* hit = memchr(tags_ + from, tag, n_ - from);
    return hit == nullptr
               ? n_
               : static_cast<uint32_t>(static_cast<const char*>(hit) - tags_);
  }
  // Where entry `i` (< size()) starts in the page, as its tail says.
  uint32_t OffsetOf(uint32_t i) const;
  // Entry `i` (< size()): false if its offset or lengths leave its room.
  bool Entry(uint32_t i, Slice* key, Slice* value) const;
  // Only the key of entry `i`.
  bool Key(uint32_t i, Slice* key) const {
    Slice value;
    return Entry(i, key, &value);
  }
  // The first entry whose key is >= `key` (bytewise), size() if none;
  // false if an entry on the way does not decode.
  bool LowerBound(const Slice& key, uint32_t* at) const;
  // Every entry decodes, each starts where the one before ends, the first
  // at 0, keys strictly increasing, tags matching `seed`'s hashes, the
  // bytes between the last entry and the tail zero. `*why` says what not.
  bool CheckAll(uint64_t (*hash)(const Slice&, uint64_t), uint64_t seed,
                const char** why) const;
  // Where the tail starts in the page.
  uint32_t tail_offset() const {
    return bytes_ - kEntryPageFixedTail - n_ * kEntryPageTailPerEntry;
  }

 private:
  const char* page_ = nullptr;
  uint32_t bytes_ = kEntryPageMinBytes;
  const char* offsets_ = nullptr;
  const char* tags_ = nullptr;
  uint32_t n_ = 0;
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
