// The builder's side of the paged layout (paged_layout.h): while every
// entry of a file so far is a compacted put that fits a page, and the file
// is not inline, its entries go here, into pages (entry_page.h), instead
// of to the log. Once the page size is chosen and the builder has ruled
// out a compressed log, the pages go to the file as they fill (StreamTo);
// until then they wait, and if an entry that does not fit arrives first,
// the builder takes the entries back in order (ForEach) and writes them to
// the log instead. One that arrives after the pages went out starts a log
// behind them (paged_log_layout.h).
//
// The page size (entry_page.h) is chosen on the first kPageSizeSample
// bytes of entries, or on all of them in a smaller file, which wait
// unpaged until then: the smallest size whose pages the sample would fill
// within a sixteenth of the best size's bytes. Entries of about a quarter
// to a half of 4 KiB, which leave much of such a page empty, take larger
// pages; a lookup still reads one page.
//
// Memory: the page index's separators (page_index.h), the open page, and
// until the pages stream, the sample and the pages that wait (a bounded
// builder moves those to a temporary file: Spill).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "table/build_chunk.h"
#include "table/entry_page.h"
#include "table/hash_index.h"
#include "table/page_index.h"
#include "table/spill_buffer.h"

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
  // REQUIRES: Fits(key, value); keys arrive in bytewise order. `hash`:
  // the key's (the builder's filter takes it too).
  void Add(const Slice& key, const Slice& value, uint64_t hash);
  void Add(const Slice& key, const Slice& value) {
    Add(key, value, hash_(key, seed_));
  }
  // The page size for entries of `sizes` (EntryPageEntryBytes each), as
  // above; `whole` if they are all the file's, so that the last page
  // counts whole.
  static uint32_t ChoosePageBytes(const std::vector<uint32_t>& sizes,
                                  bool whole);
  // The page size chosen, or 0 while the sample waits.
  uint32_t page_bytes() const { return sampling_ ? 0 : open_.page_bytes(); }
  uint64_t size() const { return count_; }
  // The bytes the entries take in their pages, tails excluded.
  uint64_t EntryBytes() const { return entry_bytes_; }
  uint64_t SeparatorBytes() const { return index_.MemoryUsage(); }
  // Whether the page index could take another page of keys of up to a
  // page's bytes: its radix table and separator ends are 32-bit
  // (page_index.h).
  bool IndexHasRoom() const {
    return pages() + 2 < UINT32_MAX &&
           SeparatorBytes() + 2 * uint64_t{kEntryPageMaxBytes} < UINT32_MAX;
  }
  // Pages so far, the open one included (none while the sample waits).
  uint64_t pages() const { return index_.pages() + (open_.empty() ? 0 : 1); }

  // Hands every entry to `fn` in order, until it returns false.
  // REQUIRES: !streaming().
  using Visit = std::function<bool(const Slice& key, const Slice& value)>;
  Status ForEach(const Visit& visit);
  // Passes the finished pages to `sink`, and from now on each page as it
  // fills. REQUIRES: page_bytes() != 0, !streaming().
  using Sink = std::function<Status(const Slice&)>;
  Status StreamTo(const Sink& sink);
  bool streaming() const { return stream_ != nullptr; }
  // Finished pages, those held and those to come, go to a temporary file
  // in `dir`.
  Status Spill(SpillDir* dir);
  bool spilled() const { return spilled_ != nullptr; }
  // Pages the sample if it waits and closes the open page: pages() and
  // page_bytes() are final. REQUIRES: size() > 0.
  void Close();
  // Closes (as above) and passes the pages not yet streamed to `sink` in
  // pieces, setting `*crc` (unmasked, of them all) and `*index` (the page
  // index section). Frees the pages. REQUIRES: size() > 0.
  Status Write(const Sink& sink, uint32_t* crc, std::string* index);

  size_t MemoryUsage() const;
  // The bytes still to come to the file (streamed pages are in it).
  uint64_t EstimatedFileBytes() const {
    return (pages() - streamed_) * uint64_t{open_.page_bytes()} +
           index_.MemoryUsage() + sample_.size() +
           sample_sizes_.size() * kEntryPageTailPerEntry;
  }

  static constexpr size_t kPageSizeSample = 256 << 10;

 private:
  // Chooses the page size and pages the sample.
  void PageSample(bool whole);
  void AddToPage(const Slice& key, const Slice& value, uint64_t hash);
  void ClosePage();
  void AddPageCrc(uint32_t page_crc);
  // Passes the finished pages held (in memory or spilled) to `sink` in
  // order, and frees them.
  Status PassHeld(const Sink& sink);

  // Small chunks while the pages are few, so a small file's buffer stays
  // close to its bytes; past 8 MiB, chunks of BuildChunk::kHugeBytes,
  // which the builder's writes of whole units pass on without a copy.
  static constexpr size_t kPagesPerChunk = 16;
  const HashFunction hash_;
  const uint64_t seed_;
  bool sampling_ = true;
  std::string sample_;  // entries: varint32 lengths, key, value
  std::vector<uint32_t> sample_sizes_;
  EntryPageBuilder open_;
  std::vector<BuildChunk> chunks_;  // finished pages
  uint64_t chunk_bytes_ = 0;        // their capacity, all of them
  uint32_t crc_ = 0;                // of the pages closed so far
  std::unique_ptr<SpillFile> spilled_;  // or here
  std::unique_ptr<Sink> stream_;        // or to the file, from here
  uint64_t streamed_ = 0;               // pages it took
  std::string page_;  // the page being finished, when spilled or streamed
  Status status_;
  PageIndexBuilder index_;
  std::string page_first_;  // first key of the open page
  std::string last_key_;    // the last key added
  std::string prev_last_;   // last key of the page before the open one
  uint64_t count_ = 0;
  uint64_t entry_bytes_ = 0;
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
