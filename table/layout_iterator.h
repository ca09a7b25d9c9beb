// What the iterators of the three layouts (robinhood_table_iterator.h,
// inline_table_iterator.h, paged_iterator.h) share: validity, the current
// internal key, the status and its contract, and the pinning of buffers
// values point into.
//
// The status contract: each positioning call (SeekToFirst, SeekToLast,
// Seek, SeekForPrev) starts afresh, clearing the status, so an error met
// at one position does not stick to the next seek (as RocksDB's own table
// iterators behave: a read that fails may succeed elsewhere in the file).
// An error makes the iterator invalid with that status. Next and Prev
// REQUIRE Valid().
#pragma once

#include <cassert>
#include <memory>
#include <string>
#include <utility>

#include "db/dbformat.h"
#include "db/pinned_iterators_manager.h"
#include "memory/arena.h"
#include "table/cached_block.h"
#include "table/internal_iterator.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

class LayoutIterator : public InternalIterator {
 public:
  bool Valid() const override { return valid_; }
  Slice key() const override {
    assert(valid_);
    return key_;
  }
  Status status() const override { return status_; }

  // DBIter's backward iteration needs values that outlive the position:
  // with pinning enabled, a buffer the iterator leaves goes to the manager
  // (with mmap, values point into the mapping).
  void SetPinnedItersMgr(PinnedIteratorsManager* mgr) override {
    pinned_iters_mgr_ = mgr;
  }
  bool IsValuePinned() const override {
    return pinned_iters_mgr_ != nullptr &&
           pinned_iters_mgr_->PinningEnabled();
  }

 protected:
  // SeekForPrev as a Seek and at most one step back (or the last entry),
  // for iterators whose entries are one a user key.
  void SeekForPrevBySeek(const Slice& target,
                         const InternalKeyComparator& icmp) {
    Seek(target);  // which starts afresh
    if (!status_.ok()) return;
    if (!valid_) {
      SeekToLast();
    } else if (icmp.Compare(key_, target) > 0) {
      Prev();
    }
  }
  // The start of every positioning call: the status contract above.
  void StartPositioning() {
    valid_ = false;
    status_ = Status::OK();
  }
  // Invalid; with the first error `s` (if not OK) as the status.
  void Invalidate(const Status& s) {
    valid_ = false;
    if (!s.ok() && status_.ok()) status_ = s;
  }
  // Hands the cached block `*pin` holds to the pinning manager if values
  // must outlive the position, else lets it go.
  void PinOrRelease(CachedBlock* pin) {
    if (IsValuePinned() && pin->holds()) {
      pinned_iters_mgr_->PinPtr(new CachedBlock(std::move(*pin)), [](void* p) {
        delete static_cast<CachedBlock*>(p);
      });
    }
    pin->Reset();
  }
  // Hands `*buf` to the pinning manager if values must outlive the
  // position, and starts a new one.
  void PinOrKeep(std::unique_ptr<std::string>* buf) {
    if (IsValuePinned() && !(*buf)->empty()) {
      pinned_iters_mgr_->PinPtr(buf->release(), [](void* p) {
        delete static_cast<std::string*>(p);
      });
      buf->reset(new std::string);
    }
  }

  bool valid_ = false;
  Status status_;
  std::string key_;  // the current internal key
  PinnedIteratorsManager* pinned_iters_mgr_ = nullptr;
};

// A new `Iter` made of `args`: in `arena` if there is one (its owner then
// destroys it in place), else on the heap.
template <typename Iter, typename... Args>
InternalIterator* NewIteratorIn(Arena* arena, Args&&... args) {
  if (arena == nullptr) return new Iter(std::forward<Args>(args)...);
  void* mem = arena->AllocateAligned(sizeof(Iter));
  return new (mem) Iter(std::forward<Args>(args)...);
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
