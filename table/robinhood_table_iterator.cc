#include "table/robinhood_table_iterator.h"

#include <algorithm>

#include "table/log_layout.h"
#include "table/robinhood_format.h"
#include "table/table_view.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

namespace {
constexpr size_t kNoBlock = ~size_t{0};
// A scan that turns out sequential reads ahead 8 KiB, then twice as much
// each time, up to 256 KiB, as BlockBasedTable's iterators do: a short
// scan from disk (or under a rate limiter) reads a few blocks, not 256 KiB.
constexpr size_t kFirstAutoReadahead = 8 << 10;
constexpr size_t kAutoReadahead = 256 << 10;
constexpr int kLoadsBeforeReadahead = 2;
}  // namespace

RobinHoodTableIterator::RobinHoodTableIterator(const TableView* table,
                                               const LogLayout* log,
                                               const ScanAhead& ahead,
                                               bool through_cache,
                                               const ReadUse& use)
    : table_(table),
      log_(log),
      verify_(kVerifyReads),
      block_(kNoBlock),
      buf_(new std::string),
      through_cache_(through_cache),
      use_(use),
      readahead_buf_(new std::string),
      readahead_bytes_(ahead.bytes > 0 ? ahead.bytes : kFirstAutoReadahead),
      eager_readahead_(ahead.bytes > 0),
      upper_(ahead.upper),
      last_loaded_(kNoBlock) {}

uint64_t RobinHoodTableIterator::ReadAheadEnd() {
  const uint64_t log_end = log_->meta().log_end();
  if (upper_ == nullptr || !log_->SamplesLoaded()) return log_end;
  const SparseIndex* samples = nullptr;
  if (!log_->Samples(&samples).ok()) return log_end;
  // Every entry below the bound lies before the first sample at or past
  // it (the bound's key at the highest sequence sorts before its entries).
  upper_key_.assign(upper_->data(), upper_->size());
  PutFixed64(&upper_key_,
             PackSequenceAndType(kMaxSequenceNumber, kValueTypeForSeek));
  const uint64_t limit = samples->LimitAddress(upper_key_);
  if (limit >= log_->blocks().logical_bytes()) return log_end;
  const BlockLocation loc = log_->blocks().Get(log_->blocks().Find(limit));
  return std::min(log_end, loc.file_offset + loc.contents_bytes + kTrailerSize);
}

bool RobinHoodTableIterator::ReadAhead(size_t b, Slice* raw) {
  const BlockLocation loc = log_->blocks().Get(b);
  const uint64_t start = loc.file_offset;
  const uint64_t bytes = loc.contents_bytes + kTrailerSize;
  const bool sequential = last_loaded_ != kNoBlock && b == last_loaded_ + 1;
  sequential_loads_ = sequential ? sequential_loads_ + 1 : 0;
  if (!sequential && !eager_readahead_) readahead_bytes_ = kFirstAutoReadahead;
  last_loaded_ = b;
  const std::string& ra = *readahead_buf_;
  if (start < readahead_offset_ ||
      start + bytes > readahead_offset_ + ra.size()) {
    if (!eager_readahead_ && sequential_loads_ < kLoadsBeforeReadahead) {
      return false;
    }
    const uint64_t end = std::max(ReadAheadEnd(), start + bytes);
    const uint64_t n = std::min<uint64_t>(
        std::max<uint64_t>(bytes, readahead_bytes_), end - start);
    PinOrKeep(&readahead_buf_);
    Slice got;
    Status s = table_->file().ReadRange(start, static_cast<size_t>(n),
                                        readahead_buf_.get(), &got, use_);
    if (!s.ok() || got.data() != readahead_buf_->data()) {
      readahead_buf_->clear();
      return false;  // the plain read reports any error
    }
    readahead_offset_ = start;
    if (!eager_readahead_) {
      readahead_bytes_ = std::min(readahead_bytes_ * 2, kAutoReadahead);
    }
  }
  *raw = Slice(readahead_buf_->data() + (start - readahead_offset_), bytes);
  return true;
}

bool RobinHoodTableIterator::LoadBlock(size_t b) {
  if (b >= log_->blocks().num_blocks()) {
    Invalidate(Status::OK());
    return false;
  }
  if (b == block_) return true;
  block_ = kNoBlock;
  offsets_.clear();
  PinOrKeep(&buf_);
  PinOrRelease(&pin_);  // values in a cached block must outlive it too
  const LogBlockReader& log = log_->log();
  const bool cached = through_cache_ && log.Caches(b);
  if (!cached || !log.LookupCached(b, &pin_, &contents_)) {
    if (use_.no_io && !table_->mmap()) {
      Invalidate(CachedBlock::NeedsRead());
      return false;
    }
    Slice raw;
    Status s = !table_->mmap() && ReadAhead(b, &raw)
                   ? log.DecodeBlock(b, raw, verify_, buf_.get(), &contents_)
                   : log.ReadBlock(b, verify_, buf_.get(), &contents_,
                                   SIZE_MAX, use_);
    if (!s.ok()) {
      Invalidate(s);
      return false;
    }
    if (cached && use_.fill) log.InsertCached(b, contents_, &pin_, &contents_);
  }
  const char* p = contents_.data();
  const char* limit = p + contents_.size();
  LogEntry e;
  while (p < limit) {
    offsets_.push_back(static_cast<size_t>(p - contents_.data()));
    p = DecodeLogEntry(p, limit, &e);
    if (p == nullptr) {
      Invalidate(
          log_->log().Damaged(b, "entry does not decode", offsets_.back()));
      return false;
    }
  }
  block_ = b;
  block_address_ = log_->blocks().Get(b).logical_offset;
  return true;
}

void RobinHoodTableIterator::ParseCurrent() {
  const char* p = contents_.data() + offsets_[index_];
  DecodeLogEntry(p, contents_.data() + contents_.size(), &entry_);
  key_.assign(entry_.user_key.data(), entry_.user_key.size());
  PutFixed64(&key_, PackSequenceAndType(table_->Surfaced(entry_.sequence),
                                        entry_.type));
  valid_ = true;
}

void RobinHoodTableIterator::SeekToFirst() {
  StartPositioning();
  if (!LoadBlock(0)) return;
  index_ = 0;
  ParseCurrent();
}

void RobinHoodTableIterator::SeekToLast() {
  StartPositioning();
  const size_t n = log_->blocks().num_blocks();
  if (n == 0 || !LoadBlock(n - 1)) {
    Invalidate(Status::OK());
    return;
  }
  index_ = offsets_.size() - 1;
  ParseCurrent();
}

void RobinHoodTableIterator::Seek(const Slice& target) {
  StartPositioning();
  if (log_->blocks().num_blocks() == 0) {
    Invalidate(Status::OK());
    return;
  }
  if (use_.no_io && !table_->mmap() && !log_->SamplesLoaded()) {
    Invalidate(CachedBlock::NeedsRead());
    return;
  }
  const SparseIndex* samples = nullptr;
  Status s = log_->Samples(&samples);
  if (!s.ok()) {
    Invalidate(s);
    return;
  }
  const uint64_t address = samples->SeekAddress(target);
  if (!LoadBlock(log_->blocks().Find(address))) return;
  index_ = static_cast<size_t>(
      std::lower_bound(offsets_.begin(), offsets_.end(),
                       address - block_address_) -
      offsets_.begin());
  if (index_ == offsets_.size()) {
    Invalidate(CorruptionAt(table_->file_name(), "sparse index",
                            "points inside an entry",
                            log_->meta().sparse_index.offset));
    return;
  }
  // LoadBlock found every entry of the block, and they are in key order:
  // the first at or after `target` is found by halving from the record's
  // entry, so a record a block is as quick as one every few entries.
  size_t lo = index_, hi = offsets_.size();
  while (lo < hi) {
    index_ = lo + (hi - lo) / 2;
    ParseCurrent();
    if (table_->icmp().Compare(key_, target) < 0) {
      lo = index_ + 1;
    } else {
      hi = index_;
    }
  }
  if (lo == offsets_.size()) {
    // All below it: the next block's first entry, a record above it.
    if (!LoadBlock(block_ + 1)) return;
    lo = 0;
  }
  index_ = lo;
  ParseCurrent();
  while (valid_ && table_->icmp().Compare(key_, target) < 0) Next();
}

void RobinHoodTableIterator::SeekForPrev(const Slice& target) {
  Seek(target);  // which starts afresh
  if (!valid_) {
    if (!status_.ok()) return;
    SeekToLast();
  }
  while (valid_ && table_->icmp().Compare(key_, target) > 0) Prev();
}

void RobinHoodTableIterator::Next() {
  assert(valid_);
  if (++index_ == offsets_.size()) {
    if (!LoadBlock(block_ + 1)) return;
    index_ = 0;
  }
  ParseCurrent();
}

void RobinHoodTableIterator::Prev() {
  assert(valid_);
  if (index_ == 0) {
    if (block_ == 0 || !LoadBlock(block_ - 1)) {
      Invalidate(Status::OK());
      return;
    }
    index_ = offsets_.size() - 1;
  } else {
    --index_;
  }
  ParseCurrent();
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
