#include "table/hash_index.h"

#include <algorithm>
#include <cmath>
#include <queue>
#include <string>

#include "util/xxhash.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

uint64_t KeyHash(const Slice& key, uint64_t seed) {
  return XXH3_64bits_withSeed(key.data(), key.size(), seed) & ~uint64_t{0xff};
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

void HashIndexBuilder::Add(uint64_t hash, uint64_t address) {
  if (in_last_chunk_ == kChunkRecords) {
    if (!chunks_.empty()) {
      std::sort(chunks_.back().get(), chunks_.back().get() + kChunkRecords);
    }
    chunks_.emplace_back(new Record[kChunkRecords]);
    in_last_chunk_ = 0;
  }
  Record& r = chunks_.back()[in_last_chunk_++];
  r.hash_and_high = hash | ((address >> 32) & 0xff);
  r.address_low = static_cast<uint32_t>(address);
  ++num_keys_;
}

size_t HashIndexBuilder::MemoryUsage() const {
  return chunks_.size() * (kChunkRecords * sizeof(Record) + sizeof(void*));
}

Status HashIndexBuilder::Finish(double load_factor, uint64_t logical_bytes,
                                const Sink& sink, IndexGeometry* geometry) {
  IndexGeometry geo;
  geo.keys = num_keys_;
  geo.capacity = IndexCapacity(num_keys_, load_factor);
  geo.address_bits = AddressBitsFor(logical_bytes);
  if (geo.address_bits == 0) {
    return Status::NotSupported("RobinHoodTable: log of " +
                                std::to_string(logical_bytes) +
                                " bytes exceeds the format's 1 TiB limit");
  }
  if (!chunks_.empty()) {
    std::sort(chunks_.back().get(), chunks_.back().get() + in_last_chunk_);
  }

  // Merge the sorted chunks; (record, chunk) pairs, smallest on top.
  struct Head {
    Record rec;
    size_t chunk;
    bool operator>(const Head& o) const { return o.rec < rec; }
  };
  std::priority_queue<Head, std::vector<Head>, std::greater<Head>> heads;
  std::vector<size_t> next(chunks_.size(), 1);
  for (size_t c = 0; c < chunks_.size(); ++c) {
    size_t n = c + 1 == chunks_.size() ? in_last_chunk_ : kChunkRecords;
    if (n > 0) heads.push(Head{chunks_[c][0], c});
  }

  HashIndex shape;  // only for Home() and the bit positions
  shape.Init(nullptr, geo);
  const uint32_t addr_bits = geo.address_bits;
  const uint32_t tag_shift = addr_bits + kDisplacementBits;

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

  while (!heads.empty()) {
    Head h = heads.top();
    heads.pop();
    size_t c = h.chunk;
    size_t n = c + 1 == chunks_.size() ? in_last_chunk_ : kChunkRecords;
    if (next[c] < n) heads.push(Head{chunks_[c][next[c]++], c});

    const uint64_t hash = h.rec.hash_and_high & ~uint64_t{0xff};
    const uint64_t address =
        ((h.rec.hash_and_high & 0xff) << 32) | h.rec.address_low;
    const uint64_t home = shape.Home(hash);
    while (next_free < home) {
      put_slot(0);
      ++next_free;
    }
    const uint64_t disp = next_free - home;
    const uint64_t tag = (hash * geo.capacity) >> tag_shift;
    put_slot((tag << tag_shift) |
             (std::min(disp, kSaturatedDisplacement) << addr_bits) |
             (address + 1));
    ++next_free;
    geo.max_displacement =
        static_cast<uint32_t>(std::max<uint64_t>(geo.max_displacement, disp));
    geo.total_displacement += disp;
  }
  while (next_free < geo.capacity) {
    put_slot(0);
    ++next_free;
  }
  if (!buf.empty() && s.ok()) s = sink(buf);
  geo.slots = next_free;
  chunks_.clear();
  *geometry = geo;
  return s;
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
