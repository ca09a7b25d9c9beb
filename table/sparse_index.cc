#include "table/sparse_index.h"

#include "table/robinhood_format.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

const char kSparseKeysOutOfOrder[] = "keys out of order";

void SparseIndexBuilder::Add(const Slice& internal_key, uint64_t address) {
  scratch_.clear();
  PutLengthPrefixedSlice(&scratch_, internal_key);
  PutVarint64(&scratch_, address - last_address_);
  last_address_ = address;
  ++count_;
  Status s = records_.Append(scratch_);
  if (!s.ok() && status_.ok()) status_ = s;
}

std::string SparseIndexBuilder::Finish() {
  std::string out;
  Finish([&out](const Slice& piece) {
    out.append(piece.data(), piece.size());
    return Status::OK();
  }).PermitUncheckedError();
  return out;
}

Status SparseIndexBuilder::Finish(
    const std::function<Status(const Slice&)>& sink) {
  if (!status_.ok()) return status_;
  std::string count;
  PutVarint64(&count, count_);
  Status s = sink(count);
  if (s.ok()) s = records_.ForEachPiece(sink);
  records_.Clear();  // its temporary file, once read
  return s;
}

Status SparseIndex::Init(const Slice& contents, uint64_t log_logical_bytes,
                         const InternalKeyComparator* icmp,
                         const std::string& file, uint64_t section_offset) {
  auto bad = [&](const char* what) {
    return CorruptionAt(file, "sparse index", what, section_offset);
  };
  icmp_ = icmp;
  Slice in = contents;
  uint64_t count = 0;
  // A record takes at least 1 + 8 + 1 bytes.
  if (!GetVarint64(&in, &count) || count > in.size() / 10) {
    return bad("bad record count");
  }
  keys_.clear();
  keys_.reserve(in.size());
  key_offsets_.assign(1, 0);
  key_offsets_.reserve(count + 1);
  addresses_.clear();
  addresses_.reserve(count);
  uint64_t address = 0;
  for (uint64_t i = 0; i < count; ++i) {
    Slice key;
    uint64_t delta = 0;
    if (!GetLengthPrefixedSlice(&in, &key) || !GetVarint64(&in, &delta)) {
      return bad("truncated");
    }
    if (key.size() < kNumInternalBytes) return bad("key too short");
    if (i == 0 ? delta != 0 : delta > log_logical_bytes - address) {
      return bad("address out of order");
    }
    address += delta;
    if (address >= log_logical_bytes) return bad("address past the log");
    if (i > 0 && icmp_->Compare(this->key(i - 1), key) >= 0) {
      return bad(kSparseKeysOutOfOrder);
    }
    keys_.append(key.data(), key.size());
    key_offsets_.push_back(keys_.size());
    addresses_.push_back(address);
  }
  if (!in.empty()) return bad("trailing bytes");
  if ((count == 0) != (log_logical_bytes == 0)) return bad("record count");
  return Status::OK();
}

size_t SparseIndex::FirstAtOrAfter(const Slice& target) const {
  size_t lo = 0, hi = size();
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (icmp_->Compare(key(mid), target) < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

uint64_t SparseIndex::SeekAddress(const Slice& target) const {
  // The record before the first >= target is < target.
  const size_t first = FirstAtOrAfter(target);
  return first == 0 ? 0 : addresses_[first - 1];
}

uint64_t SparseIndex::LimitAddress(const Slice& target) const {
  const size_t first = FirstAtOrAfter(target);
  return first == size() ? UINT64_MAX : addresses_[first];
}

size_t SparseIndex::MemoryUsage() const {
  return keys_.capacity() + key_offsets_.capacity() * sizeof(size_t) +
         addresses_.capacity() * sizeof(uint64_t);
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
