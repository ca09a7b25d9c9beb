#include "table/block_table.h"

#include <cassert>

#include "table/robinhood_format.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

static_assert(kTrailerSize == 5, "BlockTable assumes a 5-byte trailer");

void BlockTableBuilder::Add(uint64_t stored_bytes, uint64_t logical_bytes) {
  PutVarint64(&records_, stored_bytes);
  PutVarint64(&records_, logical_bytes);
  ++count_;
}

std::string BlockTableBuilder::Finish() const {
  std::string out;
  PutVarint64(&out, count_);
  out.append(records_);
  return out;
}

Status BlockTable::Init(const Slice& contents, uint64_t log_offset,
                        uint64_t log_file_bytes,
                        uint64_t log_logical_bytes, uint32_t log_block_size,
                        const std::string& file, uint64_t section_offset) {
  auto bad = [&](const char* what) {
    return CorruptionAt(file, "block table", what, section_offset);
  };
  Slice in = contents;
  uint64_t count = 0;
  // Each record takes at least 2 bytes, so a count beyond that is damage,
  // caught before it sizes an allocation.
  if (!GetVarint64(&in, &count) || count > in.size() / 2) {
    return bad("bad block count");
  }
  starts_.assign(1, Start{0, log_offset});
  starts_.reserve(count + 1);
  for (uint64_t b = 0; b < count; ++b) {
    uint64_t stored = 0, logical = 0;
    if (!GetVarint64(&in, &stored) || !GetVarint64(&in, &logical)) {
      return bad("truncated");
    }
    // Blocks are never empty, and never stored larger than raw.
    if (logical == 0 || stored <= kTrailer || stored > logical + kTrailer ||
        stored > log_file_bytes - (starts_.back().file - log_offset)) {
      return bad("block size out of range");
    }
    // What a compressed block may claim is bounded by what it stores, so
    // no claim sizes an allocation the file does not back.
    const uint64_t stored_contents = stored - kTrailer;
    // ceil(logical / ratio) > contents, without overflow.
    const uint64_t whole = logical / kMaxCompressionRatio;
    const bool past_bound =
        whole > stored_contents ||
        (whole == stored_contents && logical % kMaxCompressionRatio != 0);
    if (stored_contents != logical && past_bound) {
      return bad("block claims more than its codec could expand to");
    }
    if (b + 1 < count && logical < log_block_size) {
      return bad("block smaller than the block size");
    }
    starts_.push_back(Start{starts_.back().logical + logical,
                            starts_.back().file + stored});
  }
  if (!in.empty()) return bad("trailing bytes");
  if (starts_.back().file - log_offset != log_file_bytes ||
      starts_.back().logical != log_logical_bytes) {
    return bad("block sizes do not add up to the log size");
  }

  // Pages of at most the block size, so most start in one block; but no
  // more pages than twice the blocks, so the table stays proportional to
  // the block count whatever the logical size.
  page_shift_ = 8;
  while (page_shift_ < 30 && (uint64_t{2} << page_shift_) <= log_block_size) {
    ++page_shift_;
  }
  while (page_shift_ < 63 &&
         (log_logical_bytes >> page_shift_) > 2 * uint64_t{count} + 1) {
    ++page_shift_;
  }
  const uint64_t pages = (log_logical_bytes >> page_shift_) + 1;
  page_first_block_.resize(pages + 1);
  size_t b = 0;
  for (uint64_t p = 0; p < pages; ++p) {
    const uint64_t start = p << page_shift_;
    while (b + 1 < num_blocks() && starts_[b + 1].logical <= start) ++b;
    page_first_block_[p] = static_cast<uint32_t>(b);
  }
  page_first_block_[pages] = static_cast<uint32_t>(count == 0 ? 0 : count - 1);
  // Blocks per logical byte in 0.64 fixed point: below 1, since no block
  // is empty.
  per_byte_ = static_cast<uint64_t>(
      (static_cast<unsigned __int128>(count) << 64) /
      (static_cast<unsigned __int128>(log_logical_bytes) + 1));
  logical_end_ = log_logical_bytes;
  return Status::OK();
}

size_t BlockTable::Find(uint64_t address) const {
  assert(address < logical_bytes());
  // Blocks hold about the same logical bytes, so the address's share of
  // the log names its block or one beside it: one read of starts_, where
  // the page table costs a read of its own first (each a cache miss when
  // lookups are spread over gigabytes).
  if (address < logical_end_) {  // so there is a block, and it is in one
    const size_t last = num_blocks() - 1;
    size_t b = static_cast<size_t>(
        (static_cast<unsigned __int128>(address) * per_byte_) >> 64);
    if (b > last) b = last;
    for (int step = 0; step < 2; ++step) {
      if (starts_[b].logical > address) {
        --b;  // starts_[0].logical is 0: b > 0 here
      } else if (starts_[b + 1].logical <= address) {
        ++b;  // b < last: the last block ends at the log's end
      } else {
        return b;
      }
    }
    if (starts_[b].logical <= address && address < starts_[b + 1].logical) {
      return b;
    }
  }
  const uint64_t page = address >> page_shift_;
  size_t lo = page_first_block_[page];
  size_t hi = page_first_block_[page + 1];
  // Usually one or two candidates; a page over many small blocks (a file
  // with a few huge blocks among small ones) costs a binary search.
  while (lo < hi) {
    const size_t mid = lo + (hi - lo + 1) / 2;
    if (starts_[mid].logical <= address) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

size_t BlockTable::MemoryUsage() const {
  return starts_.capacity() * sizeof(Start) +
         page_first_block_.capacity() * sizeof(uint32_t);
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
