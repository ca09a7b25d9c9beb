#include "table/key_order_model.h"

#include <algorithm>

#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

void KeyOrderModel::Fit(uint64_t n, const std::function<Slice(uint64_t)>& key,
                        uint64_t capacity, uint32_t map_positions) {
  Fit(n, key(0), key(n - 1),
      [&](const KeyVisit& visit) {
        for (uint64_t i = 0; i < n; ++i) visit(key(i));
      },
      capacity, map_positions);
}

namespace {

uint64_t Radix(const std::array<uint64_t, 4>& alphabet) {
  uint64_t k = 0;
  for (uint64_t w : alphabet) k += __builtin_popcountll(w);
  return k;
}

}  // namespace

size_t KeyOrderModel::LongMapPositions(
    const std::vector<std::array<uint64_t, 4>>& alphabets) {
  size_t taken = 0;
  size_t last_varying = 0;
  unsigned __int128 product = 1;
  for (size_t i = 0; i < alphabets.size() && i < kMaxMappedPositions; ++i) {
    const uint64_t k = Radix(alphabets[i]);
    if (k == 0 ||
        product * k > (static_cast<unsigned __int128>(1) << 63)) {
      break;
    }
    product *= k;
    ++taken;
    if (k > 1) last_varying = taken;
  }
  // Positions of one value past the last varying one leave every file
  // key's number as it is: a lookup need not read them.
  return last_varying != 0 ? last_varying : std::min<size_t>(taken, 1);
}

void KeyOrderModel::SetPrefix(const char* data, size_t len) {
  prefix_.assign(data, len);
  // The mask is used for prefixes of at most a word only.
  prefix_mask_ =
      len == 0 ? 0 : (len >= 8 ? ~uint64_t{0} : ~(~uint64_t{0} >> (8 * len)));
  prefix_bits_ = NumberOf(prefix_, 0) & prefix_mask_;
}

uint64_t KeyOrderModel::HomeOfAny(const Slice& key) const {
  const size_t plen = prefix_.size();
  if (plen != 0) {
    int c;
    if (plen <= 8 && key.size() >= 8) {
      const uint64_t head = NumberOf(key, 0) & prefix_mask_;
      c = head < prefix_bits_ ? -1 : (head > prefix_bits_ ? 1 : 0);
    } else {
      const size_t m = key.size() < plen ? key.size() : plen;
      c = memcmp(key.data(), prefix_.data(), m);
      if (c == 0 && key.size() < plen) c = -1;
    }
    if (c < 0) return 0;
    if (c > 0) return capacity_ - 1;
  }
  return Place(positions_ == 0 ? NumberOf(key, plen)
                               : MappedNumberOf(key, plen));
}

bool KeyOrderModel::SetDigits(
    const std::vector<std::array<uint64_t, 4>>& alphabets) {
  positions_ = 0;
  uint64_t radix[kMaxMappedPositions];
  unsigned __int128 product = 1;
  for (size_t i = 0; i < alphabets.size() && i < kMaxMappedPositions; ++i) {
    const uint64_t k = Radix(alphabets[i]);
    if (k == 0) return false;
    // Numbers stay below 2^63, so that ranges and offsets never wrap.
    if (product * k > (static_cast<unsigned __int128>(1) << 63)) break;
    product *= k;
    radix[positions_++] = k;
  }
  if (positions_ == 0) return false;
  alphabets_.assign(alphabets.begin(), alphabets.begin() + positions_);
  digits_.assign(size_t{positions_} * 256, 0);
  for (uint32_t i = 0; i < positions_; ++i) {
    uint16_t below = 0;
    int first = -1, last = -1;
    for (uint32_t b = 0; b < 256; ++b) {
      const bool in = (alphabets_[i][b >> 6] >> (b & 63)) & 1;
      digits_[i * 256 + b] = static_cast<uint16_t>(below * 2 + (in ? 1 : 0));
      if (in) {
        ++below;
        if (first < 0) first = static_cast<int>(b);
        last = static_cast<int>(b);
      }
    }
    // Values first..last, every one in: the digit is b - first.
    const bool run = first >= 0 && uint64_t(last - first + 1) == radix[i];
    low_[i] = static_cast<uint8_t>(run ? first : 0);
    run_[i] = static_cast<uint16_t>(run ? radix[i] : 0);
  }
  weights_[positions_ - 1] = 1;
  for (uint32_t i = positions_ - 1; i > 0; --i) {
    weights_[i - 1] = weights_[i] * radix[i];
  }
  return true;
}

void KeyOrderModel::Fit(uint64_t n, const Slice& first, const Slice& last,
                        const std::function<void(const KeyVisit&)>& scan,
                        uint64_t capacity, uint32_t map_positions) {
  capacity_ = capacity;
  // Every key between two others shares their common prefix (bytewise).
  size_t plen = 0;
  const size_t most = std::min(first.size(), last.size());
  while (plen < most && first[plen] == last[plen]) ++plen;
  SetPrefix(first.data(), plen);
  positions_ = 0;
  digits_.clear();
  alphabets_.clear();
  if (map_positions != 0) {
    const size_t reach = std::min(map_positions, kMaxMappedPositions);
    std::vector<std::array<uint64_t, 4>> alphabets(
        reach, std::array<uint64_t, 4>{});
    scan([&](const Slice& key) {
      for (size_t i = 0; i < reach; ++i) {
        const uint8_t b = plen + i < key.size()
                              ? static_cast<uint8_t>(key[plen + i])
                              : 0;
        alphabets[i][b >> 6] |= uint64_t{1} << (b & 63);
      }
    });
    if (reach > kMaxShortMapPositions) {
      alphabets.resize(LongMapPositions(alphabets));
    }
    SetDigits(alphabets);  // every position has a value: never false
  }
  auto number = [&](const Slice& key) {
    return positions_ == 0 ? NumberOf(key, plen) : MappedNumberOf(key, plen);
  };
  base_ = number(first);
  const uint64_t range = number(last) - base_;
  // About 8 keys a bucket, so that the buckets follow the keys' spread
  // without outweighing them; at most 16 KiB of them, to stay cached.
  const uint64_t want =
      std::min<uint64_t>(kMaxOrderBuckets, std::max<uint64_t>(2, n / 8));
  shift_ = 0;
  while ((range >> shift_) >= want) ++shift_;
  buckets_ = static_cast<uint32_t>(
      std::max<uint64_t>(2, (range >> shift_) + 1));
  std::vector<uint64_t> below(buckets_ + 1, 0);
  // Each bucket's least and greatest offset, for SpreadPartialBuckets.
  first_in_.assign(buckets_, ~uint64_t{0});
  last_in_.assign(buckets_, 0);
  const uint64_t mask = (uint64_t{1} << shift_) - 1;
  scan([&](const Slice& key) {
    const uint64_t off = number(key) - base_;
    const uint64_t b = off >> shift_;
    ++below[b + 1];
    first_in_[b] = std::min(first_in_[b], off & mask);
    last_in_[b] = std::max(last_in_[b], off & mask);
  });
  counts_.assign(below.begin() + 1, below.end());
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

bool KeyOrderModel::SpreadPartialBuckets() {
  if (counts_.size() != buckets_) return false;
  // A bucket whose keys' numbers span a fraction f of its width gets homes
  // over only f of its slots: at thousands of keys a bucket (big files),
  // one that straddles the edge of a gap in the numbers (digits that stop
  // at 1.15e18, tenants that end at 15 of 20) crowds them past the
  // displacement rule. Weigh each such bucket as if its whole width held
  // keys at the density of its used part, up to 8 times its keys, so that
  // its used part gets about a slot a key and the rest stays empty.
  const unsigned __int128 width = static_cast<unsigned __int128>(1)
                                  << shift_;
  std::vector<uint64_t> weight(buckets_ + 1, 0);
  bool any = false;
  for (uint32_t b = 0; b < buckets_; ++b) {
    const uint64_t c = counts_[b];
    uint64_t w = c;
    if (c > 1) {
      const unsigned __int128 used =
          static_cast<unsigned __int128>(last_in_[b] - first_in_[b]) + 1;
      const unsigned __int128 scaled = std::min<unsigned __int128>(
          static_cast<unsigned __int128>(c) * width / used,
          static_cast<unsigned __int128>(c) * 8);
      if (scaled > c + 1) {
        w = static_cast<uint64_t>(scaled);
        any = true;
      }
    }
    weight[b + 1] = weight[b] + w;
  }
  if (!any) return false;
  const unsigned __int128 total = weight[buckets_];
  for (uint32_t b = 1; b < buckets_; ++b) {
    starts_[b] = static_cast<uint32_t>(
        static_cast<unsigned __int128>(weight[b]) * capacity_ / total);
  }
  starts_[buckets_] = static_cast<uint32_t>(capacity_);
  return true;
}

void KeyOrderModel::EncodeTo(std::string* dst) const {
  PutFixed32(dst, static_cast<uint32_t>(prefix_.size()));
  PutFixed32(dst, shift_);
  PutFixed32(dst, buckets_);
  PutFixed64(dst, base_);
  for (uint32_t s : starts_) PutFixed32(dst, s);
  dst->append(prefix_);
  if (positions_ == 0) return;
  PutFixed32(dst, positions_);
  // Word w's bit j is value 64 w + j: little-endian words put value b at
  // bit b % 8 of byte b / 8, as the layout says.
  for (const auto& a : alphabets_) {
    for (uint64_t w : a) PutFixed64(dst, w);
  }
}

bool KeyOrderModel::DecodeFrom(Slice* in, uint64_t capacity,
                               uint32_t key_width, uint32_t max_positions,
                               std::string* why) {
  positions_ = 0;
  digits_.clear();
  alphabets_.clear();
  counts_.clear();
  first_in_.clear();
  last_in_.clear();
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
  SetPrefix(in->data() + (need - plen), plen);
  in->remove_prefix(need);
  capacity_ = capacity;
  if (max_positions == 0) return true;
  if (in->size() < 4) {
    *why = "digit map: too short";
    return false;
  }
  const uint32_t positions = DecodeFixed32(in->data());
  in->remove_prefix(4);
  if (positions == 0 ||
      positions > std::min(max_positions, kMaxMappedPositions)) {
    *why = "digit map: " + std::to_string(positions) + " positions";
    return false;
  }
  if (in->size() < size_t{positions} * 32) {
    *why = "digit map: too short";
    return false;
  }
  std::vector<std::array<uint64_t, 4>> alphabets(positions);
  for (uint32_t i = 0; i < positions; ++i) {
    for (uint32_t w = 0; w < 4; ++w) {
      alphabets[i][w] = DecodeFixed64(in->data() + 32 * i + 8 * w);
    }
  }
  in->remove_prefix(size_t{positions} * 32);
  // A builder takes only the positions whose radixes fit; more, or an
  // empty alphabet, could make numbers wrap.
  if (!SetDigits(alphabets) || positions_ != positions) {
    positions_ = 0;
    *why = "digit map: an empty alphabet or radixes past 2^63";
    return false;
  }
  return true;
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
