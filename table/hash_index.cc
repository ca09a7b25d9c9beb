#include "table/hash_index.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <string>

#include "util/xxhash.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

uint64_t KeyHash(const Slice& key, uint64_t seed) {
  return XXH3_64bits_withSeed(key.data(), key.size(), seed) & ~kHashLowMask;
}

uint64_t IndexCapacity(uint64_t keys, double load_factor) {
  uint64_t cap = static_cast<uint64_t>(std::ceil(keys / load_factor));
  return std::max<uint64_t>(cap, std::max<uint64_t>(keys, 1));
}

uint32_t AddressBitsFor(uint64_t logical_bytes) {
  uint32_t bits = kMinAddressBits;
  while (bits <= kMaxAddressBits && (logical_bytes >> bits) != 0) ++bits;
  return bits <= kMaxAddressBits ? bits : 0;
}

HashIndexBuilder::HashIndexBuilder() = default;
HashIndexBuilder::~HashIndexBuilder() = default;

bool HashIndexBuilder::Record::Less(const char* a, const char* b) {
  Record x, y;
  memcpy(&x, a, sizeof(x));
  memcpy(&y, b, sizeof(y));
  return x < y;
}

void HashIndexBuilder::SpillPast(SpillDir* dir, size_t budget) {
  assert(num_keys_ == 0);
  spill_dir_ = dir;
  spill_budget_ = budget;
  spilled_.reset(new SpillSorter(dir, sizeof(Record), &Record::Less, budget));
}

void HashIndexBuilder::Add(uint64_t hash, uint64_t address) {
  assert((hash & kHashLowMask) == 0);
  assert(address >> kMaxAddressBits == 0);
  if (spilled_ != nullptr) {
    Record r;
    r.hash_and_high =
        hash | ((address >> kRecordLowAddressBits) & kHashLowMask);
    r.address_low = static_cast<uint32_t>(address);
    Status s = spilled_->Add(reinterpret_cast<const char*>(&r));
    if (!s.ok() && status_.ok()) status_ = s;
    ++num_keys_;
    return;
  }
  if (in_last_chunk_ == kChunkRecords) {
    chunks_.emplace_back(new Record[kChunkRecords]);
    in_last_chunk_ = 0;
  }
  Record& r = chunks_.back()[in_last_chunk_++];
  r.hash_and_high = hash | ((address >> kRecordLowAddressBits) & kHashLowMask);
  r.address_low = static_cast<uint32_t>(address);
  ++num_keys_;
}

void HashIndexBuilder::RadixSort(size_t lo, size_t hi, int byte) {
  constexpr size_t kInsertionSortMax = 32;
  if (hi - lo <= kInsertionSortMax || byte >= kSortKeyBytes) {
    for (size_t i = lo + 1; i < hi; ++i) {
      const Record r = At(i);
      size_t j = i;
      for (; j > lo && r < At(j - 1); --j) At(j) = At(j - 1);
      At(j) = r;
    }
    return;
  }
  // Bytes 0..7 of the sort key are hash_and_high's, most significant
  // first (byte 7 holds address bits 32..39), then address_low's: equal
  // hashes sort by address, so the layout never depends on input order.
  auto digit = [byte](const Record& r) {
    return static_cast<size_t>(
        byte < 8 ? (r.hash_and_high >> (56 - 8 * byte)) & 0xff
                 : (r.address_low >> (24 - 8 * (byte - 8))) & 0xff);
  };
  size_t count[256] = {};
  for (size_t i = lo; i < hi; ++i) ++count[digit(At(i))];
  size_t next[256], end[256];
  size_t pos = lo;
  for (size_t b = 0; b < 256; ++b) {
    next[b] = pos;
    pos += count[b];
    end[b] = pos;
  }
  // Move each record straight to its bucket, following cycles.
  for (size_t b = 0; b < 256; ++b) {
    while (next[b] < end[b]) {
      Record r = At(next[b]);
      size_t d = digit(r);
      while (d != b) {
        std::swap(r, At(next[d]++));
        d = digit(r);
      }
      At(next[b]++) = r;
    }
  }
  size_t start = lo;
  for (size_t b = 0; b < 256; ++b) {
    if (end[b] - start > 1) RadixSort(start, end[b], byte + 1);
    start = end[b];
  }
}

size_t HashIndexBuilder::MemoryUsage() const {
  return chunks_.size() * (kChunkRecords * sizeof(Record) + sizeof(void*)) +
         (spilled_ ? spilled_->MemoryUsage() : 0) +
         (by_address_ ? by_address_->MemoryUsage() : 0);
}

Status HashIndexBuilder::ForEachSorted(
    const std::function<Status(Record*)>& visit) {
  if (!status_.ok()) return status_;
  if (spilled_ != nullptr) {
    return spilled_->ForEach([&](const char* p) {
      Record r;
      memcpy(&r, p, sizeof(r));
      return visit(&r);
    });
  }
  if (!sorted_) RadixSort(0, num_keys_, 0);
  sorted_ = true;
  for (size_t k = 0; k < num_keys_; ++k) {
    Status s = visit(&At(k));
    if (!s.ok()) return s;
  }
  return Status::OK();
}

IndexGeometry HashIndexBuilder::Plan(double load_factor) {
  IndexGeometry geo;
  geo.keys = num_keys_;
  geo.capacity = IndexCapacity(num_keys_, load_factor);
  geo.address_bits = 0;
  HashIndex shape;  // Home() of this capacity; reads no slots
  shape.Init(nullptr, geo);
  Placement place;
  Status s = ForEachSorted([&](Record* r) {
    place.Place(shape.Home(r->hash_and_high & ~kHashLowMask), &geo);
    return Status::OK();
  });
  if (!s.ok() && status_.ok()) status_ = s;
  geo.slots = std::max(place.next_free(), geo.capacity);
  return geo;
}

Status HashIndexBuilder::VisitSlots(const IndexGeometry& geo,
                                    const Visit& visit) {
  HashIndex shape;
  shape.Init(nullptr, geo);
  auto address_of = [](const Record& r) {
    return ((r.hash_and_high & kHashLowMask) << kRecordLowAddressBits) |
           r.address_low;
  };
  constexpr size_t kAhead = 16;
  Placement place;
  if (spilled_ != nullptr) {
    // Records come from a merge: nothing to look ahead at, and the
    // (address, slot) pairs for SlotsByAddress go to a sorter of their own.
    if (keep_by_address_) {
      by_address_.reset(new SpillSorter(spill_dir_, sizeof(Record),
                                        &Record::Less, spill_budget_));
    }
    return ForEachSorted([&](Record* rec) {
      const uint64_t hash = rec->hash_and_high & ~kHashLowMask;
      const uint64_t address = address_of(*rec);
      const uint64_t slot = place.Place(shape.Home(hash));
      Status s = visit(slot, hash, address, kNoAddress);
      if (!s.ok() || by_address_ == nullptr) return s;
      Record by;
      by.hash_and_high = (address << 32) | (slot >> 32);
      by.address_low = static_cast<uint32_t>(slot);
      return by_address_->Add(reinterpret_cast<const char*>(&by));
    });
  }
  for (size_t k = 0; k < num_keys_; ++k) {
    Record& rec = At(k);
    const uint64_t hash = rec.hash_and_high & ~kHashLowMask;
    const uint64_t address = address_of(rec);
    const uint64_t slot = place.Place(shape.Home(hash));
    Status s = visit(slot, hash, address,
                     k + kAhead < num_keys_ ? address_of(At(k + kAhead))
                                            : kNoAddress);
    if (!s.ok()) return s;
    // For SlotsByAddress, which sorts by the first field: the address
    // (< 2^32 there) above the slot's top 8 bits, the slot's low 32 bits.
    rec.hash_and_high = (address << 32) | (slot >> 32);
    rec.address_low = static_cast<uint32_t>(slot);
  }
  sorted_ = false;
  return Status::OK();
}

Status HashIndexBuilder::SlotsByAddress(
    const std::function<Status(uint64_t slot)>& emit) {
  auto emit_record = [&emit](uint64_t i, const Record& r) {
    if ((r.hash_and_high >> 32) != i) {
      return Status::Corruption("RobinHoodTable: entry ordinals repeat");
    }
    return emit(((r.hash_and_high & 0xff) << 32) | r.address_low);
  };
  Status s;
  if (by_address_ != nullptr) {
    uint64_t i = 0;
    s = by_address_->ForEach([&](const char* p) {
      Record r;
      memcpy(&r, p, sizeof(r));
      return emit_record(i++, r);
    });
    by_address_.reset();
    spilled_.reset();
    return s;
  }
  // The same radix sort as by hash, which streams through 256 buckets
  // where following the permutation's cycles would jump at random.
  RadixSort(0, num_keys_, 0);
  for (size_t i = 0; i < num_keys_ && s.ok(); ++i) s = emit_record(i, At(i));
  chunks_.clear();
  in_last_chunk_ = kChunkRecords;
  return s;
}

Status HashIndexBuilder::Finish(double load_factor, uint64_t logical_bytes,
                                const Sink& sink, IndexGeometry* geometry) {
  const uint32_t address_bits = AddressBitsFor(logical_bytes);
  if (address_bits == 0) {
    return Status::NotSupported("RobinHoodTable: log of " +
                                std::to_string(logical_bytes) +
                                " bytes exceeds the format's 1 TiB limit");
  }
  IndexGeometry geo = Plan(load_factor);
  if (!status_.ok()) return status_;
  geo.address_bits = address_bits;
  keep_by_address_ = false;  // the log layout has no order array
  HashIndex shape;  // the slot codec of this geometry; reads no slots
  shape.Init(nullptr, geo);

  std::string buf;
  constexpr size_t kFlushBytes = 1 << 16;
  uint64_t next_free = 0;  // first slot not yet written
  Status s;
  auto put_slot = [&](uint64_t word) {
    PutFixed64(&buf, word);
    if (buf.size() >= kFlushBytes) {
      if (s.ok()) s = sink(buf);
      buf.clear();
    }
  };
  Status v = VisitSlots(geo, [&](uint64_t slot, uint64_t hash,
                                 uint64_t address, uint64_t /*ahead*/) {
    for (; next_free < slot; ++next_free) put_slot(0);
    put_slot(shape.EncodeSlot(shape.Tag(hash), slot - shape.Home(hash),
                              address));
    ++next_free;
    return Status::OK();
  });
  for (; next_free < geo.slots; ++next_free) put_slot(0);
  if (!buf.empty() && s.ok()) s = sink(buf);
  chunks_.clear();
  in_last_chunk_ = kChunkRecords;
  by_address_.reset();
  spilled_.reset();
  *geometry = geo;
  return s.ok() ? v : s;
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
