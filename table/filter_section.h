// The optional filter section (format version 3 on; option filter_policy):
// a filter over the file's distinct user keys, built and read by RocksDB's
// own built-in filter code (Bloom or Ribbon, FilterPolicy), so a lookup of
// a key the file lacks can stop at one cache line of a filter of about
// bits_per_key / 8 bytes a key instead of a probe of the slots (8 to 16
// bytes a key, rarely cached). Point lookups (Get, MultiGet) ask it first;
// iterators never do.
//
// Contents (the meta block's `filter` handle; size 0: the file has none):
//   +---------------+-----------------------+-------------+--------------+
//   | pad: zeros    | filter                | policy name | pad_len,     |
//   | 0..63 bytes   | FilterBitsBuilder's   | its         | name_len:    |
//   |               | bytes                 | Compatibil- | 2 x fixed32  |
//   |               |                       | ityName()   | LE           |
//   +---------------+-----------------------+-------------+--------------+
// `pad` puts the filter at a file offset that is a multiple of 64, so each
// probe of RocksDB's cache-local Bloom filter reads one cache line of a
// mapped file. The section's trailer covers every byte; readers check it
// once, at open, whatever verify_checksums says: a damaged filter would
// answer "absent" for keys the file has.
//
// Only RocksDB's built-in policies are accepted: their filters carry their
// own parameters, so a reader needs no options to read them, and a filter
// a reader cannot interpret reads as "may match" (no filter at all).
//
// Byte layout: docs/format.md, "Filter (version 3)".
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "rocksdb/filter_policy.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"

namespace ROCKSDB_NAMESPACE {

class FilterBitsBuilder;
class FilterBitsReader;

namespace robinhood {

constexpr uint32_t kFilterAlignment = 64;
constexpr uint32_t kFilterSectionTail = 2 * 4;
constexpr uint32_t kMaxFilterPolicyName = 255;

// The policy option `value` names ("" for none, else a string
// FilterPolicy::CreateFromString reads, e.g. "bloomfilter:10" or
// "ribbonfilter:10"): InvalidArgument naming the option if it names none,
// or one that is not built in.
Status ResolveFilterPolicy(const std::string& value,
                           std::shared_ptr<const FilterPolicy>* policy);

// Collects the distinct user keys of a file being built.
class FilterSectionBuilder {
 public:
  // REQUIRES: `policy` came from ResolveFilterPolicy. Kept for the
  // builder's life: RocksDB's bits builders may point into their policy
  // (from 9.2 on, Bloom builders share a rounding balance held there).
  explicit FilterSectionBuilder(std::shared_ptr<const FilterPolicy> policy);
  ~FilterSectionBuilder();

  // REQUIRES: each distinct key once (the builder's keys are sorted).
  void AddKey(const Slice& user_key);
  uint64_t num_keys() const { return keys_; }
  // What the filter's builder holds: RocksDB's built-in builders keep an
  // 8-byte hash a key until Finish.
  size_t MemoryUsage() const { return keys_ * 8; }
  // The section's contents, for a section that starts at file offset
  // `offset`.
  Status Finish(uint64_t offset, std::string* contents);
  const std::string& policy_name() const { return policy_name_; }

 private:
  std::shared_ptr<const FilterPolicy> policy_;  // before bits_: outlives it
  std::unique_ptr<FilterBitsBuilder> bits_;
  std::string compatibility_name_;
  std::string policy_name_;
  uint64_t keys_ = 0;
#ifndef NDEBUG
  std::string last_key_;  // checks that a key comes once
#endif
};

// The filter of an open file.
class FilterSection {
 public:
  FilterSection();
  ~FilterSection();

  // `contents` is the verified section at file offset `offset`. With
  // `in_place` (mmap) the filter stays where it is and must outlive this;
  // else it is copied to an aligned buffer.
  Status Init(const Slice& contents, uint64_t offset, bool in_place,
              const std::string& file);

  // False if the file has no filter, or one this reader cannot read.
  bool usable() const { return reader_ != nullptr; }
  // REQUIRES: usable(). Thread-safe, as RocksDB's filter readers are.
  bool KeyMayMatch(const Slice& user_key) const;
  void KeysMayMatch(int n, Slice** keys, bool* may_match) const;

  size_t filter_bytes() const { return filter_.size(); }
  const std::string& policy_name() const { return name_; }
  size_t MemoryUsage() const { return copy_size_; }

 private:
  Slice filter_;
  std::string name_;
  std::unique_ptr<char[]> copy_;
  size_t copy_size_ = 0;
  std::unique_ptr<FilterBitsReader> reader_;
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
