#include "table/page_index.h"

#include <algorithm>
#include <cassert>
#include <cstring>

#include "table/robinhood_format.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

uint64_t KeyPrefix(const Slice& rest) {
  uint32_t v = 0;
  if (rest.size() >= 4) {
    // Every lookup's key but the shortest: one load.
    memcpy(&v, rest.data(), 4);
    v = __builtin_bswap32(v);
  } else {
    for (size_t i = 0; i < rest.size(); ++i) {
      v |= uint32_t{static_cast<unsigned char>(rest[i])} << (24 - 8 * i);
    }
  }
  return uint64_t{v} << 32;
}

namespace {
size_t CommonPrefix(const Slice& a, const Slice& b) {
  const size_t n = std::min(a.size(), b.size());
  size_t i = 0;
  while (i < n && a[i] == b[i]) ++i;
  return i;
}
}  // namespace

void PageIndexBuilder::AddPage(const Slice& prev_last_key,
                               const Slice& first_key) {
  Slice separator = first_key;
  if (pages_ == 0) {
    first_key_.assign(first_key.data(), first_key.size());
  } else {
    // One byte past what the two keys share: greater than the last key
    // (it differs there, or the last key ends there), and a prefix of the
    // first.
    separator = Slice(first_key.data(),
                      CommonPrefix(prev_last_key, first_key) + 1);
  }
  PutLengthPrefixedSlice(&separators_, separator);
  pages_++;
}

std::string PageIndexBuilder::Finish(const Slice& last_key) const {
  assert(pages_ > 0);
  const size_t c = CommonPrefix(first_key_, last_key);
  std::string out;
  PutVarint32(&out, static_cast<uint32_t>(pages_));
  PutLengthPrefixedSlice(&out, Slice(first_key_.data(), c));
  PutLengthPrefixedSlice(&out,
                         Slice(last_key.data() + c, last_key.size() - c));
  std::string ends, bytes;
  Slice in(separators_);
  Slice s;
  while (GetLengthPrefixedSlice(&in, &s)) {
    // Every key of the file, separators included, begins with the c
    // bytes its first and last keys share.
    const Slice rest(s.data() + c, s.size() - c);
    PutFixed32(&out, static_cast<uint32_t>(KeyPrefix(rest) >> 32));
    bytes.append(rest.data(), rest.size());
    PutFixed32(&ends, static_cast<uint32_t>(bytes.size()));
  }
  out.append(ends);
  out.append(bytes);
  return out;
}

uint64_t PageIndex::PrefixAt(uint64_t i) const {
  return uint64_t{DecodeFixed32(prefixes_ + 4 * i)} << 32;
}

Slice PageIndex::SeparatorAt(uint64_t i) const {
  const uint32_t start = i == 0 ? 0 : DecodeFixed32(ends_ + 4 * (i - 1));
  const uint32_t end = DecodeFixed32(ends_ + 4 * i);
  return Slice(separators_ + start, end - start);
}

Status PageIndex::Init(std::string&& buf, const Slice& contents,
                       uint64_t pages, const std::string& file,
                       uint64_t section_offset) {
  auto bad = [&](const char* what) {
    return CorruptionAt(file, "page index", what, section_offset);
  };
  // Keep the bytes where they are: in the mapping, or in the buffer,
  // which moves here (its bytes stay put unless it is short enough to be
  // stored inline, which the offset then corrects).
  const bool owned = !buf.empty() && contents.data() >= buf.data() &&
                     contents.data() < buf.data() + buf.size();
  const size_t at = owned ? contents.data() - buf.data() : 0;
  buf_ = std::move(buf);
  Slice in = owned ? Slice(buf_.data() + at, contents.size()) : contents;
  uint32_t count = 0;
  if (!GetVarint32(&in, &count) || count != pages || count == 0) {
    return bad("page count differs from the meta block's");
  }
  if (!GetLengthPrefixedSlice(&in, &common_) ||
      !GetLengthPrefixedSlice(&in, &last_)) {
    return bad("truncated");
  }
  if (in.size() / 8 < count) return bad("truncated");
  prefixes_ = in.data();
  ends_ = prefixes_ + 4 * uint64_t{count};
  separators_ = ends_ + 4 * uint64_t{count};
  const uint64_t bytes = in.size() - 8 * uint64_t{count};
  pages_ = count;
  uint32_t prev_end = 0;
  for (uint64_t i = 0; i < count; ++i) {
    const uint32_t end = DecodeFixed32(ends_ + 4 * i);
    if (end < prev_end || end > bytes) return bad("separator out of range");
    prev_end = end;
  }
  if (prev_end != bytes) return bad("trailing bytes");
  // What the search relies on: separators strictly increasing, each
  // prefix its separator's, and the last key not before the last page.
  for (uint64_t i = 0; i < count; ++i) {
    const Slice s = SeparatorAt(i);
    if (PrefixAt(i) != KeyPrefix(s)) return bad("prefix of a separator");
    if (i > 0 && SeparatorAt(i - 1).compare(s) >= 0) {
      return bad("separators out of order");
    }
  }
  if (last_.compare(SeparatorAt(count - 1)) < 0) {
    return bad("last key before the last page");
  }
  first_prefix_ = PrefixAt(0);
  last_prefix_ = KeyPrefix(last_);
  // The radix table: over the leading bits after those the first and
  // last keys' prefixes share (every key of the file shares them too),
  // one bucket for one or two pages, so that evenly spread keys search a
  // page or two of the prefixes.
  const uint64_t lo = first_prefix_, hi = last_prefix_;
  radix_shift_ = lo == hi ? 0 : static_cast<uint32_t>(__builtin_clzll(lo ^ hi));
  radix_bits_ = 0;
  if (lo != hi) {
    // Prefixes hold 32 bits, in the high half.
    while (radix_bits_ < 24 && radix_bits_ < 32 - radix_shift_ &&
           (uint64_t{2} << radix_bits_) <= count) {
      radix_bits_++;
    }
  }
  const uint64_t buckets = uint64_t{1} << radix_bits_;
  radix_.assign(buckets + 1, count);
  uint64_t page = 0;
  for (uint64_t b = 0; b < buckets; ++b) {
    while (page < count && Bucket(PrefixAt(page)) < b) ++page;
    radix_[b] = static_cast<uint32_t>(page);
  }
  return Status::OK();
}

bool PageIndex::Greater(uint64_t i, uint64_t prefix, const Slice& rest) const {
  const uint64_t p = PrefixAt(i);
  if (p != prefix) return p > prefix;
  return SeparatorAt(i).compare(rest) > 0;
}

bool PageIndex::Find(const Slice& key, uint64_t* page,
                     uint32_t* share) const {
  if (key.size() < common_.size() ||
      (!common_.empty() &&
       memcmp(key.data(), common_.data(), common_.size()) != 0)) {
    return false;
  }
  const Slice rest(key.data() + common_.size(), key.size() - common_.size());
  // Within the file's range: the prefixes decide unless they tie.
  const uint64_t prefix = KeyPrefix(rest);
  if (prefix >= last_prefix_ &&
      (prefix > last_prefix_ || rest.compare(last_) > 0)) {
    return false;
  }
  if (prefix <= first_prefix_ &&
      (prefix < first_prefix_ || SeparatorAt(0).compare(rest) > 0)) {
    return false;
  }
  const uint64_t b = Bucket(prefix);
  // Pages of lower buckets have smaller separators, of higher ones
  // greater: the key's page is the one before the first greater
  // separator in this bucket (or the bucket's end).
  uint64_t lo = radix_[b], hi = radix_[b + 1];
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (Greater(mid, prefix, rest)) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  // Separator 0 is not greater than the key, so lo >= 1.
  *page = lo - 1;
  if (share != nullptr) {
    // 32-bit numbers, so the span and the quotient cannot overflow; the
    // next separator's prefix is read beside this one's.
    const uint64_t from = PrefixAt(lo - 1) >> 32;
    const uint64_t to =
        lo < pages_ ? PrefixAt(lo) >> 32 : (KeyPrefix(last_) >> 32) + 1;
    const uint64_t at = prefix >> 32;
    *share = to > from && at > from
                 ? static_cast<uint32_t>(
                       std::min<uint64_t>(((at - from) << 16) / (to - from),
                                          65535))
                 : 0;
  }
  return true;
}

bool PageIndex::PastLast(const Slice& key) const {
  // The last key is the common bytes, then last_.
  const size_t c = std::min(key.size(), common_.size());
  const int cmp = memcmp(key.data(), common_.data(), c);
  if (cmp != 0) return cmp > 0;
  if (key.size() < common_.size()) return false;
  return Slice(key.data() + c, key.size() - c).compare(last_) > 0;
}

uint64_t PageIndex::SeekPage(const Slice& key) const {
  uint64_t page = 0;
  if (Find(key, &page)) return page;
  // Outside the file: before its first key or after its last.
  const int c = key.compare(common_);
  if (c < 0) return 0;
  if (key.size() >= common_.size() &&
      memcmp(key.data(), common_.data(), common_.size()) == 0) {
    const Slice rest(key.data() + common_.size(),
                     key.size() - common_.size());
    return SeparatorAt(0).compare(rest) > 0 ? 0 : pages_;
  }
  // Differs from the common bytes within them: before or after all.
  const int d = memcmp(key.data(), common_.data(),
                       std::min(key.size(), common_.size()));
  return d < 0 ? 0 : pages_;
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
