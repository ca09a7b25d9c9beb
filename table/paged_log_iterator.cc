#include "table/paged_log_iterator.h"

#include "db/dbformat.h"
#include "table/page_index.h"
#include "table/paged_layout.h"
#include "table/robinhood_format.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

PagedLogIterator::PagedLogIterator(InternalIterator* pages,
                                   InternalIterator* log,
                                   const PagedLayout* layout,
                                   const std::string& file_name)
    : pages_(pages),
      log_(log),
      cur_(pages),
      layout_(layout),
      file_name_(file_name) {}

Status PagedLogIterator::CheckBoundary(const Slice& log_key) {
  const PageIndex* index = nullptr;
  Status s = layout_->Index(&index);
  if (s.ok() && !index->PastLast(ExtractUserKey(log_key))) {
    s = CorruptionAt(file_name_, "log", "first key not after the pages' keys",
                     layout_->meta().index.end_with_trailer());
  }
  return s;
}

void PagedLogIterator::EnterLog() {
  cur_ = log_.get();
  log_->SeekToFirst();
  if (log_->Valid()) status_ = CheckBoundary(log_->key());
}

void PagedLogIterator::EnterPages() {
  // The log's first key, found again: crossing is rare, and keeping the
  // key on every Prev would copy it each time.
  log_->SeekToFirst();
  if (!log_->status().ok()) return;  // the log's error stays the answer
  if (log_->Valid()) status_ = CheckBoundary(log_->key());
  cur_ = pages_.get();
  pages_->SeekToLast();
}

void PagedLogIterator::SeekToFirst() {
  status_ = Status::OK();
  cur_ = pages_.get();
  pages_->SeekToFirst();
  if (!pages_->Valid() && pages_->status().ok()) EnterLog();
}

void PagedLogIterator::SeekToLast() {
  status_ = Status::OK();
  cur_ = log_.get();
  log_->SeekToLast();
  if (!log_->Valid() && log_->status().ok()) {
    cur_ = pages_.get();
    pages_->SeekToLast();
  }
}

void PagedLogIterator::Seek(const Slice& target) {
  status_ = Status::OK();
  cur_ = pages_.get();
  pages_->Seek(target);
  if (!pages_->Valid() && pages_->status().ok()) {
    cur_ = log_.get();
    log_->Seek(target);
  }
}

void PagedLogIterator::SeekForPrev(const Slice& target) {
  status_ = Status::OK();
  cur_ = log_.get();
  log_->SeekForPrev(target);
  if (!log_->Valid() && log_->status().ok()) {
    cur_ = pages_.get();
    pages_->SeekForPrev(target);
  }
}

void PagedLogIterator::Next() {
  cur_->Next();
  if (cur_ == pages_.get() && !pages_->Valid() && pages_->status().ok()) {
    EnterLog();
  }
}

void PagedLogIterator::Prev() {
  if (cur_ == pages_.get()) {
    pages_->Prev();
    return;
  }
  log_->Prev();
  if (!log_->Valid() && log_->status().ok()) EnterPages();
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
