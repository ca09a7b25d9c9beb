// The optional filter section (format version 3 on; option filter_policy):
// a filter over the file's distinct user keys, so a lookup of a key the
// file lacks can stop at one cache line of a filter of about bits_per_key
// / 8 bytes a key instead of a probe of the slots or pages (rarely
// cached). Two kinds: the hash filter (hash_filter.h, "hashbloom:<bits>"),
// over the file's own key hashes, and RocksDB's built-in filters (Bloom
// or Ribbon, FilterPolicy), built and read by RocksDB's code. Point
// lookups (Get, MultiGet) ask it first; iterators never do.
//
// Contents (the meta block's `filter` handle; size 0: the file has none):
//   +---------------+-----------------------+-------------+--------------+
//   | pad: zeros    | filter                | policy name | pad_len,     |
//   | 0..63 bytes   | its bytes             | (below)     | name_len:    |
//   |               |                       |             | 2 x fixed32  |
//   |               |                       |             | LE           |
//   +---------------+-----------------------+-------------+--------------+
// `pad` puts the filter at a file offset that is a multiple of 64, so each
// probe reads one cache line of a mapped file. The name is
// kHashFilterName for a hash filter, else the built-in policy's
// CompatibilityName(). The section's trailer covers every byte; readers
// check it once, at open, whatever verify_checksums says: a damaged filter
// would answer "absent" for keys the file has.
//
// A filter whose name a reader does not know reads as "may match" (no
// filter at all): a file stays readable by a reader that knows fewer
// kinds. RocksDB's built-in filters carry their own parameters, the hash
// filter its probes, so a reader needs no options to read either.
//
// Byte layout: docs/format.md, "Filter (version 3)".
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "rocksdb/filter_policy.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "table/hash_filter.h"
#include "table/section_reader.h"
#include "table/verified_bits.h"

namespace ROCKSDB_NAMESPACE {

class FilterBitsBuilder;
class FilterBitsReader;

namespace robinhood {

constexpr uint32_t kFilterAlignment = 64;
constexpr uint32_t kFilterSectionTail = 2 * 4;
constexpr uint32_t kMaxFilterPolicyName = 255;

// What option filter_policy asks for: a hash filter of `hash_bits` a key,
// a built-in RocksDB `policy`, or neither.
struct FilterSpec {
  uint32_t hash_bits = 0;
  std::shared_ptr<const FilterPolicy> policy;
  bool none() const { return hash_bits == 0 && policy == nullptr; }
};

// How OPTIONS files and option strings may say "no filter", beside "".
constexpr char kNoFilterPolicy[] = "none";

// The policy option `value` names ("" or "none" for none; "hashbloom:<bits>", bits
// an integer in [kMinHashFilterBits, kMaxHashFilterBits]; else a string
// FilterPolicy::CreateFromString reads, e.g. "bloomfilter:10" or
// "ribbonfilter:10"): InvalidArgument naming the option if it names none,
// or one that is not built in.
Status ResolveFilterPolicy(const std::string& value, FilterSpec* spec);

// Collects the distinct user keys of a file being built.
class FilterSectionBuilder {
 public:
  // REQUIRES: `spec` came from ResolveFilterPolicy and is not none(). A
  // built-in policy is kept for the builder's life: RocksDB's bits
  // builders may point into their policy (from 9.2 on, Bloom builders
  // share a rounding balance held there).
  explicit FilterSectionBuilder(FilterSpec spec);
  ~FilterSectionBuilder();

  // REQUIRES: each distinct key once (the builder's keys are sorted);
  // `hash` is its KeyHash with the file's seed.
  Status AddKey(const Slice& user_key, uint64_t hash);
  uint64_t num_keys() const { return keys_; }
  // What the filter's builder holds: 8 bytes a key until Finish (RocksDB's
  // builders keep a hash a key too), or a hash filter's spilled sorter.
  size_t MemoryUsage() const;
  // A hash filter's hashes go to a sorter in `dir` (a built-in policy's
  // builder keeps them: RocksDB's builders take keys, not sorted hashes).
  Status Spill(SpillDir* dir, size_t budget);
  // The section's contents, for a section that starts at file offset
  // `offset`, handed to `sink` in pieces; `*filter_bytes` is the filter's.
  Status Finish(uint64_t offset, const std::function<Status(const Slice&)>& sink,
                uint64_t* filter_bytes);
  const std::string& policy_name() const { return policy_name_; }

 private:
  std::shared_ptr<const FilterPolicy> policy_;  // before bits_: outlives it
  std::unique_ptr<FilterBitsBuilder> bits_;
  std::unique_ptr<HashFilterBuilder> hashes_;
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

  // Reads section `h` of `file` (no filter if it is empty) and checks it,
  // whatever verify_checksums says: all of it, except a mapped hash
  // filter's blocks, which probes check a page at a time as they first
  // read them (so opening a file does not read its whole filter).
  Status Open(const SectionReader& file, const SectionHandle& h);
  // `contents` is the section at file offset `offset`, checked if
  // `checked` (else only a hash filter may be read, and it checks itself).
  // With `in_place` the filter stays where it is (the mapping, or what
  // Open read it into) and must outlive this; else it is copied to an
  // aligned buffer.
  Status Init(const Slice& contents, uint64_t offset, bool in_place,
              const std::string& file, bool checked = true);

  // False if the file has no filter, or one this reader cannot read.
  bool usable() const { return reader_ != nullptr || hashed_; }
  // Whether probes need the key's hash (KeyHash with the file's seed).
  bool hashed() const { return hashed_; }
  // REQUIRES: usable(); `hash` is the key's, if hashed(). `*may`: whether
  // the file may hold the key; Corruption if the filter's page is
  // damaged. Thread-safe, as RocksDB's filter readers are.
  Status KeyMayMatch(const Slice& user_key, uint64_t hash, bool* may) const {
    if (!hashed_) {
      *may = BuiltinMayMatch(user_key);
      return Status::OK();
    }
    const HashFilterReader::Answer a = hash_filter_.Probe(hash);
    *may = a != HashFilterReader::kAbsent;
    return a == HashFilterReader::kDamaged ? Damaged(hash) : Status::OK();
  }
  // REQUIRES: hashed().
  void Prefetch(uint64_t hash) const { hash_filter_.Prefetch(hash); }
  // REQUIRES: hashed(). Where in the file the page a probe of `hash`
  // reads lies: a mapped file's filter is read in place, so a batch past
  // memory asks for it as for its homes (residency.h).
  void PageInFile(uint64_t hash, uint64_t* offset, size_t* n) const {
    *offset = filter_offset_ + hash_filter_.PageOffsetOf(hash);
    *n = kPageBytes;
  }
  // REQUIRES: hashed(). Whether the page a probe of `hash` reads was
  // seen in memory, and noting that it was. A batch past memory then asks
  // mincore (1.1 us a call here) about each page of a mapped filter once,
  // not for each key: every lookup reads a filter page, so they stay in
  // memory. Every 65,536 questions forget what was seen, since the kernel
  // may drop a page even so.
  bool PageSeenResident(uint64_t hash) const {
    if ((resident_questions_.fetch_add(1, std::memory_order_relaxed) &
         0xffff) == 0xffff) {
      seen_resident_.Clear();
    }
    return seen_resident_.Test(PageOf(hash));
  }
  void NotePageResident(uint64_t hash) const {
    seen_resident_.Set(PageOf(hash));
  }
  // REQUIRES: usable() && !hashed(). A batch, whose lines RocksDB's
  // filter prefetches first.
  void BuiltinKeysMayMatch(int n, Slice** keys, bool* may_match) const;

  size_t filter_bytes() const { return filter_.size(); }
  const std::string& policy_name() const { return name_; }
  size_t MemoryUsage() const {
    return copy_size_ + hash_filter_.MemoryUsage() +
           seen_resident_.MemoryUsage();
  }

 private:
  static constexpr uint64_t kPageBytes =
      kHashFilterPageBlocks * kHashFilterBlockBytes;
  uint64_t PageOf(uint64_t hash) const {
    return hash_filter_.PageOffsetOf(hash) / kPageBytes;
  }
  bool BuiltinMayMatch(const Slice& user_key) const;
  Status Damaged(uint64_t hash) const;

  Slice filter_;
  std::string name_;
  std::string file_;
  uint64_t filter_offset_ = 0;  // in the file
  std::unique_ptr<char[]> copy_;
  size_t copy_size_ = 0;
  std::unique_ptr<FilterBitsReader> reader_;
  HashFilterReader hash_filter_;
  bool hashed_ = false;
  VerifiedBits seen_resident_;  // by page
  mutable std::atomic<uint32_t> resident_questions_{0};
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
