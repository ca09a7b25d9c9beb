// Ordered iteration over the log of a RobinHoodTable file. The log is a
// sorted run, so the iterator walks it block by block; Seek starts from
// the sparse index (sparse_index.h). A loaded block keeps the offsets of
// its entries, so Prev costs what Next does.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "db/pinned_iterators_manager.h"
#include "table/internal_iterator.h"
#include "table/log_entry.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

class TableView;

class RobinHoodTableIterator : public InternalIterator {
 public:
  // `readahead` > 0: read that many bytes of log at a time from the start
  // (compaction); 0: read ahead only once access turns out sequential.
  RobinHoodTableIterator(const TableView* table,
                         const ReadOptions& ro, size_t readahead = 0);

  bool Valid() const override { return valid_; }
  void SeekToFirst() override;
  void SeekToLast() override;
  void Seek(const Slice& target) override;
  void SeekForPrev(const Slice& target) override;
  void Next() override;
  void Prev() override;
  Slice key() const override { return key_; }
  Slice user_key() const override { return entry_.user_key; }
  Slice value() const override { return entry_.value; }
  Status status() const override { return status_; }

  // DBIter's backward iteration needs values that outlive the position:
  // with pinning enabled, a block's buffer goes to the manager when the
  // iterator leaves it (with mmap, values point into the mapping).
  void SetPinnedItersMgr(PinnedIteratorsManager* mgr) override {
    pinned_iters_mgr_ = mgr;
  }
  bool IsValuePinned() const override {
    return pinned_iters_mgr_ != nullptr &&
           pinned_iters_mgr_->PinningEnabled();
  }

 private:
  // Loads block `b` and the offsets of its entries; false if there is no
  // such block or it cannot be read (status_ says which).
  bool LoadBlock(size_t b);
  // Without mmap, the stored bytes of block `b` from the readahead buffer,
  // refilled when access is sequential; false: read the block alone.
  bool ReadAhead(size_t b, Slice* raw);
  // Hands `buf` to the pinning manager if values must outlive the position.
  void PinOrKeep(std::unique_ptr<std::string>* buf);
  // Decodes the entry at offsets_[index_] into entry_ and key_.
  void ParseCurrent();
  void Invalidate(const Status& s) {
    valid_ = false;
    if (!s.ok() && status_.ok()) status_ = s;
  }

  const TableView* const table_;
  const bool verify_;
  size_t block_;
  uint64_t block_address_ = 0;  // address of the block's first entry
  std::unique_ptr<std::string> buf_;
  std::unique_ptr<std::string> readahead_buf_;
  uint64_t readahead_offset_ = 0;
  const size_t readahead_bytes_;
  const bool eager_readahead_;
  size_t last_loaded_;
  int sequential_loads_ = 0;
  PinnedIteratorsManager* pinned_iters_mgr_ = nullptr;
  Slice contents_;
  std::vector<size_t> offsets_;
  size_t index_ = 0;
  LogEntry entry_;
  std::string key_;
  bool valid_ = false;
  Status status_;
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
