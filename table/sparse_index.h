// The sparse ordered index: the internal key and address of the first entry
// of every log block, and of every `sparse_index_interval`-th entry (not
// where blocks are compressed: the meta block's interval is then 0), in log
// order. Seek binary-searches it, then halves the record's block.
//
// Section contents:
//   varint64 record_count
//   record_count x { varint32 key_length, internal key (user key + 8-byte
//                    packed sequence and type, as RocksDB stores it),
//                    varint64 address delta from the previous record }
//
// Byte layout: docs/format.md, "Sparse index".
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "table/spill_buffer.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

// The detail of the error Init gives when the keys are not in the order of
// the comparator it was given: the only error a wrong comparator can cause,
// so tools that guess the comparator test for it.
extern const char kSparseKeysOutOfOrder[];

class SparseIndexBuilder {
 public:
  void Add(const Slice& internal_key, uint64_t address);
  // The section's contents, held in memory.
  std::string Finish();
  // The same contents handed to `sink` in pieces, for records spilled.
  // Either Finish once: the records are let go.
  Status Finish(const std::function<Status(const Slice&)>& sink);
  // Records from now on, and those held, go to a temporary file in `dir`.
  Status Spill(SpillDir* dir) { return records_.Spill(dir); }
  size_t MemoryUsage() const { return records_.MemoryUsage(); }
  uint64_t SectionBytes() const {
    return VarintLength(count_) + records_.size();
  }

 private:
  SpillBuffer records_;
  std::string scratch_;  // the record being added
  Status status_;
  uint64_t count_ = 0;
  uint64_t last_address_ = 0;
};

class SparseIndex {
 public:
  // Copies the records into memory and checks them: keys are internal keys
  // in non-decreasing order, addresses rise and lie inside the log.
  // `section_offset` locates the section in errors.
  Status Init(const Slice& contents, uint64_t log_logical_bytes,
              const InternalKeyComparator* icmp, const std::string& file,
              uint64_t section_offset);

  size_t size() const { return addresses_.size(); }
  Slice key(size_t i) const {
    return Slice(keys_.data() + key_offsets_[i],
                 key_offsets_[i + 1] - key_offsets_[i]);
  }
  uint64_t address(size_t i) const { return addresses_[i]; }

  // Address of the last record whose key is < `target` (an entry >= target
  // lies after it); 0 if none is.
  uint64_t SeekAddress(const Slice& target) const;
  // Address of the first record whose key is >= `target` (every entry <
  // target lies before it); UINT64_MAX if none is.
  uint64_t LimitAddress(const Slice& target) const;
  size_t MemoryUsage() const;

 private:
  // The first record whose key is >= `target`; size() if none is.
  size_t FirstAtOrAfter(const Slice& target) const;
  const InternalKeyComparator* icmp_ = nullptr;
  std::string keys_;
  std::vector<size_t> key_offsets_;  // size() + 1
  std::vector<uint64_t> addresses_;
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
