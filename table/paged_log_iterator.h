// Ordered iteration over a paged file with a log tail (paged_log_layout.h):
// the pages' iterator, then the log's. Every key of the pages sorts before
// every key of the log; crossing from one to the other checks it, so a
// file that breaks it (only a hostile writer could) reads as Corruption,
// not as keys out of order.
#pragma once

#include <memory>
#include <string>

#include "table/internal_iterator.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

class PagedLayout;

class PagedLogIterator : public InternalIterator {
 public:
  // Takes `pages` and `log` (heap-allocated), the iterators of `layout`
  // (the pages' part) and of the log.
  PagedLogIterator(InternalIterator* pages, InternalIterator* log,
                   const PagedLayout* layout, const std::string& file_name);

  bool Valid() const override { return cur_->Valid() && status_.ok(); }
  void SeekToFirst() override;
  void SeekToLast() override;
  void Seek(const Slice& target) override;
  void SeekForPrev(const Slice& target) override;
  void Next() override;
  void Prev() override;
  Slice key() const override { return cur_->key(); }
  Slice user_key() const override { return cur_->user_key(); }
  Slice value() const override { return cur_->value(); }
  Status status() const override {
    return status_.ok() ? cur_->status() : status_;
  }
  void SetPinnedItersMgr(PinnedIteratorsManager* mgr) override {
    pages_->SetPinnedItersMgr(mgr);
    log_->SetPinnedItersMgr(mgr);
  }
  bool IsKeyPinned() const override { return cur_->IsKeyPinned(); }
  bool IsValuePinned() const override { return cur_->IsValuePinned(); }

 private:
  // Positions at the first entry of the log, having left the pages' end.
  void EnterLog();
  // Positions at the last entry of the pages, having left the log's
  // first entry.
  void EnterPages();
  // OK if `log_key`, the log's first key, sorts after the pages' keys.
  Status CheckBoundary(const Slice& log_key);

  std::unique_ptr<InternalIterator> pages_;
  std::unique_ptr<InternalIterator> log_;
  InternalIterator* cur_;
  const PagedLayout* const layout_;
  const std::string& file_name_;
  Status status_;  // a broken boundary's
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
