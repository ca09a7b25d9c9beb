#include "table/entry_page.h"
#include "table/crc32c_fast.h"

#include <cassert>
#include <cstring>

#include "util/coding.h"
#include "util/crc32c.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

uint32_t EntryPageEntryBytes(const Slice& key, const Slice& value) {
  const uint64_t bytes = static_cast<uint64_t>(VarintLength(key.size())) +
                         static_cast<uint64_t>(VarintLength(value.size())) +
                         key.size() + value.size();
  return bytes > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(bytes);
}

void EntryPageBuilder::Add(const Slice& key, const Slice& value,
                           uint8_t tag) {
  assert(Fits(EntryPageEntryBytes(key, value)));
  PutFixed16(&offsets_, static_cast<uint16_t>(used_));
  tags_.push_back(static_cast<char>(tag));
  PutVarint32(&entries_, static_cast<uint32_t>(key.size()));
  PutVarint32(&entries_, static_cast<uint32_t>(value.size()));
  entries_.append(key.data(), key.size());
  entries_.append(value.data(), value.size());
  used_ = static_cast<uint32_t>(entries_.size());
  n_++;
}

void EntryPageBuilder::Finish(std::string* dst) {
  const size_t start = dst->size();
  dst->resize(start + bytes_);
  Finish(&(*dst)[start]);
}

uint32_t EntryPageBuilder::Finish(char* dst) {
  assert(n_ > 0);
  const size_t tail = kEntryPageFixedTail + n_ * kEntryPageTailPerEntry;
  memcpy(dst, entries_.data(), entries_.size());
  memset(dst + entries_.size(), 0, bytes_ - tail - entries_.size());
  char* p = dst + bytes_ - tail;
  memcpy(p, offsets_.data(), offsets_.size());
  p += offsets_.size();
  memcpy(p, tags_.data(), tags_.size());
  p += tags_.size();
  EncodeFixed16(p, static_cast<uint16_t>(n_));
  p += 2;
  assert(p == dst + bytes_ - 4);
  const uint32_t crc = Crc32c(dst, bytes_ - 4);
  EncodeFixed32(p, crc32c::Mask(crc));
  entries_.clear();
  offsets_.clear();
  tags_.clear();
  used_ = 0;
  n_ = 0;
  return Crc32cExtend(crc, p, 4);
}

bool EntryPage::CrcMatches(const char* page, uint32_t page_bytes) {
  assert(IsEntryPageSize(page_bytes));
  const uint32_t stored =
      crc32c::Unmask(DecodeFixed32(page + page_bytes - 4));
  return stored == Crc32c(page, page_bytes - 4);
}

bool EntryPage::Parse(const char* page, uint32_t page_bytes) {
  assert(IsEntryPageSize(page_bytes));
  page_ = page;
  bytes_ = page_bytes;
  n_ = DecodeFixed16(page + bytes_ - kEntryPageFixedTail);
  if (n_ == 0 || n_ > EntryPageMaxEntries(bytes_)) {
    n_ = 0;
    return false;
  }
  tags_ = page + bytes_ - kEntryPageFixedTail - n_;
  offsets_ = tags_ - 2 * n_;
  return true;
}

uint32_t EntryPage::OffsetOf(uint32_t i) const {
  return DecodeFixed16(offsets_ + 2 * i);
}

bool EntryPage::Entry(uint32_t i, Slice* key, Slice* value) const {
  assert(i < n_);
  const uint32_t start = OffsetOf(i);
  const uint32_t limit = tail_offset();
  if (start >= limit) return false;
  const char* p = page_ + start;
  const char* end = page_ + limit;
  uint32_t klen = 0, vlen = 0;
  p = GetVarint32Ptr(p, end, &klen);
  if (p != nullptr) p = GetVarint32Ptr(p, end, &vlen);
  if (p == nullptr || klen > static_cast<size_t>(end - p) ||
      vlen > static_cast<size_t>(end - p) - klen) {
    return false;
  }
  *key = Slice(p, klen);
  *value = Slice(p + klen, vlen);
  return true;
}

bool EntryPage::LowerBound(const Slice& key, uint32_t* at) const {
  uint32_t lo = 0, hi = n_;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    Slice k;
    if (!Key(mid, &k)) return false;
    if (k.compare(key) < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  *at = lo;
  return true;
}

bool EntryPage::CheckAll(uint64_t (*hash)(const Slice&, uint64_t),
                         uint64_t seed, const char** why) const {
  uint32_t expect = 0;
  Slice prev;
  for (uint32_t i = 0; i < n_; ++i) {
    Slice k, v;
    if (OffsetOf(i) != expect) {
      *why = "entry offsets out of order";
      return false;
    }
    if (!Entry(i, &k, &v)) {
      *why = "entry runs past its room";
      return false;
    }
    if (i > 0 && prev.compare(k) >= 0) {
      *why = "keys out of order";
      return false;
    }
    if (tag(i) != EntryPageTag(hash(k, seed))) {
      *why = "tag does not match its key";
      return false;
    }
    prev = k;
    expect = static_cast<uint32_t>(v.data() + v.size() - page_);
  }
  for (uint32_t b = expect; b < tail_offset(); ++b) {
    if (page_[b] != 0) {
      *why = "bytes after the entries";
      return false;
    }
  }
  return true;
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
