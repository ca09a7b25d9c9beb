#include "table/hash_filter.h"

#include <algorithm>
#include <cassert>
#include <cstring>

#include "table/spill_sorter.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

namespace {
bool HashLess(const char* a, const char* b) {
  return DecodeFixed64(a) < DecodeFixed64(b);
}

uint64_t BlockIndex(uint64_t hash, uint64_t blocks) {
  return ((hash >> 32) * blocks) >> 32;
}

void SetBits(uint64_t hash, uint32_t probes, uint8_t* block) {
  uint32_t x = static_cast<uint32_t>(hash);
  for (uint32_t i = 0; i < probes; ++i) {
    const uint32_t bit = x >> 23;
    block[bit >> 3] |= static_cast<uint8_t>(1u << (bit & 7));
    x *= 0x9e3779b9u;
  }
}

// The block index is FastRange32 of the hash's top half.
constexpr uint64_t kMaxBlocks = uint64_t{1} << 32;
}  // namespace

uint32_t HashFilterProbes(uint32_t bits_per_key) {
  const uint32_t k = (bits_per_key * 6 + 5) / 10;
  return std::max<uint32_t>(1, std::min(k, kMaxHashFilterProbes));
}

HashFilterBuilder::HashFilterBuilder(uint32_t bits_per_key)
    : bits_(bits_per_key) {
  assert(bits_ >= kMinHashFilterBits && bits_ <= kMaxHashFilterBits);
}

HashFilterBuilder::~HashFilterBuilder() = default;

Status HashFilterBuilder::Add(uint64_t hash) {
  ++keys_;
  if (sorter_ == nullptr) {
    held_.push_back(hash);
    return Status::OK();
  }
  char record[8];
  EncodeFixed64(record, hash);
  return sorter_->Add(record);
}

size_t HashFilterBuilder::MemoryUsage() const {
  return held_.capacity() * sizeof(uint64_t) +
         (sorter_ != nullptr ? sorter_->MemoryUsage() : 0);
}

Status HashFilterBuilder::Spill(SpillDir* dir, size_t budget) {
  if (sorter_ != nullptr) return Status::OK();
  sorter_.reset(new SpillSorter(dir, 8, HashLess, budget));
  char record[8];
  for (uint64_t h : held_) {
    EncodeFixed64(record, h);
    Status s = sorter_->Add(record);
    if (!s.ok()) return s;
  }
  std::vector<uint64_t>().swap(held_);
  return Status::OK();
}

uint64_t HashFilterBuilder::Blocks() const {
  const unsigned __int128 bits = static_cast<unsigned __int128>(keys_) * bits_;
  const unsigned __int128 blocks = (bits + 511) / 512;
  return blocks == 0 ? 1
                     : (blocks > kMaxBlocks ? kMaxBlocks + 1
                                            : static_cast<uint64_t>(blocks));
}

uint64_t HashFilterBuilder::FilterBytes() const {
  return Blocks() * kHashFilterBlockBytes + kHashFilterTail;
}

Status HashFilterBuilder::Finish(const Sink& sink) {
  const uint64_t blocks = Blocks();
  if (blocks > kMaxBlocks) {
    return Status::NotSupported("RobinHoodTable: hash filter over 256 GiB");
  }
  const uint32_t probes = HashFilterProbes(bits_);
  Status s;
  if (sorter_ == nullptr) {
    std::string all(blocks * kHashFilterBlockBytes, '\0');
    uint8_t* at = reinterpret_cast<uint8_t*>(&all[0]);
    for (uint64_t h : held_) {
      SetBits(h, probes, at + BlockIndex(h, blocks) * kHashFilterBlockBytes);
    }
    s = sink(all);
  } else {
    // Hashes in order give blocks in order: one block is built at a time,
    // the empty ones between are written as they are passed.
    uint8_t block[kHashFilterBlockBytes] = {};
    const Slice block_bytes(reinterpret_cast<const char*>(block),
                            sizeof(block));
    uint64_t current = 0;
    s = sorter_->ForEach([&](const char* record) {
      const uint64_t h = DecodeFixed64(record);
      const uint64_t i = BlockIndex(h, blocks);
      assert(i >= current);
      for (; current < i; ++current) {
        Status w = sink(block_bytes);
        if (!w.ok()) return w;
        memset(block, 0, sizeof(block));
      }
      SetBits(h, probes, block);
      return Status::OK();
    });
    for (; s.ok() && current < blocks; ++current) {
      s = sink(block_bytes);
      memset(block, 0, sizeof(block));
    }
  }
  if (!s.ok()) return s;
  char tail[kHashFilterTail];
  EncodeFixed32(tail, probes);
  return sink(Slice(tail, sizeof(tail)));
}

bool HashFilterReader::Init(const Slice& filter) {
  if (filter.size() < kHashFilterBlockBytes + kHashFilterTail ||
      (filter.size() - kHashFilterTail) % kHashFilterBlockBytes != 0) {
    return false;
  }
  const uint64_t blocks =
      (filter.size() - kHashFilterTail) / kHashFilterBlockBytes;
  const uint32_t probes =
      DecodeFixed32(filter.data() + filter.size() - kHashFilterTail);
  if (blocks > kMaxBlocks || probes == 0 || probes > kMaxHashFilterProbes) {
    return false;
  }
  blocks_at_ = reinterpret_cast<const uint8_t*>(filter.data());
  blocks_ = blocks;
  probes_ = probes;
  return true;
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
