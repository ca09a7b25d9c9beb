// The paged layout (format version 6, meta block flag kPagedLayout): a file
// of compacted puts too long for an inline slot but each within a page,
// under the bytewise comparator, keeps them in key order in pages of 4096
// bytes or a larger power of two (entry_page.h) from offset 0, and has no log and no hash index. A
// page index (page_index.h) of one short separator a page says which page
// holds a key, so a point lookup reads one page: from disk, one device
// read; in memory, the page's tail and then the entry, in one page (a
// single lookup asks for the entry's likely lines with the tail, so the
// two reads mostly overlap: GuessEntry).
//
// Sections: the pages (the meta block's `index` handle, index_slots =
// index_capacity = the page count), the page index (`block_table`), and an
// empty sparse index: the page index serves Seek and ApproximateOffsetOf.
// Each page holds its own checksum; a reader checks a page the first time
// it reads it (with mmap; every time without). The page index is read and
// checked at the first lookup, not at open: it grows with the pages.
//
// Byte layout: docs/format.md, "The paged layout (version 6; larger
// pages, version 7)".
#pragma once

#include <atomic>
#include <mutex>
#include <string>

#include "table/cached_block.h"
#include "table/layout.h"
#include "table/page_index.h"
#include "table/verified_bits.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

class PagedLayout final : public Layout {
 public:
  static constexpr const char* kIndexPart = "pages";
  static constexpr const char* kDirectoryPart = "page index";

  Status Open(const TableView* view, const TableMeta& meta) override;
  Status LoadForLookups() override {
    const PageIndex* index = nullptr;
    return Index(&index);
  }
  uint64_t HashOf(const Slice& user_key) const override;
  // The page's tail. The hint names the key's page and where in it the
  // entry likely starts (MakeHint).
  Hint PrefetchHome(const Slice& user_key, uint64_t hash) const override;
  bool SearchesForHome() const override { return true; }
  Hint FindHome(const Slice& user_key, uint64_t hash) const override;
  void PrefetchFoundHome(Hint hint) const override;
  // The lines around the entry's guessed start, where entries are short
  // enough to guess (guess_used_).
  void PrefetchEntry(Hint hint) const override;
  bool HomeInFile(const Slice& user_key, uint64_t hash, Hint hint,
                  uint64_t* offset, size_t* n) const override;
  bool PrefetchesAfterHome() const override { return true; }
  // The entry whose tag matches, now that the page's tail is on its way.
  void PrefetchAfterHome(const Slice& user_key, uint64_t hash,
                         Hint hint) const override;
  Status Get(const ParsedInternalKey& target, uint64_t hash, Hint hint,
             const ReadUse& use, GetContext* get_context) const override;
  bool ScansThroughCache() const override { return cache_ != nullptr; }
  InternalIterator* NewIterator(Arena* arena, bool compaction,
                                const ReadUse& use,
                                const ScanAhead& ahead) const override;
  uint64_t OffsetOf(const Slice& internal_key) const override;
  Status AnchorKeys(size_t max, std::vector<std::string>* keys) const override;
  Status VerifyEntries(const ReadUse& use, std::string* buf) const override;
  size_t MemoryUsage() const override;
  const PagedLayout* AsPaged() const override { return this; }

  // The value of `user_key` (hash `hash`), if the file holds it: into
  // `*value`, pointing into the mapping, `*buf` or the block cache.
  // `hint`: PrefetchHome's for this key, or kNoHint. Given `pin`, a file
  // read without mmap reads its pages through the block cache, if there is
  // one, as the pin's use says (CachedBlock::Fetch; NeedsRead where it
  // forbids a read), and `*pin` holds the page while `*value` is in use.
  Status Find(const Slice& user_key, uint64_t hash, std::string* buf,
              Slice* value, bool* found, Hint hint = kNoHint,
              CachedBlock* pin = nullptr) const;
  uint64_t pages() const { return pages_; }
  uint32_t page_bytes() const { return page_bytes_; }
  // The page index, read and checked on the first call.
  Status Index(const PageIndex** index) const {
    *index = index_.load(std::memory_order_acquire);
    return *index != nullptr ? Status::OK() : LoadIndex(index);
  }
  // One past the last page that may hold a key below `user_key`; at least
  // `from` + 1, and all pages while the index is not in memory.
  uint64_t PagesBelow(const Slice& user_key, uint64_t from) const;
  bool IndexLoaded() const {
    return index_.load(std::memory_order_acquire) != nullptr;
  }
  // The page index if a lookup read it already, else null; reads nothing.
  const PageIndex* LoadedIndex() const {
    return index_.load(std::memory_order_acquire);
  }
  // Pages [first, first + count) in `*run`: in place with mmap, else read
  // into `*buf` as `use` says; each one's checksum checked (with mmap,
  // once).
  Status ReadPages(uint64_t first, uint64_t count, std::string* buf,
                   Slice* run, const ReadUse& use = kNoReadUse) const;
  // Puts the pages of `run` (pages [first, first + count), as ReadPages
  // gave them) in the block cache lookups keep pages in, if there is one,
  // unless it holds them: a scan that may fill the cache warms lookups.
  void KeepPages(uint64_t first, uint64_t count, const Slice& run) const;
  // Makes `*contents` page `page` from the block cache lookups keep pages
  // in, pinned by `*pin`; false if there is none or it lacks the page.
  bool LookupPage(uint64_t page, CachedBlock* pin, Slice* contents) const;
  Status Damaged(uint64_t page, const std::string& what) const;
  const TableView* view() const { return view_; }
  // The file's meta block, or its pages' part (TableMeta::PagesPart).
  const TableMeta& meta() const { return meta_; }

  // A lookup prefetches this many lines on each side of its entry's
  // guessed line: evenly spread keys of about 100 bytes fall a few
  // entries from where the key's share of its page's range puts them.
  static constexpr uint32_t kGuessLines = 5;
  // A guess misses by about half the square root of a page's entries, in
  // entries: in 4096 bytes, 360 bytes for 32 entries (100-byte values),
  // 510 for 16, past the lines prefetched for fewer, longer ones.
  static constexpr double kGuessMinEntries = 16;
  // At most this many lines of a page's tail are asked for at once (the
  // tags of 500 entries; pages of more are of entries of a few bytes).
  static constexpr uint32_t kMaxTailLines = 8;
  // With the index read and a file whose entries are short enough to
  // guess: the page that may hold `user_key` and where in it its entry
  // likely starts. False otherwise; reads nothing of the file.
  bool GuessEntry(const Slice& user_key, uint64_t* page,
                  uint32_t* offset) const;

 private:
  Status LoadIndex(const PageIndex** index) const;
  // With mmap and the index read: the mapped page that may hold
  // `user_key`, or null. Reads nothing of the file, checks nothing. A
  // `*hint` names the page; else it is set to name the page found.
  const char* MappedPageOf(const Slice& user_key, Hint* hint) const;
  // A page of the mapping's tail (its count, crc and tags); the lines
  // around `offset` in it and the line of the guessed entry's offset in
  // the tail, if a guess (not kNoGuess). REQUIRES: mmap.
  void PrefetchTail(const char* page) const;
  void PrefetchAround(const char* page, uint32_t offset) const;
  // A hint: the page plus one in its low 48 bits (the meta block's checks
  // bound the pages by the file), the guessed offset in its top 16, which
  // kNoGuess's bits fill where there is none (a guess is below the
  // page's tail, under 65536 - 128).
  static constexpr uint32_t kNoGuess = 0xffff;
  static constexpr int kHintPageBits = 48;
  static Hint MakeHint(uint64_t page, uint32_t offset) {
    return (page + 1) | (Hint{offset} << kHintPageBits);
  }
  static uint64_t HintPage(Hint hint) {
    return (hint & ((Hint{1} << kHintPageBits) - 1)) - 1;
  }
  static uint32_t HintOffset(Hint hint) {
    return static_cast<uint32_t>(hint >> kHintPageBits);
  }
  // The page that may hold `user_key` (false: none), and where in it its
  // entry likely starts, the key's share of the page's range of the
  // page's entry bytes (kNoGuess where guess_used_ is 0).
  bool FindPage(const PageIndex& index, const Slice& user_key,
                uint64_t* page, uint32_t* offset) const;

  const TableView* view_ = nullptr;
  TableMeta meta_;  // the file's, or its pages' part
  uint64_t pages_ = 0;
  uint32_t page_bytes_ = 0;
  // The bytes of entries a page holds on average, where its entries are
  // many enough (kGuessMinEntries) for a guess to land near; else 0.
  uint32_t guess_used_ = 0;
  // A page's mean entries, rounded, and the lines at the page's end that
  // hold its count, crc and tags for a few more than that.
  uint32_t mean_entries_ = 0;
  uint32_t tail_lines_ = 2;
  VerifiedBits verified_;
  // Without mmap, the block cache lookups keep pages in (null: none), and
  // this reader's id there.
  Cache* cache_ = nullptr;
  uint64_t cache_id_ = 0;
  mutable std::mutex index_mu_;
  mutable PageIndex page_index_;
  mutable std::atomic<const PageIndex*> index_{nullptr};
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
