// Ordered iteration over a paged file (paged_layout.h): a position is a
// page and an entry in it. Seek asks the page index for the target's page,
// then binary-searches the page's entries; Next and Prev step through the
// page and on to the next or previous one.
//
// With mmap, keys and values point into the mapping. Without, the iterator
// holds the run of pages it last read (scan_runs.h);
// with pinning enabled, a run it leaves goes to the pinning manager. A
// scan (not a compaction) takes a page the block cache holds from there,
// and one that may fill it (ReadOptions::fill_cache) leaves the pages it
// reads there for lookups (PagedLayout::KeepPages), as a scan of
// BlockBasedTable does with its blocks; one that may not read
// (kBlockCacheTier) stops at a page the cache lacks, NeedsRead.
#pragma once

#include <memory>
#include <string>

#include "db/dbformat.h"
#include "table/entry_page.h"
#include "table/layout_iterator.h"
#include "table/scan_runs.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

class PagedLayout;
class TableView;

class PagedIterator : public LayoutIterator {
 public:
  PagedIterator(const PagedLayout* layout, bool compaction,
                const ScanAhead& ahead, const ReadUse& use);

  void SeekToFirst() override;
  void SeekToLast() override;
  void Seek(const Slice& target) override;
  void SeekForPrev(const Slice& target) override;
  void Next() override;
  void Prev() override;
  Slice user_key() const override { return user_key_; }
  Slice value() const override { return value_; }

 private:
  // Makes `page` the current page, reading the run of pages from it on
  // (`forward`) or up to it; false, invalid with the error, if that fails.
  bool LoadPage(uint64_t page, bool forward);
  // Positions at entry `i` of the current page.
  void Settle(uint32_t i);

  const PagedLayout* const layout_;
  const TableView* const view_;
  ScanRuns runs_;             // pages a read takes without mmap
  const Slice* const upper_;  // the scan's upper bound, if any
  bool valid_page_ = false;   // page_no_ was loaded
  const uint64_t packed_;     // sequence and type every entry surfaces with
  const bool through_cache_;  // not a compaction
  const ReadUse use_;
  std::unique_ptr<std::string> buf_;
  CachedBlock pin_;  // holds run_, a page from the cache, if it is one
  Slice run_;
  uint64_t run_first_ = 0;
  uint64_t run_count_ = 0;
  EntryPage page_;
  uint64_t page_no_ = 0;
  uint32_t entry_ = 0;
  Slice user_key_;
  Slice value_;
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
