#include "table/hash_filter.h"

#include <algorithm>
#include <cassert>
#include <cstring>

#include "table/crc32c_fast.h"
#include "table/spill_sorter.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

namespace {
bool HashLess(const char* a, const char* b) {
  return DecodeFixed64(a) < DecodeFixed64(b);
}

void SetBits(uint64_t hash, uint32_t probes, uint8_t* block) {
  ForEachHashFilterBit(hash, probes, [block](uint32_t bit) {
    block[bit >> 3] |= static_cast<uint8_t>(1u << (bit & 7));
    return true;
  });
}

// m is a fixed32; the block index FastRange32 of the hash's top half.
constexpr uint64_t kMaxBlocks = UINT32_MAX;
constexpr uint64_t kPageBytes =
    uint64_t{kHashFilterPageBlocks} * kHashFilterBlockBytes;

uint64_t PagesOf(uint64_t blocks) {
  return (blocks + kHashFilterPageBlocks - 1) / kHashFilterPageBlocks;
}

// The page crcs, m, probes and their crc.
std::string Tail(const std::string& page_crcs, uint64_t blocks,
                 uint32_t probes) {
  std::string tail = page_crcs;
  PutFixed32(&tail, static_cast<uint32_t>(blocks));
  PutFixed32(&tail, probes);
  PutFixed32(&tail, crc32c::Mask(Crc32c(tail.data(), tail.size())));
  return tail;
}
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
    // Chunks, not one vector: no doubling, no copy of it all.
    if (held_.empty() || held_.back().size() == kHeldChunk) {
      held_.emplace_back();
      held_.back().reserve(kHeldChunk);
    }
    held_.back().push_back(hash);
    return Status::OK();
  }
  char record[8];
  EncodeFixed64(record, hash);
  return sorter_->Add(record);
}

size_t HashFilterBuilder::MemoryUsage() const {
  return held_.size() * kHeldChunk * sizeof(uint64_t) +
         (sorter_ != nullptr ? sorter_->MemoryUsage() : 0);
}

Status HashFilterBuilder::Spill(SpillDir* dir, size_t budget) {
  if (sorter_ != nullptr) return Status::OK();
  sorter_.reset(new SpillSorter(dir, 8, HashLess, budget));
  char record[8];
  for (const std::vector<uint64_t>& chunk : held_) {
    for (uint64_t h : chunk) {
      EncodeFixed64(record, h);
      Status s = sorter_->Add(record);
      if (!s.ok()) return s;
    }
  }
  held_.clear();
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
  const uint64_t blocks = Blocks();
  return blocks * kHashFilterBlockBytes + PagesOf(blocks) * 4 +
         kHashFilterFixedTail;
}

Status HashFilterBuilder::Finish(const Sink& sink) {
  const uint64_t blocks = Blocks();
  if (blocks > kMaxBlocks) {
    return Status::NotSupported("RobinHoodTable: hash filter over 256 GiB");
  }
  const uint32_t probes = HashFilterProbes(bits_);
  std::string page_crcs;
  Status s;
  if (sorter_ == nullptr) {
    std::string all(blocks * kHashFilterBlockBytes, '\0');
    uint8_t* at = reinterpret_cast<uint8_t*>(&all[0]);
    // Each key's block is a cache miss in a filter larger than the cache:
    // ask for the block of a key kAhead keys on, so the misses overlap.
    constexpr size_t kAhead = 16;
    for (const std::vector<uint64_t>& chunk : held_) {
      const size_t n = chunk.size();
      for (size_t i = 0; i < n; ++i) {
        if (i + kAhead < n) {
          __builtin_prefetch(at + HashFilterBlock(chunk[i + kAhead], blocks) *
                                      kHashFilterBlockBytes,
                             1);
        }
        const uint64_t h = chunk[i];
        SetBits(h, probes, at + HashFilterBlock(h, blocks) * kHashFilterBlockBytes);
      }
    }
    for (uint64_t off = 0; off < all.size(); off += kPageBytes) {
      const size_t n = std::min<uint64_t>(kPageBytes, all.size() - off);
      PutFixed32(&page_crcs, crc32c::Mask(Crc32c(all.data() + off, n)));
    }
    s = sink(all);
  } else {
    // Hashes in order give blocks in order: one block is built at a time,
    // the empty ones between are written as they are passed, and each
    // page's crc is taken as it goes.
    uint8_t block[kHashFilterBlockBytes] = {};
    const Slice block_bytes(reinterpret_cast<const char*>(block),
                            sizeof(block));
    uint64_t current = 0;
    uint32_t crc = 0;
    auto emit = [&]() {
      crc = Crc32cExtend(crc, block_bytes.data(), block_bytes.size());
      ++current;
      if (current % kHashFilterPageBlocks == 0 || current == blocks) {
        PutFixed32(&page_crcs, crc32c::Mask(crc));
        crc = 0;
      }
      Status w = sink(block_bytes);
      memset(block, 0, sizeof(block));
      return w;
    };
    s = sorter_->ForEach([&](const char* record) {
      const uint64_t h = DecodeFixed64(record);
      const uint64_t i = HashFilterBlock(h, blocks);
      assert(i >= current);
      while (current < i) {
        Status w = emit();
        if (!w.ok()) return w;
      }
      SetBits(h, probes, block);
      return Status::OK();
    });
    while (s.ok() && current < blocks) s = emit();
    // The runs go now, not with the builder.
    sorter_->Clear();
  }
  held_.clear();
  if (!s.ok()) return s;
  return sink(Tail(page_crcs, blocks, probes));
}

bool HashFilterReader::Init(const Slice& filter, bool pages_checked,
                            const char** why) {
  *why = nullptr;
  const uint64_t size = filter.size();
  if (size < kHashFilterBlockBytes + 4 + kHashFilterFixedTail) {
    *why = "hash filter too short";
    return false;
  }
  const char* end = filter.data() + size;
  const uint64_t blocks = DecodeFixed32(end - 12);
  const uint32_t probes = DecodeFixed32(end - 8);
  const uint64_t pages = PagesOf(blocks);
  if (blocks == 0 || probes == 0 || probes > kMaxHashFilterProbes ||
      blocks * kHashFilterBlockBytes + pages * 4 + kHashFilterFixedTail !=
          size) {
    *why = "bad hash filter sizes";
    return false;
  }
  const char* tail = end - kHashFilterFixedTail - pages * 4;
  if (crc32c::Unmask(DecodeFixed32(end - 4)) !=
      Crc32c(tail, pages * 4 + 8)) {
    *why = "hash filter tail checksum mismatch";
    return false;
  }
  blocks_at_ = reinterpret_cast<const uint8_t*>(filter.data());
  page_crcs_ = tail;
  blocks_ = blocks;
  probes_ = probes;
  pages_checked_ = pages_checked;
  if (!pages_checked) verified_.Reset(pages);
  return true;
}

bool HashFilterReader::CheckPage(uint64_t page) const {
  const uint64_t first = page * kHashFilterPageBlocks;
  const uint64_t n = std::min<uint64_t>(kHashFilterPageBlocks, blocks_ - first);
  const char* at =
      reinterpret_cast<const char*>(blocks_at_ + first * kHashFilterBlockBytes);
  if (crc32c::Unmask(DecodeFixed32(page_crcs_ + page * 4)) !=
      Crc32c(at, n * kHashFilterBlockBytes)) {
    return false;
  }
  verified_.Set(page);
  return true;
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
