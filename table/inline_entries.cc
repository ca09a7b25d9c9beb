#include "table/inline_entries.h"
#include "table/crc32c_fast.h"

#include <cassert>
#include <algorithm>
#include <cstring>

#include "util/coding.h"
#include "util/crc32c.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

namespace {
// The slot width of a file whose entries have these extremes.
uint32_t SlotWidth(uint32_t key_width, uint32_t value_width, bool var_key,
                   bool var_value) {
  InlineShape s;
  s.key_width = key_width;
  s.value_width = value_width;
  s.var_key = var_key;
  s.var_value = var_value;
  return s.slot_width();
}
// Hash-order records sort by hash, then ordinal (unique): the order the
// hash index builder gives in memory.
bool SortedLess(const char* a, const char* b) {
  uint64_t x, y;
  memcpy(&x, a, 8);
  memcpy(&y, b, 8);
  if (x != y) return x < y;
  uint32_t i, j;
  memcpy(&i, a + 8, 4);
  memcpy(&j, b + 8, 4);
  return i < j;
}

// Order records: (ordinal, slot), by ordinal (unique).
constexpr size_t kOrderRecord = 16;
bool OrderLess(const char* a, const char* b) {
  uint64_t x, y;
  memcpy(&x, a, 8);
  memcpy(&y, b, 8);
  return x < y;
}
}  // namespace

uint32_t InlineEntryBuffer::SharedWithAll(const Slice& key) const {
  if (count_ == 0) return static_cast<uint32_t>(key.size());
  if (key.size() >= prefix_ &&
      memcmp(key.data(), first_key_.data(), prefix_) == 0) {
    return prefix_;
  }
  const uint32_t most = std::min<uint32_t>(prefix_, key.size());
  uint32_t common = 0;
  while (common < most && key[common] == first_key_[common]) ++common;
  return common;
}

bool InlineEntryBuffer::Fits(const Slice& key, size_t value_size) const {
  const size_t key_size = key.size();
  if (key_size > kInlineMaxKeyWidth || value_size > kInlineMaxValueWidth) {
    return false;
  }
  // Ordinals go to the hash index builder's 32 low address bits.
  if (count_ >= (uint64_t{1} << 32) - 1) return false;
  const bool var_key = var_key_ || (count_ > 0 && key_size != first_key_size_);
  const bool var_value =
      var_value_ || (count_ > 0 && value_size != first_value_size_);
  const uint32_t elided = elide_prefix_ ? SharedWithAll(key) : 0;
  return SlotWidth(std::max<uint32_t>(key_width_, key_size) - elided,
                   std::max<uint32_t>(value_width_, value_size), var_key,
                   var_value) <= slot_limit_;
}

bool InlineEntryBuffer::FitsWhole() const {
  return SlotWidth(key_width_, value_width_, var_key_, var_value_) <=
         slot_limit_;
}

void InlineEntryBuffer::Restride(uint32_t key_width, uint32_t value_width,
                                 uint32_t shared) {
  const uint32_t stride = 2 + (key_width - shared) + value_width;
  const size_t per_chunk = kChunkBytes / stride;
  std::vector<std::unique_ptr<char[]>> chunks;
  std::string buf;
  for (uint64_t i = 0; i < count_; ++i) {
    if (i % per_chunk == 0) chunks.emplace_back(new char[kChunkBytes]());
    Slice k, v;
    Get(i, &buf, &k, &v);
    k.remove_prefix(shared);
    char* p = chunks.back().get() + (i % per_chunk) * stride;
    p[0] = static_cast<char>(k.size());
    memcpy(p + 1, k.data(), k.size());
    p[1 + key_width - shared] = static_cast<char>(v.size());
    memcpy(p + 2 + key_width - shared, v.data(), v.size());
  }
  chunks_ = std::move(chunks);
  key_width_ = key_width;
  value_width_ = value_width;
  shared_ = shared;
  stride_ = stride;
  per_chunk_ = per_chunk;
}

void InlineEntryBuffer::Add(const Slice& key, const Slice& value) {
  assert(Fits(key, value.size()));
  prefix_ = SharedWithAll(key);
  if (count_ == 0) {
    first_key_size_ = key.size();
    first_value_size_ = value.size();
    first_key_.assign(key.data(), key.size());
  }
  var_key_ = var_key_ || key.size() != first_key_size_;
  var_value_ = var_value_ || value.size() != first_value_size_;
  if (spilled()) {
    key_width_ = std::max<uint32_t>(key_width_, key.size());
    value_width_ = std::max<uint32_t>(value_width_, value.size());
    last_key_.assign(key.data(), key.size());
    Status st = AppendArrival(key, value);
    if (!st.ok() && status_.ok()) status_ = st;
    ++count_;
    return;
  }
  // The stride leaves out at most what every key shares with the first.
  uint32_t shared = count_ == 0 ? prefix_ : shared_;
  const uint32_t common = prefix_;
  if (common < shared) {
    // Exactly while restriding is cheap; past that at most half the shared
    // bytes are kept, so that keys that share less and less, late, restride
    // the entries no more than 9 times in all.
    shared = count_ <= kExactRestrides ? common : std::min(common, shared / 2);
  }
  if (stride_ == 0 || key.size() > key_width_ || value.size() > value_width_ ||
      shared != shared_) {
    Restride(std::max<uint32_t>(key_width_, key.size()),
             std::max<uint32_t>(value_width_, value.size()), shared);
  }
  if (count_ % per_chunk_ == 0 && count_ / per_chunk_ == chunks_.size()) {
    chunks_.emplace_back(new char[kChunkBytes]());
  }
  char* p = At(count_);
  const uint32_t kw = key_width_ - shared_;
  p[0] = static_cast<char>(key.size() - shared_);
  memcpy(p + 1, key.data() + shared_, key.size() - shared_);
  p[1 + kw] = static_cast<char>(value.size());
  memcpy(p + 2 + kw, value.data(), value.size());
  ++count_;
}

void InlineEntryBuffer::Get(uint64_t i, std::string* buf, Slice* key,
                            Slice* value) const {
  const char* p = At(i);
  const uint32_t kw = key_width_ - shared_;
  *key = Slice(p + 1, static_cast<uint8_t>(p[0]));
  *value = Slice(p + 2 + kw, static_cast<uint8_t>(p[1 + kw]));
  if (shared_ != 0) {
    buf->assign(first_key_.data(), shared_);
    buf->append(key->data(), key->size());
    *key = Slice(*buf);
  }
}

Status InlineEntryBuffer::ForEach(const EntryVisit& visit) {
  if (!spilled()) {
    std::string buf;
    for (uint64_t i = 0; i < count_; ++i) {
      Slice k, v;
      Get(i, &buf, &k, &v);
      if (!visit(k, v)) break;
    }
    return Status::OK();
  }
  if (!status_.ok()) return status_;
  bool stopped = false;
  Status s = arrivals_.ForEachRecord(
      [](const Slice& in) -> size_t {
        if (in.size() < 1) return 0;
        const size_t klen = static_cast<uint8_t>(in[0]);
        if (in.size() < 2 + klen) return 0;
        return 2 + klen + static_cast<uint8_t>(in[1 + klen]);
      },
      [&](const Slice& rec) {
        const size_t klen = static_cast<uint8_t>(rec[0]);
        if (!visit(Slice(rec.data() + 1, klen),
                   Slice(rec.data() + 2 + klen, rec.size() - 2 - klen))) {
          stopped = true;
          return Status::Aborted();
        }
        return Status::OK();
      });
  return stopped ? Status::OK() : s;
}

Status InlineEntryBuffer::AppendArrival(const Slice& key, const Slice& value) {
  char rec[2 + kInlineMaxKeyWidth + kInlineMaxValueWidth];
  rec[0] = static_cast<char>(key.size());
  memcpy(rec + 1, key.data(), key.size());
  rec[1 + key.size()] = static_cast<char>(value.size());
  memcpy(rec + 2 + key.size(), value.data(), value.size());
  return arrivals_.Append(Slice(rec, 2 + key.size() + value.size()));
}

Status InlineEntryBuffer::Spill(SpillDir* dir, size_t sort_budget) {
  if (spilled()) return status_;
  Status s = arrivals_.Spill(dir);
  std::string buf;
  for (uint64_t i = 0; i < count_ && s.ok(); ++i) {
    Slice k, v;
    Get(i, &buf, &k, &v);
    if (i + 1 == count_) last_key_.assign(k.data(), k.size());
    s = AppendArrival(k, v);
  }
  chunks_.clear();
  // Spilled entries hold their whole keys.
  shared_ = 0;
  spill_dir_ = dir;
  sort_budget_ = sort_budget;
  if (!s.ok() && status_.ok()) status_ = s;
  return status_;
}

void InlineEntryBuffer::EncodeSorted(uint64_t hash, uint64_t ordinal,
                                     const Slice& key, const Slice& value,
                                     char* rec) const {
  const uint32_t ord = static_cast<uint32_t>(ordinal);
  memcpy(rec, &hash, 8);
  memcpy(rec + 8, &ord, 4);
  char* p = rec + kSortHead;
  memset(p, 0, 2 + key_width_ + value_width_);
  p[0] = static_cast<char>(key.size());
  memcpy(p + 1, key.data(), key.size());
  p[1 + key_width_] = static_cast<char>(value.size());
  memcpy(p + 2 + key_width_, value.data(), value.size());
}

void InlineEntryBuffer::DecodeSorted(const char* rec, uint64_t* hash,
                                     uint64_t* ordinal, Slice* key,
                                     Slice* value) const {
  uint32_t ord;
  memcpy(hash, rec, 8);
  memcpy(&ord, rec + 8, 4);
  *ordinal = ord;
  const char* p = rec + kSortHead;
  *key = Slice(p + 1, static_cast<uint8_t>(p[0]));
  *value = Slice(p + 2 + key_width_, static_cast<uint8_t>(p[1 + key_width_]));
}

InlineShape InlineEntryBuffer::shape() const {
  InlineShape s;
  s.key_width = key_width_;
  s.value_width = value_width_;
  s.var_key = var_key_;
  s.var_value = var_value_;
  if (key_ordered_) {
    // Every key starts with the model's prefix (its first and last keys
    // share it, and the keys are in order): the slots leave it out.
    s.elided = static_cast<uint32_t>(model_.prefix_len());
    s.key_width -= s.elided;
  }
  return s;
}

size_t InlineEntryBuffer::MemoryUsage() const {
  return chunks_.size() * kChunkBytes + index_.MemoryUsage() +
         arrivals_.MemoryUsage() + (by_hash_ ? by_hash_->MemoryUsage() : 0) +
         (order_ ? order_->MemoryUsage() : 0);
}

uint64_t InlineEntryBuffer::EstimatedFileBytes(double load_factor,
                                               bool order_array) const {
  return Estimate(load_factor, order_array, elide_prefix_ && !key_ordered_);
}

uint64_t InlineEntryBuffer::EstimatedHashOrderBytes(double load_factor,
                                                    bool order_array) const {
  return Estimate(load_factor, order_array, false);
}

uint64_t InlineEntryBuffer::Estimate(double load_factor, bool order_array,
                                     bool as_key_order) const {
  const uint64_t slots = IndexCapacity(count_, load_factor);
  InlineShape s = shape();
  if (as_key_order) {
    s.elided = prefix_;
    s.key_width -= prefix_;
  }
  const bool with_order = order_array && !as_key_order && !key_ordered_;
  return SlotPages::Of(s, kFormatVersionInlineFile).SectionBytes(slots) +
         (with_order ? count_ * OrderWidthFor(slots) : 0) +
         count_ / kInlineSampleInterval * (key_width_ + 10);
}

bool InlineEntryBuffer::Plan(double load_factor, HashFunction hash,
                             uint64_t seed, IndexGeometry* geometry) {
  key_ordered_ = false;
  if (spilled()) {
    const size_t rb = kSortHead + 2 + key_width_ + value_width_;
    by_hash_.reset(new SpillSorter(spill_dir_, rb, &SortedLess, sort_budget_));
    std::string rec(rb, '\0');
    uint64_t ordinal = 0;
    Status s;
    Status f = ForEach([&](const Slice& k, const Slice& v) {
      EncodeSorted(hash(k, seed), ordinal++, k, v, &rec[0]);
      s = by_hash_->Add(rec.data());
      return s.ok();
    });
    if (s.ok()) s = f;
    IndexGeometry geo;
    geo.keys = count_;
    geo.capacity = IndexCapacity(count_, load_factor);
    geo.address_bits = 0;
    Placement place;
    if (s.ok()) {
      s = by_hash_->ForEach([&](const char* r) {
        uint64_t h;
        memcpy(&h, r, 8);
        place.Place(HomeOf(h, geo.capacity), &geo);
        return Status::OK();
      });
    }
    geo.slots = std::max(place.next_free(), geo.capacity);
    if (!s.ok()) {
      if (status_.ok()) status_ = s;
      return false;
    }
    geo_ = geo;
    *geometry = geo;
    return geo.max_displacement <= kInlineMaxDisplacement;
  }
  std::string buf;
  for (uint64_t i = index_.num_keys(); i < count_; ++i) {
    Slice k, v;
    Get(i, &buf, &k, &v);
    index_.Add(hash(k, seed), i);
  }
  geo_ = index_.Plan(load_factor);
  *geometry = geo_;
  return geo_.max_displacement <= kInlineMaxDisplacement;
}

Status InlineEntryBuffer::WriteSlots(const Sink& sink, bool order,
                                     uint32_t* crc) {
  const InlineShape sh = shape();
  const SlotPages paging = SlotPages::Of(sh, kFormatVersionInlineFile);
  const uint32_t width = paging.width;
  const uint32_t page_slots = paging.page_slots;
  std::string page;
  page.reserve(paging.stride);
  uint64_t next = 0;  // slot number of the next byte of `page`'s end
  uint32_t all = 0;
  Status s;
  auto flush = [&]() {
    // A full page is padded to its stride; each ends with its CRC.
    if (next % page_slots == 0) page.resize(paging.stride - 4, '\0');
    PutFixed32(&page, crc32c::Mask(Crc32c(page.data(), page.size())));
    all = Crc32cExtend(all, page.data(), page.size());
    if (s.ok()) s = sink(page);
    page.clear();
  };
  auto put = [&](uint32_t dist, const Slice& k, const Slice& v) {
    const size_t at = page.size();
    page.resize(at + width);
    if (dist == 0) {
      memset(&page[at], 0, width);
    } else {
      sh.EncodeSlot(dist, k, v, &page[at]);
    }
    if (++next % page_slots == 0) flush();
  };
  Status v;
  if (key_ordered_) {
    // Keys arrived in order, and key order is slot order.
    Placement place;
    v = ForEach([&](const Slice& k, const Slice& val) {
      const uint64_t home = model_.Home(k);
      const uint64_t slot = place.Place(home);
      while (next < slot) put(0, Slice(), Slice());
      put(static_cast<uint32_t>(slot - home + 1),
          Slice(k.data() + sh.elided, k.size() - sh.elided), val);
      return s.ok();
    });
  } else if (spilled()) {
    if (order) {
      order_.reset(new SpillSorter(spill_dir_, kOrderRecord, &OrderLess,
                                   sort_budget_ / 2));
    }
    Placement place;
    char rec[kOrderRecord];
    v = by_hash_->ForEach([&](const char* r) {
      uint64_t hash, ordinal;
      Slice k, val;
      DecodeSorted(r, &hash, &ordinal, &k, &val);
      const uint64_t home = HomeOf(hash, geo_.capacity);
      const uint64_t slot = place.Place(home);
      while (next < slot) put(0, Slice(), Slice());
      put(static_cast<uint32_t>(slot - home + 1), k, val);
      if (!s.ok() || order_ == nullptr) return s;
      memcpy(rec, &ordinal, 8);
      memcpy(rec + 8, &slot, 8);
      return order_->Add(rec);
    });
    by_hash_.reset();
  } else {
    HashIndex homes;
    homes.Init(nullptr, geo_);
    std::string key_buf;
    v = index_.VisitSlots(
      geo_, [&](uint64_t slot, uint64_t hash, uint64_t ordinal,
                uint64_t ahead) {
        // Entries are read in hash order, at random: fetch ahead.
        if (ahead != HashIndexBuilder::kNoAddress) __builtin_prefetch(At(ahead));
        while (next < slot) put(0, Slice(), Slice());
        Slice k, val;
        Get(ordinal, &key_buf, &k, &val);
        put(static_cast<uint32_t>(slot - homes.Home(hash) + 1), k, val);
        return s;
      });
  }
  while (next < geo_.slots) put(0, Slice(), Slice());
  if (!page.empty()) flush();
  chunks_.clear();
  arrivals_.Clear();
  *crc = all;
  return s.ok() ? v : s;
}

Status InlineEntryBuffer::WriteOrder(const Sink& sink) {
  const uint32_t w = OrderWidthFor(geo_.slots);
  constexpr size_t kPiece = 64 << 10;
  std::string buf;
  buf.reserve(kPiece + 8);
  auto emit = [&](uint64_t slot) {
    for (uint32_t i = 0; i < w; ++i) {
      buf.push_back(static_cast<char>(slot >> (8 * i)));
    }
    if (buf.size() < kPiece) return Status::OK();
    Status s = sink(buf);
    buf.clear();
    return s;
  };
  Status s;
  if (order_ != nullptr) {
    uint64_t expected = 0;
    s = order_->ForEach([&](const char* r) {
      uint64_t ordinal, slot;
      memcpy(&ordinal, r, 8);
      memcpy(&slot, r + 8, 8);
      if (ordinal != expected++) {
        return Status::Corruption("RobinHoodTable: entry ordinals repeat");
      }
      return emit(slot);
    });
    order_.reset();
  } else {
    s = index_.SlotsByAddress(emit);
  }
  if (s.ok() && !buf.empty()) s = sink(buf);
  return s;
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
