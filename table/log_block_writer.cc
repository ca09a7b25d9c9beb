#include "table/log_block_writer.h"

#include "table/robinhood_format.h"
#include "table/robinhood_compress.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

namespace {
CompressionType Usable(CompressionType type) {
  return CanCompress(type) ? type : kNoCompression;
}
}  // namespace

LogBlockWriter::LogBlockWriter(uint32_t block_size,
                               CompressionType compression,
                               const CompressionOptions& compression_opts,
                               Append append)
    : block_size_(block_size),
      compression_(Usable(compression)),
      compression_opts_(compression_opts),
      append_(std::move(append)) {
  block_.reserve(block_size_ + block_size_ / 4);
}

void LogBlockWriter::CloseBlock() {
  if (block_.empty()) return;
  const uint64_t logical = block_.size();
  std::string* out = &block_;
  CompressionType type = kNoCompression;
  if (compression_ != kNoCompression) {
    if (Compress(compression_, compression_opts_, block_, &compressed_) &&
        compressed_.size() < logical - logical / 8 &&
        logical <= compressed_.size() * kMaxCompressionRatio) {
      out = &compressed_;
      type = compression_;
    }
  }
  AppendTrailer(*out, type, out);
  append_(*out);
  table_.Add(out->size(), logical);
  closed_bytes_ += logical;
  block_.clear();
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
