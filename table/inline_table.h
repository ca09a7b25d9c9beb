// The inline layout (format version 2 on, meta block flag kInlineLayout): a
// file whose every entry is a compacted put (sequence 0, kTypeValue: the
// bottommost compaction's output, SstFileWriter's files) small enough for a
// slot has no log. The Robin Hood table's slots hold the entries themselves,
// in hash order or, where the keys allow it, in key order (format version 4,
// below), so a lookup reads one run of adjacent slots, usually one cache
// line, and nothing else.
//
// Slots section (the meta block's `index` handle): `index_slots` slots of W
// bytes each, W = 1 + [1] + key_width + [1] + value_width:
//   +------+--------+-------------------+--------+---------------------+
//   | dist | [klen] | key, zero padded  | [vlen] | value, zero padded  |
//   | 1    | 1      | key_width         | 1      | value_width         |
//   +------+--------+-------------------+--------+---------------------+
// dist 0 is an empty slot (all its bytes zero); otherwise the entry lies
// dist - 1 slots past its home (at most kInlineMaxDisplacement). The length
// bytes are there only if the file's keys (values) vary in length. In hash
// order, homes and order are the hash index's (hash_index.h): KeyHash with
// the file's seed, home = (hash * C) >> 64 for C home slots, slots in hash
// order, overflow slots after the C home slots, no wrap-around. The
// section's trailer covers every slot; readers check the slots a page at a
// time instead, with the page checksums of the directory, the first time
// they read a page.
//
// Directory section (the meta block's `block_table` handle): the slots'
// shape, page size, key order model, page checksums and order array
// (inline_directory.h).
//
// Without an order array (option inline_order_array=false, for files of at
// most kInlineMaxSortedSlots slots), a reader makes the order itself the
// first time an iterator needs it: it reads and checks every slot and sorts
// the entries by key. Key order is unique, so the samples still apply.
//
// Slots in key order: a key's home is the model's estimate of its rank
// instead of its hash, and placement is otherwise the same, so used slots
// follow one another in key order and there is no order array. Lookups
// probe as in hash order; iterators walk the slots (empty ones skipped),
// and Seek starts at the target's home: no key at or after the target lies
// before it.
//
// Sparse index section: every kInlineSampleInterval-th entry in key order
// (and the last), with its position in key order as its "address"
// (sparse_index.h). In hash order Seek binary-searches it, then the order
// array; in key order the samples serve ApproximateOffsetOf.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>

#include "rocksdb/comparator.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "table/cached_block.h"
#include "table/hash_index.h"
#include "table/key_order_model.h"
#include "table/section_reader.h"
#include "table/table_meta.h"
#include "table/verified_bits.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

constexpr uint32_t kInlineMaxDisplacement = 254;  // dist byte 255
constexpr uint32_t kInlineMaxKeyWidth = 255;
constexpr uint32_t kInlineMaxValueWidth = 255;
constexpr uint32_t kInlineSampleInterval = 64;
// Pages of about this many bytes: the unit of checksumming, like a log block.
constexpr uint32_t kInlinePageBytes = 4096;
// The most slots a file without an order array may have: readers hold its
// order as 32-bit slot numbers.
constexpr uint64_t kInlineMaxSortedSlots = 0xffffffffu;

struct InlineShape {
  // The key field's bytes: the longest key, less `elided`.
  uint32_t key_width = 0;
  uint32_t value_width = 0;
  bool var_key = false;
  bool var_value = false;
  // Bytes every key starts with that its slot leaves out (format version
  // 11, key order only): the model's prefix. A slot's key field, and its
  // length byte, hold the rest of the key.
  uint32_t elided = 0;

  uint32_t key_at() const { return 1 + (var_key ? 1 : 0); }
  uint32_t value_at() const {
    return key_at() + key_width + (var_value ? 1 : 0);
  }
  uint32_t slot_width() const { return value_at() + value_width; }
  // The key field of the used slot at `p`, as its length byte says
  // (unchecked: DecodeSlot checks it against key_width): the key without
  // its elided prefix.
  Slice KeyOf(const char* p) const {
    return Slice(p + key_at(),
                 var_key ? static_cast<uint8_t>(p[1]) : key_width);
  }
  // Writes the slot for an entry `dist` - 1 slots past its home (`key`
  // without its elided prefix).
  void EncodeSlot(uint32_t dist, const Slice& key, const Slice& value,
                  char* slot) const;
};

// Where the slots lie in the slots section: in pages, the unit of
// checksumming and of reads without mmap (docs/format.md, "Slots").
//   versions 2-4: pages of max(1, 4096 / W) slots back to back, their
//     checksums in the directory;
//   version 5 on: a page every 4096 bytes, each (4096 - 4) / W slots, zeros,
//     and in its last 4 bytes the masked CRC32C of the bytes before them; a
//     last page that is not full ends with its CRC right after its slots.
//     The section starts at offset 0 of an inline file, so every page is a
//     device page and a lookup whose run lies in one page reads one.
struct SlotPages {
  uint32_t width = 1;       // W, a slot's bytes
  uint32_t page_slots = 1;  // slots in a full page
  uint32_t stride = 1;      // bytes from one page's start to the next's
  bool crc_in_page = false;

  static SlotPages Of(const InlineShape& shape, uint32_t format_version);

  // 2^64 / page_slots rounded up (0 for one slot a page), so that a slot
  // number below 2^32 finds its page by a multiplication: every lookup
  // computes a slot's offset, and a 64-bit division takes tens of cycles.
  uint64_t page_magic = 0;

  uint64_t PageOf(uint64_t slot) const {
    if (slot >> 32 == 0 && page_magic != 0) {
      return static_cast<uint64_t>(
          (static_cast<unsigned __int128>(page_magic) * slot) >> 64);
    }
    return slot / page_slots;
  }
  uint64_t SlotOffset(uint64_t slot) const {
    const uint64_t page = PageOf(slot);
    return page * stride + (slot - page * page_slots) * width;
  }
  uint64_t PageOffset(uint64_t page) const { return page * stride; }
  uint64_t Pages(uint64_t slots) const {
    return (slots + page_slots - 1) / page_slots;
  }
  // Slots in page `page` (< Pages(slots)) of a table of `slots` slots.
  uint64_t SlotsIn(uint64_t page, uint64_t slots) const {
    return std::min<uint64_t>(page_slots, slots - page * page_slots);
  }
  // Bytes of page `page`, its checksum included where it holds one.
  uint64_t PageBytes(uint64_t page, uint64_t slots) const {
    const uint64_t n = SlotsIn(page, slots);
    if (!crc_in_page) return n * width;
    return n == page_slots ? stride : n * width + 4;
  }
  // The section's size for `slots` slots; UINT64_MAX where that would not
  // fit 64 bits (a size no file has).
  uint64_t SectionBytes(uint64_t slots) const;
};

// Bytes needed to write slot numbers below `slots`.
uint32_t OrderWidthFor(uint64_t slots);

// Reads the slots of an open inline file.
class InlineTable {
 public:
  // `file`, `meta` and `ucmp` outlive this. `directory` is the verified
  // directory section's contents (kept: without mmap the caller's buffer
  // moves here). `ucmp` orders the keys of a file without an order array.
  Status Init(const SectionReader* file, const TableMeta& meta,
              const Comparator* ucmp);
  // Without mmap: lookups given a pin keep the pages of slots they read
  // in `cache` (the table's block_cache) under `id`, as the log keeps its
  // blocks.
  void KeepPagesIn(Cache* cache, uint64_t id) {
    if (file_->mmap() || cache == nullptr) return;
    cache_ = cache;
    cache_id_ = id;
  }

  // Whether pages of slots go to a cache (KeepPagesIn).
  bool caches_pages() const { return cache_ != nullptr; }
  // Whether SlotAt answers without reading: key order, or the order array
  // (or SortSlots' order) already in memory.
  bool OrderInMemory() const {
    if (key_ordered_) return true;
    return order_width_ == 0
               ? sorted_.load(std::memory_order_acquire) != nullptr
               : order_.load(std::memory_order_acquire) != nullptr;
  }

  const InlineShape& shape() const { return shape_; }
  uint64_t num_keys() const { return num_keys_; }
  uint64_t num_slots() const { return geo_.slots; }
  uint64_t num_pages() const { return pages_; }
  const SlotPages& paging() const { return paging_; }
  const IndexGeometry& geometry() const { return geo_; }
  // Whether slots are in key order (their homes come from the model, and
  // lookups need no hash).
  bool key_ordered() const { return key_ordered_; }
  const KeyOrderModel& key_order() const { return model_; }
  // The home slot of a key whose hash is `hash`: its KeyHash, or in key
  // order its home itself (InlineLayout::HashOf).
  uint64_t Home(uint64_t hash) const {
    return key_ordered_ ? hash : HomeOf(hash, geo_.capacity);
  }

  // Finds `user_key` (whose hash is `hash`, as Home's): `*found`, and its
  // value in `*value` (in the mapping, in `*buf`, or in the cache, held by
  // `*pin`). `known_home`: what PrefetchHome returned for this key, or 0.
  // `pin`: as ReadRun's.
  Status Find(const Slice& user_key, uint64_t hash, bool verify,
              std::string* buf, Slice* value, bool* found,
              uint64_t known_home = 0, CachedBlock* pin = nullptr) const {
    *found = false;
    // A key without the file's prefix, or wider than the slots, is not
    // here.
    Slice stored;
    if (!Stored(user_key, &stored)) return Status::OK();
    return FindInSlots(stored, hash, verify, buf, value, found, known_home,
                       pin);
  }
  // What a slot holds of `user_key`: false for a key no slot can hold
  // (without the elided prefix, or longer than the key field).
  bool Stored(const Slice& user_key, Slice* stored) const {
    const uint32_t e = shape_.elided;
    if (e != 0) {
      const char* prefix = model_.prefix().data();
      if (user_key.size() < e ||
          !(e <= 8 ? EqualShort(user_key.data(), prefix, e)
                   : memcmp(user_key.data(), prefix, e) == 0)) {
        return false;
      }
    }
    *stored = Slice(user_key.data() + e, user_key.size() - e);
    return stored->size() <= shape_.key_width;
  }
  // The user key of a slot whose key field holds `stored`: `stored`
  // itself, or with an elided prefix the whole key, made in `*buf`.
  Slice UserKey(const Slice& stored, std::string* buf) const {
    if (shape_.elided == 0) return stored;
    buf->assign(model_.prefix());
    buf->append(stored.data(), stored.size());
    return Slice(*buf);
  }
  // Walks the run of slots an entry of home `home` may lie in, reading it
  // (checked as ReadRun checks): calls `candidate(p, slot)` for each used
  // slot whose entry has that home, until it returns true, and stops
  // where Robin Hood's rule (RobinHoodStep) says no such entry lies
  // further. `*read`: the slots looked at.
  template <typename Candidate>
  Status Probe(uint64_t home, bool verify, std::string* buf,
               Candidate&& candidate, uint64_t* read = nullptr,
               CachedBlock* pin = nullptr) const {
    if (home >= geo_.slots) return Damaged("home past the slots", home);
    const uint64_t count = std::min<uint64_t>(
        geo_.max_displacement + uint64_t{1}, geo_.slots - home);
    // A page at a time, home's first: most runs end in it, so a lookup
    // without mmap reads one page.
    uint64_t d = 0;
    uint64_t piece_end = std::min<uint64_t>(
        count, paging_.page_slots -
                   (home - paging_.PageOf(home) * paging_.page_slots));
    for (;;) {
      Slice run;
      if (!MappedRun(home + d, piece_end - d, verify, &run)) {
        Status s = ReadRun(home + d, piece_end - d, verify, buf, &run, pin);
        if (!s.ok()) return s;
      }
      const char* p = run.data();
      bool done = false;
      for (; d < piece_end; ++d, p += width_) {
        const uint32_t dist = static_cast<uint8_t>(p[0]);
        const RunStep step =
            dist == 0 ? RunStep::kStop : RobinHoodStep(dist - 1, d);
        if (step == RunStep::kStop ||
            (step == RunStep::kCandidate && candidate(p, home + d))) {
          done = true;
          break;
        }
      }
      if (done || d == count) break;
      piece_end = std::min<uint64_t>(count, d + paging_.page_slots);
    }
    if (read != nullptr) *read = std::min(d + 1, count);
    return Status::OK();
  }
  // With mmap: brings the first cache line of the key's home run in, and
  // returns its home plus one (0 where it computed none), for Find.
  uint64_t PrefetchHome(const Slice& user_key, uint64_t hash) const {
    // Without mmap a lookup reads the run into a buffer; a key no slot
    // can hold is answered without reading them (Find).
    Slice stored;
    if (!file_->mmap() || !Stored(user_key, &stored)) return 0;
    const uint64_t home = Home(hash);
    if (home >= geo_.slots) return 0;
    // The home's line only. Hosts prepare a batch of 50 keys before the
    // first Get (RocksDB's compacted DB), and a second line each keeps
    // more misses in flight than the core tracks: measured on 10M keys,
    // the prefetches then stall, and the batch ran 1.4x slower than with
    // one.
    __builtin_prefetch(file_->mapping().data() + slots_offset_ +
                       paging_.SlotOffset(home));
    return home + 1;
  }
  // Where in the file the first slot of `user_key`'s run lies (`known_home`
  // as Find's): false for a key no slot can hold. A lookup without mmap
  // reads that slot's page first.
  bool HomeInFile(const Slice& user_key, uint64_t hash, uint64_t known_home,
                  uint64_t* offset, size_t* n) const;
  // With mmap: brings slot `slot` in (nothing for one out of range).
  void PrefetchSlot(uint64_t slot) const;
  // With mmap and an order array: brings the slot of the entry at
  // `position` in key order in. Reads nothing else, checks nothing, and
  // does nothing for a position or slot out of range.
  void PrefetchPosition(uint64_t position) const;

  bool has_order_array() const { return order_width_ != 0; }
  // The slot of the entry at `position` in key order; Corruption if the
  // order array names a slot that does not exist. In a file without an
  // order array, the first call makes the order (SortSlots).
  Status SlotAt(uint64_t position, uint64_t* slot) const;
  // Makes `*run` slots [first, first + count) (checked to exist), back to
  // back: in place with mmap where they lie in one page, else read or
  // gathered into `*buf` (REQUIRES: `buf` unless count is 1). Checks the
  // pages they lie in as the log checks blocks: once per page with mmap, on
  // every read that asks without (a verified read reads whole pages).
  // Given `pin`, a verified run in one page comes through the cache of
  // KeepPagesIn, if there is one, as the pin's use says
  // (CachedBlock::Fetch); `*pin` then holds the page while `*run` is in
  // use. A read the use forbids: NeedsRead. Reads from the file are made
  // as the pin's use says, or `use` without a pin.
  Status ReadRun(uint64_t first, uint64_t count, bool verify,
                 std::string* buf, Slice* run, CachedBlock* pin = nullptr,
                 const ReadUse& use = kNoReadUse) const;
  // Without mmap, for scans: makes `*run` pages [first, first + count) as
  // they lie in the file (checksums and padding included), read into
  // `*buf` as `use` says and each checked if `verify`. Slot s of page p
  // lies at PageOffset(p) - PageOffset(first) + s % page_slots * width.
  Status ReadPages(uint64_t first, uint64_t count, bool verify,
                   std::string* buf, Slice* run, const ReadUse& use) const;
  // Page `page` from the cache of KeepPagesIn, pinned by `*pin`, if the
  // cache holds it (verified, as lookups leave their pages there).
  bool LookupPage(uint64_t page, CachedBlock* pin, Slice* contents) const;
  // Leaves the verified pages of `run` (ReadPages(first, count)) in the
  // cache of KeepPagesIn, for lookups and scans after.
  void KeepPages(uint64_t first, uint64_t count, const Slice& run) const;
  // Decodes the used slot at `p` (slot number `slot`, for errors): `*key`
  // is its key field (UserKey gives the whole key).
  Status DecodeSlot(const char* p, uint64_t slot, Slice* key,
                    Slice* value) const;
  // Checks every page's checksum, reading them all.
  Status VerifyAll(const ReadUse& use, std::string* buf) const;

  Status Damaged(const std::string& detail, uint64_t slot) const;
  size_t MemoryUsage() const {
    return directory_buf_.capacity() + verified_.MemoryUsage() +
           model_.MemoryUsage() +
           (sorted_.load(std::memory_order_acquire) ? num_keys_ * 4 : 0) +
           (order_.load(std::memory_order_acquire) != nullptr
                ? order_buf_.capacity()
                : 0);
  }

 private:
  // Find's search of the slots, for a key's stored part (Stored).
  Status FindInSlots(const Slice& stored, uint64_t hash, bool verify,
                     std::string* buf, Slice* value, bool* found,
                     uint64_t known_home, CachedBlock* pin) const;
  // Checks page `page`, whose PageBytes lie at `bytes`.
  Status VerifyPage(uint64_t page, const char* bytes) const;
  // The order array, read and checked (with the whole directory) on the
  // first call: opening reads only the directory's head.
  Status LoadOrder(const char** order) const;
  // The value of the used slot at `p`: false, with `*value` untouched,
  // where its length byte says more than the slot holds.
  bool ValueOf(const char* p, Slice* value) const {
    const uint32_t vlen = shape_.var_value
                              ? static_cast<uint8_t>(p[shape_.value_at() - 1])
                              : shape_.value_width;
    if (vlen > shape_.value_width) return false;
    *value = Slice(p + shape_.value_at(), vlen);
    return true;
  }
  // Whether the used slot at `p` holds `stored` (a key without its elided
  // prefix, no wider than the key field).
  bool HoldsKey(const char* p, const Slice& stored) const {
    const char* k = p + shape_.key_at();
    if (shape_.var_key) {
      return static_cast<uint8_t>(p[1]) == stored.size() &&
             memcmp(k, stored.data(), stored.size()) == 0;
    }
    if (stored.size() != shape_.key_width) return false;
    if (shape_.key_width <= 8) return EqualShort(k, stored.data(), stored.size());
    return memcmp(k, stored.data(), shape_.key_width) == 0;
  }
  // Whether `n` (<= 8) bytes at `a` and `b` are equal: the common short
  // key (8 bytes, or what an elided prefix leaves of it) in one or two
  // compares of overlapping words, not a call to memcmp.
  static bool EqualShort(const char* a, const char* b, size_t n) {
    if (n >= 4) return EqualEnds<uint32_t>(a, b, n);
    if (n >= 2) return EqualEnds<uint16_t>(a, b, n);
    return n == 0 || a[0] == b[0];
  }
  // Whether the first and the last sizeof(W) of `n` (sizeof(W) to
  // 2 sizeof(W)) bytes at `a` and `b` are equal: all of them.
  template <typename W>
  static bool EqualEnds(const char* a, const char* b, size_t n) {
    W a0, b0, a1, b1;
    memcpy(&a0, a, sizeof(W));
    memcpy(&b0, b, sizeof(W));
    memcpy(&a1, a + n - sizeof(W), sizeof(W));
    memcpy(&b1, b + n - sizeof(W), sizeof(W));
    return ((a0 ^ b0) | (a1 ^ b1)) == 0;
  }
  // ReadRun's common case, inline for Find: with mmap, a run (in range)
  // that lies in one page already checked, or with no check asked for.
  // False where ReadRun must do the work.
  bool MappedRun(uint64_t first, uint64_t count, bool verify,
                 Slice* run) const {
    if (!file_->mmap()) return false;
    const uint64_t page = paging_.PageOf(first);
    const uint64_t in_page = first - page * paging_.page_slots;
    // The run's last page is its first when the run ends within that page.
    const bool one_page = in_page + count <= paging_.page_slots;
    if (verify ? !one_page || !verified_.Test(page)
               : paging_.crc_in_page && !one_page) {
      return false;  // unchecked, or across a page's end: ReadRun's work
    }
    *run = Slice(file_->mapping().data() + slots_offset_ +
                     paging_.PageOffset(page) + in_page * width_,
                 count * width_);
    return true;
  }
  // The order array's entry `position` of `order` (REQUIRES: position <
  // num_keys_), unchecked against the slot count.
  uint64_t OrderEntry(const char* order, uint64_t position) const;
  // Reads and checks every slot and sorts the entries by key into sorted_,
  // once, for a file without an order array.
  Status SortSlots() const;
  Status SortSlotsLocked() const;  // REQUIRES: sort_mu_ held

  const SectionReader* file_ = nullptr;
  uint64_t slots_offset_ = 0;  // in the file
  SectionHandle directory_;
  uint64_t order_at_ = 0;  // the order array's offset in the directory
  IndexGeometry geo_;
  InlineShape shape_;
  SlotPages paging_;
  uint32_t width_ = 0;
  uint64_t pages_ = 0;
  uint32_t order_width_ = 0;
  uint64_t num_keys_ = 0;
  bool key_ordered_ = false;
  KeyOrderModel model_;
  std::string directory_buf_;
  const char* crcs_ = nullptr;  // versions 2-4: the directory's page CRCs
  VerifiedBits verified_;  // a bit per page
  // Without mmap, the block cache pages of slots go to (null: none), and
  // this table's id there.
  Cache* cache_ = nullptr;
  uint64_t cache_id_ = 0;
  const Comparator* ucmp_ = nullptr;
  // The order array (LoadOrder) and the order made by SortSlots: each
  // published once, read without the lock.
  mutable std::mutex sort_mu_;
  mutable std::string order_buf_;
  mutable std::atomic<const char*> order_{nullptr};
  mutable std::unique_ptr<uint32_t[]> sorted_owner_;
  // What SortSlots found damaged, if it did (under sort_mu_).
  mutable std::unique_ptr<CorruptionRecord> sort_damage_;
  mutable std::atomic<const uint32_t*> sorted_{nullptr};
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
