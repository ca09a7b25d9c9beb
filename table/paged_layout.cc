#include "table/paged_layout.h"

#include <algorithm>
#include <cmath>

#include "table/entry_page.h"
#include "table/paged_iterator.h"
#include "table/scratch_buffer.h"
#include "table/table_view.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

Status PagedLayout::Open(const TableView* view, const TableMeta& meta) {
  view_ = view;
  meta_ = meta;
  // The meta block's checks (table_meta.h) bound the page count by the
  // file; nothing else is read until a lookup needs it.
  pages_ = meta_.index_slots;
  page_bytes_ = meta_.page_bytes();
  verified_.Reset(pages_);
  // With mmap a page is read in place; without, a cached page saves a
  // lookup its read and checksum.
  if (!view->mmap() && view->block_cache() != nullptr) {
    cache_ = view->block_cache();
    cache_id_ = view->block_cache_id();
  }
  SetSamples(view, 0);
  // The meta block's checks bound the entries by the pages (at least one
  // and at most EntryPageMaxEntries a page). Each entry costs its tail
  // bytes, and a page's last entry leaves on average half an entry empty.
  const double per_page = static_cast<double>(meta_.num_entries) /
                          static_cast<double>(std::max<uint64_t>(pages_, 1));
  // Pages of short entries hold hundreds, whose tags span several lines
  // and whose offsets lie further on: a lookup asks for the tags' lines
  // at once (and for its entry's offset with the guess), not the last
  // line's neighbours one miss after another.
  const uint32_t most = EntryPageMaxEntries(page_bytes_);
  mean_entries_ = static_cast<uint32_t>(
      std::min<double>(std::lround(per_page), most));
  const uint32_t tags_start = page_bytes_ - kEntryPageFixedTail -
                              std::min(mean_entries_ + 8, most);
  tail_lines_ = std::min<uint32_t>(
      kMaxTailLines, std::max<uint32_t>(2, page_bytes_ / 64 - tags_start / 64));
  guess_used_ = 0;
  if (per_page >= kGuessMinEntries) {
    const double room = page_bytes_ - kEntryPageFixedTail -
                        kEntryPageTailPerEntry * per_page;
    guess_used_ = static_cast<uint32_t>(
        std::max(0.0, room * per_page / (per_page + 0.5)));
  }
  return Status::OK();
}

uint64_t PagedLayout::HashOf(const Slice& user_key) const {
  return view_->Hash(user_key);
}

Status PagedLayout::LoadIndex(const PageIndex** index) const {
  std::lock_guard<std::mutex> lock(index_mu_);
  *index = index_.load(std::memory_order_acquire);
  if (*index != nullptr) return Status::OK();
  const SectionHandle& h = meta_.block_table;
  std::string buf;
  Slice contents;
  Status s = view_->file().ReadSection(h, kDirectoryPart, &buf, &contents);
  if (s.ok()) {
    s = page_index_.Init(std::move(buf), contents, pages_,
                         view_->file_name(), h.offset);
  }
  if (!s.ok()) return s;
  index_.store(&page_index_, std::memory_order_release);
  *index = &page_index_;
  return Status::OK();
}

Status PagedLayout::Damaged(uint64_t page, const std::string& what) const {
  return CorruptionAt(view_->file_name(), kIndexPart,
                      "page " + std::to_string(page) + ": " + what,
                      page * page_bytes_);
}

Status PagedLayout::ReadPages(uint64_t first, uint64_t count,
                              std::string* buf, Slice* run,
                              const ReadUse& use) const {
  if (first >= pages_ || count > pages_ - first) {
    return Damaged(first, "out of range");
  }
  const bool mmap = view_->mmap();
  if (mmap) {
    if (!view_->file().MappedRange(first * page_bytes_, count * page_bytes_,
                                   run)) {
      return Damaged(first, "past the end of the file");
    }
  } else {
    Status s = view_->file().ReadRange(first * page_bytes_,
                                       count * page_bytes_, buf, run, use);
    if (!s.ok()) return s;
  }
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t page = first + i;
    if (mmap && verified_.Test(page)) continue;
    if (!EntryPage::CrcMatches(run->data() + i * page_bytes_, page_bytes_)) {
      return Damaged(page, "checksum mismatch");
    }
    if (mmap) verified_.Set(page);
  }
  return Status::OK();
}

void PagedLayout::KeepPages(uint64_t first, uint64_t count,
                            const Slice& run) const {
  if (cache_ == nullptr) return;
  for (uint64_t i = 0; i < count; ++i) {
    CachedBlock::Keep(cache_, cache_id_, first + i,
                      Slice(run.data() + i * page_bytes_, page_bytes_));
  }
}

const char* PagedLayout::MappedPageOf(const Slice& user_key,
                                      Hint* hint) const {
  // A prefetch never reads: only with mmap, once the index is in.
  if (!view_->mmap()) return nullptr;
  uint64_t page = 0;
  if (*hint != kNoHint) {
    page = HintPage(*hint);
  } else {
    const PageIndex* index = index_.load(std::memory_order_acquire);
    uint32_t offset = kNoGuess;
    if (index == nullptr ||
        !FindPage(*index, user_key, &page, &offset)) {
      return nullptr;
    }
    *hint = MakeHint(page, offset);
  }
  return view_->file().mapping().data() + page * page_bytes_;
}

void PagedLayout::PrefetchTail(const char* page) const {
  // crc, n and the tags in the last lines, offsets before them.
  for (uint32_t l = 1; l <= tail_lines_; ++l) {
    __builtin_prefetch(page + page_bytes_ - 64 * l);
  }
}

void PagedLayout::PrefetchAround(const char* page, uint32_t offset) const {
  if (offset == kNoGuess) return;
  // The entry's guessed line and its neighbours (not the tail's lines).
  const uint32_t lines = page_bytes_ / 64 - 2;
  const uint32_t line = std::min(offset / 64, lines - 1);
  const uint32_t first = line > kGuessLines ? line - kGuessLines : 0;
  const uint32_t last = std::min(line + kGuessLines, lines - 1);
  for (const char* at = page + 64 * first, *end = page + 64 * (last + 1);
       at < end; at += 64) {
    __builtin_prefetch(at);
  }
  // Its offset in the tail: entry i's at the offsets' start plus 2i, i the
  // guess's share of the page's entries.
  if (guess_used_ == 0) return;
  const uint64_t i = uint64_t{offset} * mean_entries_ / guess_used_;
  const uint64_t at = page_bytes_ - kEntryPageFixedTail -
                      uint64_t{kEntryPageTailPerEntry} * mean_entries_ + 2 * i;
  if (at < page_bytes_) __builtin_prefetch(page + at);
}

Layout::Hint PagedLayout::PrefetchHome(const Slice& user_key,
                                       uint64_t hash) const {
  const Hint hint = FindHome(user_key, hash);
  PrefetchFoundHome(hint);
  return hint;
}

Layout::Hint PagedLayout::FindHome(const Slice& user_key,
                                   uint64_t /*hash*/) const {
  Hint hint = kNoHint;
  MappedPageOf(user_key, &hint);
  return hint;
}

void PagedLayout::PrefetchFoundHome(Hint hint) const {
  if (hint == kNoHint || !view_->mmap()) return;
  PrefetchTail(view_->file().mapping().data() + HintPage(hint) * page_bytes_);
}

void PagedLayout::PrefetchEntry(Hint hint) const {
  if (hint == kNoHint || !view_->mmap()) return;
  PrefetchAround(view_->file().mapping().data() + HintPage(hint) * page_bytes_,
                 HintOffset(hint));
}

bool PagedLayout::HomeInFile(const Slice& user_key, uint64_t /*hash*/,
                             Hint hint, uint64_t* offset, size_t* n) const {
  uint64_t page = 0;
  if (hint != kNoHint) {
    page = HintPage(hint);
  } else {
    // A mapped file's PrefetchHome searched already: no hint, no page.
    // Without mmap only an index loaded at open is searched: this reads
    // nothing.
    const PageIndex* index = index_.load(std::memory_order_acquire);
    uint32_t guess = kNoGuess;
    if (view_->mmap() || index == nullptr ||
        !FindPage(*index, user_key, &page, &guess)) {
      return false;
    }
  }
  if (page >= pages_) return false;
  *offset = page * page_bytes_;
  *n = page_bytes_;
  return true;
}

bool PagedLayout::FindPage(const PageIndex& index, const Slice& user_key,
                           uint64_t* page, uint32_t* offset) const {
  // The share costs a division: only where a guess is made of it.
  uint32_t share = 0;
  if (!index.Find(user_key, page, guess_used_ != 0 ? &share : nullptr)) {
    return false;
  }
  *offset = guess_used_ == 0
                ? kNoGuess
                : static_cast<uint32_t>((uint64_t{share} * guess_used_) >> 16);
  return true;
}

bool PagedLayout::GuessEntry(const Slice& user_key, uint64_t* page,
                             uint32_t* offset) const {
  const PageIndex* index = index_.load(std::memory_order_acquire);
  return index != nullptr && FindPage(*index, user_key, page, offset) &&
         *offset != kNoGuess;
}

void PagedLayout::PrefetchAfterHome(const Slice& user_key, uint64_t hash,
                                    Hint hint) const {
  const char* page = MappedPageOf(user_key, &hint);
  if (page == nullptr) return;
  // Unchecked bytes: the page is checked when the lookup reads it; a hint
  // that lands anywhere in the page costs nothing but the hint.
  EntryPage p;
  if (!p.Parse(page, page_bytes_)) return;
  const uint32_t i = p.FindTag(EntryPageTag(hash), 0);
  if (i < p.size()) __builtin_prefetch(page + p.OffsetOf(i) % page_bytes_);
}

Status PagedLayout::Find(const Slice& user_key, uint64_t hash,
                         std::string* buf, Slice* value, bool* found,
                         Hint hint, CachedBlock* pin) const {
  *found = false;
  // A lookup that may not read finds only what memory holds: a mapped
  // file, the index once loaded, pages in the cache.
  const bool may_read =
      pin == nullptr || !pin->use().no_io || view_->mmap();
  uint64_t page = 0;
  if (hint != kNoHint) {
    // PrefetchHome searched the index for this key (ReadPages checks the
    // page is in the file).
    page = HintPage(hint);
  } else {
    if (!may_read && !IndexLoaded()) return CachedBlock::NeedsRead();
    const PageIndex* index = nullptr;
    Status s = Index(&index);
    if (!s.ok()) return s;
    uint32_t offset = kNoGuess;
    if (!FindPage(*index, user_key, &page, &offset)) return Status::OK();
    // A lookup without a hint runs alone (no prefetch ran for it): the
    // tail's lines and the entry's guessed ones at once, not one after
    // the other. The index found the page in the file.
    if (view_->mmap()) {
      const char* at = view_->file().mapping().data() + page * page_bytes_;
      PrefetchTail(at);
      PrefetchAround(at, offset);
    }
  }
  Slice run;
  auto read = [&](Slice* pages) {
    return ReadPages(page, 1, buf, pages,
                     pin != nullptr ? pin->use() : kNoReadUse);
  };
  Status s = pin != nullptr && cache_ != nullptr
                 ? pin->Fetch(cache_, cache_id_, page, page_bytes_,
                              /*from_file=*/true, read, &run)
                 : may_read ? read(&run)
                            : CachedBlock::NeedsRead();
  if (!s.ok()) return s;
  EntryPage p;
  if (!p.Parse(run.data(), page_bytes_)) return Damaged(page, "bad entry count");
  const uint8_t tag = EntryPageTag(hash);
  for (uint32_t i = p.FindTag(tag, 0); i < p.size();
       i = p.FindTag(tag, i + 1)) {
    Slice key;
    if (!p.Entry(i, &key, value)) {
      return Damaged(page, "entry " + std::to_string(i) + " runs past its room");
    }
    if (key == user_key) {
      *found = true;
      return Status::OK();
    }
  }
  return Status::OK();
}

Status PagedLayout::Get(const ParsedInternalKey& target, uint64_t hash,
                        Hint hint, const ReadUse& use,
                        GetContext* get_context) const {
  // Read in place with mmap; into the buffer, or the cache, without.
  ScratchBuffer buf(!view_->mmap());
  CachedBlock pin(use);
  Slice value;
  bool found = false;
  // One named result for every path (SaveCompactedPut's reason).
  Status s =
      Find(target.user_key, hash, buf.get(), &value, &found, hint, &pin);
  if (s.ok() && found) SaveCompactedPut(*view_, target, value, get_context, &s);
  return s;
}

InternalIterator* PagedLayout::NewIterator(Arena* arena, bool compaction,
                                           const ReadUse& use,
                                           const ScanAhead& ahead) const {
  return NewIteratorIn<PagedIterator>(arena, this, compaction, ahead, use);
}

bool PagedLayout::LookupPage(uint64_t page, CachedBlock* pin,
                             Slice* contents) const {
  return cache_ != nullptr &&
         pin->Lookup(cache_, cache_id_, page, page_bytes_, contents);
}

uint64_t PagedLayout::PagesBelow(const Slice& user_key, uint64_t from) const {
  const PageIndex* index = index_.load(std::memory_order_acquire);
  if (index == nullptr) return pages_;
  const uint64_t last = std::min(index->SeekPage(user_key), pages_ - 1);
  return std::max(last, from) + 1;
}

uint64_t PagedLayout::OffsetOf(const Slice& key) const {
  const PageIndex* index = nullptr;
  // An unreadable index gives no estimate; reads of it say why.
  if (!Index(&index).ok()) return 0;
  const uint64_t page = index->SeekPage(ExtractUserKey(key));
  if (page >= pages_) return meta_.index.end_with_trailer();
  return page * page_bytes_;
}

Status PagedLayout::AnchorKeys(size_t max,
                               std::vector<std::string>* keys) const {
  const PageIndex* index = nullptr;
  Status s = Index(&index);
  if (!s.ok()) return s;
  const uint64_t step =
      (index->pages() + max) / std::max<size_t>(1, max);  // at most max
  for (uint64_t i = step; i < index->pages(); i += step) {
    keys->push_back(index->Separator(i));
  }
  return Status::OK();
}

Status PagedLayout::VerifyEntries(const ReadUse& use, std::string* buf) const {
  const PageIndex* index = nullptr;
  Status s = Index(&index);
  if (!s.ok()) return s;
  const TableView& view = *view_;
  // Read in runs, so a file is read at the disk's pace.
  constexpr uint64_t kRun = 256;
  uint64_t entries = 0;
  std::string prev_last;
  for (uint64_t first = 0; first < pages_; first += kRun) {
    const uint64_t count = std::min(kRun, pages_ - first);
    Slice run;
    s = ReadPages(first, count, buf, &run, use);
    if (!s.ok()) return s;
    for (uint64_t i = 0; i < count; ++i) {
      const uint64_t page = first + i;
      EntryPage p;
      if (!p.Parse(run.data() + i * page_bytes_, page_bytes_)) {
        return Damaged(page, "bad entry count");
      }
      const char* why = nullptr;
      if (!p.CheckAll(view.hash_function(), meta_.hash_seed, &why)) {
        return Damaged(page, why);
      }
      Slice first_key, last_key;
      p.Key(0, &first_key);
      p.Key(p.size() - 1, &last_key);
      if (page > 0 && Slice(prev_last).compare(first_key) >= 0) {
        return Damaged(page, "keys out of order with the page before");
      }
      uint64_t found = 0, found_last = 0;
      if (!index->Find(first_key, &found) || found != page ||
          !index->Find(last_key, &found_last) || found_last != page) {
        return CorruptionAt(view.file_name(), kDirectoryPart,
                            "does not find page " + std::to_string(page),
                            meta_.block_table.offset);
      }
      prev_last.assign(last_key.data(), last_key.size());
      entries += p.size();
    }
  }
  if (entries != meta_.num_entries) {
    return CorruptionAt(view.file_name(), kIndexPart,
                        "entries differ from the meta block's", 0);
  }
  return Status::OK();
}

size_t PagedLayout::MemoryUsage() const {
  const PageIndex* index = index_.load(std::memory_order_acquire);
  // With mmap the index's bytes are the mapping's; its radix table is ours.
  return sizeof(*this) + verified_.MemoryUsage() +
         (index != nullptr ? index->MemoryUsage() : 0) + SamplesMemoryUsage();
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
