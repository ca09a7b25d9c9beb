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
  Chunk* chunk = active_ > 0 ? &chunks_[active_ - 1] : nullptr;
  if (chunk == nullptr || size_t(chunk->data.get() + chunk->size - chunk->end) < need) {
    if (active_ < chunks_.size() && chunks_[active_].size < need) {
      // Kept chunks too small for this record: give them back.
      for (size_t c = active_; c < chunks_.size(); c++) allocated_ -= chunks_[c].size;
      chunks_.resize(active_);
    }
    const bool reuse = active_ < chunks_.size();
    const size_t size = reuse ? chunks_[active_].size : std::max(chunk_size_, need);
    if (count_ > 0 && allocated_ + (reuse ? 0 : size) + refs_after > budget_) return false;
    if (!reuse) {
      chunks_.push_back(Chunk{Map(size), size, nullptr});
      allocated_ += size;
    }
    chunk = &chunks_[active_++];
    chunk->end = chunk->data.get();
  } else if (count_ > 0 && allocated_ + refs_after > budget_) {
    return false;
  }
  chunk->end = EncodeRecord(chunk->end, key, value, ordinal);
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

bool SortBuffer::TieLess(const Ref& a, const Ref& b) {
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
  refs_.reserve(count_);
  for (size_t c = 0; c < active_; c++) {
    const Chunk& chunk = chunks_[c];
    for (const char* p = chunk.data.get(); p < chunk.end;) {
      RunRecord r;
      const char* next = DecodeTrusted(p, &r);
      refs_.push_back(Ref{Prefix(r.key), p});
      p = next;
    }
  }
  assert(refs_.size() == count_);
  // A lambda, not the function's address, so the comparison inlines.
  std::sort(refs_.begin(), refs_.end(),
            [](const Ref& a, const Ref& b) { return Less(a, b); });
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
  // The references go: kept, they would crowd out a next fill of larger
  // entries, and the chunks are most of the memory.
  refs_.clear();
  refs_.shrink_to_fit();
  active_ = 0;
  count_ = 0;
  sorted_ = false;
}

void SortBuffer::Release() {
  Clear();
  chunks_.clear();
  allocated_ = 0;
}

}  // namespace rh_load
