#include "table/key_order_model.h"

#include <algorithm>

#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

void KeyOrderModel::Fit(uint64_t n, const std::function<Slice(uint64_t)>& key,
                        uint64_t capacity) {
  Fit(n, key(0), key(n - 1),
      [&](const KeyVisit& visit) {
        for (uint64_t i = 0; i < n; ++i) visit(key(i));
      },
      capacity);
}

void KeyOrderModel::Fit(uint64_t n, const Slice& first, const Slice& last,
                        const std::function<void(const KeyVisit&)>& scan,
                        uint64_t capacity) {
  capacity_ = capacity;
  // Every key between two others shares their common prefix (bytewise).
  size_t plen = 0;
  const size_t most = std::min(first.size(), last.size());
  while (plen < most && first[plen] == last[plen]) ++plen;
  prefix_.assign(first.data(), plen);
  base_ = NumberOf(first, plen);
  const uint64_t range = NumberOf(last, plen) - base_;
  // About 8 keys a bucket, so that the buckets follow the keys' spread
  // without outweighing them; at most 16 KiB of them, to stay cached.
  const uint64_t want =
      std::min<uint64_t>(kMaxOrderBuckets, std::max<uint64_t>(2, n / 8));
  shift_ = 0;
  while ((range >> shift_) >= want) ++shift_;
  buckets_ = static_cast<uint32_t>(
      std::max<uint64_t>(2, (range >> shift_) + 1));
  std::vector<uint64_t> below(buckets_ + 1, 0);
  scan([&](const Slice& key) {
    ++below[((NumberOf(key, plen) - base_) >> shift_) + 1];
  });
  for (uint32_t b = 1; b <= buckets_; ++b) below[b] += below[b - 1];
  // The last key's bucket holds numbers only up to the last key's, but its
  // homes are interpolated over its whole width: its keys would crowd into
  // the used fraction of its slots (thousands of keys into a few hundred
  // slots in big files). Scale the homes as if the unused part held keys at
  // the density of the used part (at most a bucket's mean more), so that
  // part's slots are left empty after the last key instead.
  const uint64_t top = range >> shift_;  // the last key's bucket
  const unsigned __int128 width = static_cast<unsigned __int128>(1) << shift_;
  const unsigned __int128 used =
      static_cast<unsigned __int128>(range - (top << shift_)) + 1;
  uint64_t scale = n;
  if (used < width) {
    const unsigned __int128 extra =
        static_cast<unsigned __int128>(n - below[top]) * (width - used) / used;
    scale += static_cast<uint64_t>(
        std::min<unsigned __int128>(extra, n / buckets_));
  }
  starts_.assign(buckets_ + 1, 0);
  for (uint32_t b = 1; b < buckets_; ++b) {
    starts_[b] = static_cast<uint32_t>(
        static_cast<unsigned __int128>(below[b]) * capacity / scale);
  }
  starts_[buckets_] = static_cast<uint32_t>(capacity);
}

void KeyOrderModel::EncodeTo(std::string* dst) const {
  PutFixed32(dst, static_cast<uint32_t>(prefix_.size()));
  PutFixed32(dst, shift_);
  PutFixed32(dst, buckets_);
  PutFixed64(dst, base_);
  for (uint32_t s : starts_) PutFixed32(dst, s);
  dst->append(prefix_);
}

bool KeyOrderModel::DecodeFrom(Slice* in, uint64_t capacity,
                               uint32_t key_width, std::string* why) {
  if (in->size() < 20) {
    *why = "too short";
    return false;
  }
  const uint32_t plen = DecodeFixed32(in->data());
  shift_ = DecodeFixed32(in->data() + 4);
  buckets_ = DecodeFixed32(in->data() + 8);
  base_ = DecodeFixed64(in->data() + 12);
  in->remove_prefix(20);
  if (plen > key_width || shift_ > 63 || buckets_ < 2 ||
      buckets_ > kMaxOrderBuckets || capacity == 0 ||
      capacity > kMaxOrderedCapacity) {
    *why = "out of range";
    return false;
  }
  const uint64_t need = (uint64_t{buckets_} + 1) * 4 + plen;
  if (in->size() < need) {
    *why = "too short";
    return false;
  }
  starts_.resize(buckets_ + 1);
  for (uint32_t b = 0; b <= buckets_; ++b) {
    starts_[b] = DecodeFixed32(in->data() + 4 * b);
    // Homes that went down would break the key order Seek relies on.
    if (b > 0 && starts_[b] < starts_[b - 1]) {
      *why = "homes go down";
      return false;
    }
  }
  if (starts_[0] != 0 || starts_[buckets_] != capacity) {
    *why = "does not span the home slots";
    return false;
  }
  prefix_.assign(in->data() + (need - plen), plen);
  in->remove_prefix(need);
  capacity_ = capacity;
  return true;
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
