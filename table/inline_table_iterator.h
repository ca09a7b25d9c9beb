// Ordered iteration over an inline file (inline_table.h): the order array
// lists the slots in key order, so a position is an index into it and Next
// and Prev are one slot read each. Seek binary-searches the samples of the
// sparse index, then the order array between two samples (a few slots).
// Where the slots are in key order, a position is a slot number instead:
// Next and Prev step to the next used slot, and Seek starts at the
// target's home.
//
// With mmap, keys and values point into the mapping. Without, the iterator
// holds the run of pages it last read (scan_runs.h; a compaction of a file
// in hash order, which reads the slots in key order, all of them, read
// once); with pinning enabled, a run it leaves goes to the pinning
// manager, as the log iterator's blocks do. A scan (not a compaction)
// takes a page the block cache holds from there, and one that may fill it
// leaves the pages it reads there, as lookups do (InlineTable::KeepPagesIn).
#pragma once

#include <memory>
#include <string>

#include "db/dbformat.h"
#include "table/cached_block.h"
#include "table/layout_iterator.h"
#include "table/scan_runs.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

class TableView;
class InlineLayout;
class InlineTable;

class InlineTableIterator : public LayoutIterator {
 public:
  // `whole_file`: a compaction's, which reads every slot once. Reads
  // without mmap are made as `use` says, ahead as `ahead` says.
  InlineTableIterator(const TableView* table, const InlineLayout* layout,
                      bool whole_file, const ScanAhead& ahead,
                      const ReadUse& use);

  void SeekToFirst() override;
  void SeekToLast() override;
  void Seek(const Slice& target) override;
  void SeekForPrev(const Slice& target) override;
  void Next() override;
  void Prev() override;
  Slice user_key() const override { return user_key_; }
  Slice value() const override { return value_; }

 private:
  // How many entries past the current one a scan keeps in flight, and how
  // many levels of Seek's binary search ahead of the current one.
  static constexpr uint64_t kScanAhead = 8;
  static constexpr int kSearchAhead = 2;
  // In hash order without mmap a scan reads a page an entry; past this
  // many pages it reads the slots whole, if they take at most
  // kMaxWholeScanBytes, and a longer scan than that reads pages to its end.
  static constexpr uint64_t kPageReadsBeforeWhole = 64;
  static constexpr uint64_t kMaxWholeScanBytes = 64 << 20;
  // Asks for the slot of entry `position` of the key order, where it is
  // in memory (the mapping, or the run read) and finding it reads nothing.
  void PrefetchPosition(uint64_t position) const;
  // Prefetches the midpoints of [lo, hi) and its halves, `levels` deep.
  void PrefetchMidpoints(uint64_t lo, uint64_t hi, int levels) const;
  // True, invalid with NeedsRead, where a scan that may not read would
  // have to read the order array.
  bool MayNotLoad();
  // Positions at entry `position` of the key order; invalid past the end.
  void Load(uint64_t position);
  // Key-ordered slots: positions at the first used slot from `slot` on
  // (`forward`) or back; invalid if there is none.
  void LoadUsed(uint64_t slot, bool forward);
  // Reads entry `position` into `*user_key`/`*value` (pointing into the
  // mapping or into buf_), without moving.
  Status Read(uint64_t position, Slice* user_key, Slice* value);
  // Points `*p` at slot `slot`'s bytes (in the mapping or in run_).
  Status ReadSlot(uint64_t slot, const char** p);
  // Without mmap: makes run_ a run of pages that holds `page`, from the
  // cache or read from it on (`forward`) or up to it.
  Status LoadRun(uint64_t page, bool forward);
  // One past the last page a forward scan from page `from` needs below its
  // upper bound (key order; all pages without a bound): at least from + 1.
  uint64_t PagesBelowBound(uint64_t from) const;
  // Makes the current entry's internal key from user_key_ (a slot's key
  // field until then).
  void Settle(uint64_t position) {
    position_ = position;
    MakeKey(user_key_, &key_);
    user_key_ = Slice(key_.data(), key_.size() - 8);
    valid_ = true;
  }
  // The internal key of the entry whose slot's key field is `stored`: its
  // elided prefix and `stored`, sequence 0 (or the file's global one),
  // kTypeValue.
  void MakeKey(const Slice& stored, std::string* out) const;

  const TableView* const table_;
  const InlineLayout* const layout_;
  const InlineTable& slots_;
  const bool verify_;
  const bool whole_file_;
  const ReadUse use_;
  const bool key_ordered_;  // positions are slot numbers
  const uint64_t packed_;  // sequence and type every entry surfaces with
  uint64_t position_ = 0;
  // Without mmap: pages [run_first_, run_first_ + run_count_) are run_,
  // in buf_ or (one page) pinned in the cache by pin_; page_ is the page
  // of the last slot read.
  ScanRuns runs_;
  const Slice* const upper_;  // the scan's upper bound, if any
  std::unique_ptr<std::string> buf_;
  CachedBlock pin_;
  Slice run_;
  uint64_t run_first_ = 0;
  uint64_t run_count_ = 0;
  uint64_t page_ = 0;
  bool valid_page_ = false;
  uint64_t page_reads_ = 0;
  bool whole_failed_ = false;  // reads page by page from then on
  Slice user_key_;
  Slice value_;
  std::string probe_key_;  // Seek's scratch
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
