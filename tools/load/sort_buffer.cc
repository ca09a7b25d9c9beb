#include "tools/load/sort_buffer.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <new>

#include <sys/mman.h>

namespace rh_load {

namespace {
// Chunks are a sixteenth of the budget, so the last one's unused tail
// wastes little of it, within limits that keep allocations few and sane.
size_t ChunkSize(size_t budget) {
  return std::clamp<size_t>(budget / 16, size_t(64) << 10, size_t(64) << 20);
}
}  // namespace

void SortBuffer::Unmap::operator()(char* p) const { munmap(p, size); }

std::unique_ptr<char, SortBuffer::Unmap> SortBuffer::Map(size_t size) {
  void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  madvise(p, size, MADV_HUGEPAGE);
#endif
  return std::unique_ptr<char, Unmap>(static_cast<char*>(p), Unmap{size});
}

SortBuffer::SortBuffer(size_t budget)
    : budget_(budget), chunk_size_(ChunkSize(budget)) {}

bool SortBuffer::Add(const Slice& key, const Slice& value, uint64_t ordinal) {
  const size_t need = RecordBound(key.size(), value.size());
  // Each entry will need a reference when the buffer is sorted.
  const size_t refs_after = (count_ + 1) * sizeof(Ref);
  if (chunks_.empty() || size_t(chunk_end_ - chunks_.back().end) < need) {
    const size_t size = std::max(chunk_size_, need);
    if (count_ > 0 && allocated_ + size + refs_after > budget_) return false;
    chunks_.push_back(Chunk{Map(size), nullptr});
    chunks_.back().end = chunks_.back().data.get();
    chunk_end_ = chunks_.back().end + size;
    allocated_ += size;
  } else if (count_ > 0 && allocated_ + refs_after > budget_) {
    return false;
  }
  chunks_.back().end = EncodeRecord(chunks_.back().end, key, value, ordinal);
  count_++;
  sorted_ = false;
  return true;
}

uint64_t SortBuffer::Prefix(const Slice& key) {
  unsigned char bytes[8] = {0};
  memcpy(bytes, key.data(), std::min<size_t>(8, key.size()));
  uint64_t p = 0;
  for (unsigned char b : bytes) p = (p << 8) | b;
  return p;
}

bool SortBuffer::Less(const Ref& a, const Ref& b) {
  if (a.prefix != b.prefix) return a.prefix < b.prefix;
  RunRecord x, y;
  DecodeTrusted(a.record, &x);
  DecodeTrusted(b.record, &y);
  const int c = x.key.compare(y.key);
  if (c != 0) return c < 0;
  return x.ordinal < y.ordinal;
}

void SortBuffer::Sort() {
  if (sorted_) return;
  refs_.clear();
  refs_.shrink_to_fit();
  refs_.reserve(count_);
  for (const Chunk& chunk : chunks_) {
    for (const char* p = chunk.data.get(); p < chunk.end;) {
      RunRecord r;
      const char* next = DecodeTrusted(p, &r);
      refs_.push_back(Ref{Prefix(r.key), p});
      p = next;
    }
  }
  assert(refs_.size() == count_);
  std::sort(refs_.begin(), refs_.end(), Less);
  sorted_ = true;
}

RunRecord SortBuffer::At(size_t i) const {
  assert(sorted_ && i < refs_.size());
  // Sorted references point all over the chunks: reads in order (the
  // merge, a spill) would wait on memory at every record without this.
  constexpr size_t kAhead = 32;
  if (i + kAhead < refs_.size()) {
    // Three lines: a 100-byte value's record spans two or three.
    const char* p = refs_[i + kAhead].record;
    __builtin_prefetch(p);
    __builtin_prefetch(p + 64);
    __builtin_prefetch(p + 128);
  }
  RunRecord r;
  DecodeTrusted(refs_[i].record, &r);
  return r;
}

size_t SortBuffer::LowerBound(const Slice& key) const {
  size_t lo = 0, hi = refs_.size();
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (At(mid).key.compare(key) < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

void SortBuffer::Clear() {
  chunks_.clear();
  refs_.clear();
  refs_.shrink_to_fit();
  chunk_end_ = nullptr;
  allocated_ = 0;
  count_ = 0;
  sorted_ = false;
}

}  // namespace rh_load
