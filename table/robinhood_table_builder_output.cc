// The builder's output and memory (robinhood_table_builder.h): how its
// bytes reach the file (in aligned write units) and how its sections are
// framed with their trailers; what it holds, and the spill to temporary
// files once it holds half of build_memory_limit. The entry path and
// Finish are in robinhood_table_builder.cc.
#include <algorithm>

#include "table/crc32c_fast.h"
#include "table/robinhood_table_builder.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

void RobinHoodTableBuilder::Append(const Slice& data) {
  if (!ok()) return;
  offset_ += data.size();
  // Whole units go out as they fill, each at an offset that is a multiple
  // of the unit (the file starts at 0); the rest waits in staged_.
  Slice rest = data;
  if (!staged_.empty()) {
    const size_t take = std::min(rest.size(), kWriteUnit - staged_.size());
    Stage(rest.data(), take);
    rest.remove_prefix(take);
    if (staged_.size() < kWriteUnit) return;
    WriteOut(staged_);
    staged_.clear();
  }
  const size_t whole = rest.size() / kWriteUnit * kWriteUnit;
  if (whole > 0) WriteOut(Slice(rest.data(), whole));
  rest.remove_prefix(whole);
  // Grown as it fills, so a small file's builder holds no more than it.
  Stage(rest.data(), rest.size());
}

void RobinHoodTableBuilder::Stage(const char* data, size_t n) {
  // Doubling, but never past the unit (std::string's own doubling would
  // take nearly two).
  const size_t need = staged_.size() + n;
  if (need > staged_.capacity()) {
    staged_.reserve(
        std::min(kWriteUnit, std::max(need, 2 * staged_.capacity())));
  }
  staged_.append(data, n);
}

void RobinHoodTableBuilder::WriteOut(const Slice& data) {
  if (!ok()) return;
  io_status_ = compat::Append(file_, data);
  if (!io_status_.ok()) status_ = io_status_;
}

size_t RobinHoodTableBuilder::MemoryUsage() const {
  return index_.MemoryUsage() + (inline_ ? inline_->MemoryUsage() : 0) +
         (paged_ ? paged_->MemoryUsage() : 0) + sparse_.MemoryUsage() +
         log_.block_table().MemoryUsage() + range_dels_.capacity() +
         probe_.capacity() + last_user_key_.capacity() + staged_.capacity() +
         tail_page_index_.capacity() + (filter_ ? filter_->MemoryUsage() : 0);
}

void RobinHoodTableBuilder::TrackMemory() {
  const size_t held = MemoryUsage();
  peak_memory_ = std::max(peak_memory_, held);
  MaybeSpill(held);
}

void RobinHoodTableBuilder::MaybeSpill(size_t held) {
  if (spill_dir_ == nullptr || held <= options_.build_memory_limit / 2) {
    return;
  }
  Status s;
  if (inline_ != nullptr && !inline_->spilled()) {
    s = inline_->Spill(spill_dir_.get(), options_.build_memory_limit / 2);
  }
  if (s.ok() && paged_ != nullptr && !paged_->spilled()) {
    s = paged_->Spill(spill_dir_.get());
  }
  if (s.ok()) s = sparse_.Spill(spill_dir_.get());
  if (s.ok() && filter_ != nullptr) {
    s = filter_->Spill(spill_dir_.get(), options_.build_memory_limit / 4);
  }
  if (!s.ok() && ok()) status_ = s;
}

void RobinHoodTableBuilder::WriteStreamedSection(
    const std::function<Status(const Sink&)>& produce, SectionHandle* handle) {
  handle->offset = offset_;
  uint32_t crc = 0;
  uint64_t size = 0;
  Status s = produce([&](const Slice& piece) {
    crc = Crc32cExtend(crc, piece.data(), piece.size());
    size += piece.size();
    Append(piece);
    return status_;
  });
  if (!s.ok() && ok()) status_ = s;
  handle->size = size;
  std::string trailer;
  AppendTrailerFromCrc(crc, kNoCompression, &trailer);
  Append(trailer);
}

void RobinHoodTableBuilder::WriteSection(const Slice& contents,
                                         SectionHandle* handle) {
  handle->offset = offset_;
  handle->size = contents.size();
  std::string trailer;
  AppendTrailer(contents, kNoCompression, &trailer);
  Append(contents);
  Append(trailer);
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
