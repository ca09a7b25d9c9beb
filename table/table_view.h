// The read-only view of an open RobinHoodTable file that its layout, the
// iterators and the inspector share: what every file has, as the reader
// decoded and checked it at open, and the file's layout (layout.h), which
// holds the rest. Valid while the reader that owns it lives; safe to use
// from several threads.
//
//   file: SectionReader (byte ranges, checksummed sections; mmap or pread)
//   tail: TableMeta + footer (table_meta.h)
//   layout: LogLayout, InlineLayout or PagedLayout, with its sparse index
//   the filter, if any (filter_section.h)
#pragma once

#include <memory>
#include <string>

#include "db/dbformat.h"
#include "table/compat.h"
#include "table/filter_section.h"
#include "table/hash_index.h"
#include "table/layout.h"
#include "table/section_reader.h"
#include "table/table_meta.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

class TableView {
 public:
  const std::string& file_name() const { return file_.file_name(); }
  const SectionReader& file() const { return file_; }
  bool mmap() const { return file_.mmap(); }
  const TableMeta& meta() const { return tail_.meta; }
  const Layout& layout() const { return *layout_; }
  Status Samples(const SparseIndex** samples) const {
    return layout_->Samples(samples);
  }
  // The filter (format version 3 on; not usable() if the file has none).
  const FilterSection& filter() const { return filter_; }
  const InternalKeyComparator& icmp() const { return icmp_; }
  // The hash of `user_key` in this file (KeyHash with its seed).
  uint64_t Hash(const Slice& user_key) const {
    return hash_(user_key, tail_.meta.hash_seed);
  }
  HashFunction hash_function() const { return hash_; }
  // Null if lookups keep no decompressed blocks (log_block_reader.h).
  Cache* block_cache() const { return block_cache_.get(); }
  // The id this file's blocks, pages or pages of slots go under in the
  // block cache (with their numbers): the same for every reader of the
  // file where its properties name it (the session that wrote it and the
  // file's number there, as BlockBasedTable's cache keys), so a reader the
  // table cache drops and opens again, or a DB opened again with the same
  // cache, finds them there; else one of the cache's own, this reader's.
  uint64_t block_cache_id() const { return block_cache_id_; }

  // The pinner a lookup hands RocksDB with `value`, so that a caller's
  // PinnableSlice points at it instead of a copy: for a value in the
  // mapping, `local`, which then keeps the file open until the caller
  // lets go (shared_file.h), or needs nothing if the reader lives as long
  // as the DB; null, for RocksDB to copy, otherwise. A value shorter than
  // kPinMinBytes of a reader that can go is copied: the reference count
  // costs more than such a copy, and every thread reading the file would
  // share its cache line.
  Cleanable* Pinner(const Slice& value, Cleanable* local) const {
    if (immortal_) return file_.Mapped(value) ? local : nullptr;
    if (value.size() < kPinMinBytes) return nullptr;
    return file_.PinIfMapped(value, local) ? local : nullptr;
  }
  static constexpr size_t kPinMinBytes = 256;
  // Whether Pinner may give `value` a pinner: false where RocksDB copies.
  bool MayPin(const Slice& value) const {
    return immortal_ ? file_.Mapped(value) : value.size() >= kPinMinBytes;
  }

  // The sequence number an entry stored with `stored` surfaces with: the
  // file's global one, if ingestion gave it one (ingestion_rules.h).
  SequenceNumber Surfaced(SequenceNumber stored) const {
    return global_seqno_ == kDisableGlobalSequenceNumber ? stored
                                                         : global_seqno_;
  }

 protected:
  TableView(std::unique_ptr<RandomAccessFileReader>&& file, uint64_t size,
            bool mmap, SystemClock* clock, const InternalKeyComparator& icmp,
            HashFunction hash, std::shared_ptr<Cache> block_cache,
            bool immortal)
      : file_(std::move(file), size, mmap, clock),
        icmp_(icmp),
        hash_(hash),
        block_cache_(std::move(block_cache)),
        immortal_(immortal) {}

  SectionReader file_;
  TableTail tail_;
  std::unique_ptr<Layout> layout_;
  FilterSection filter_;
  // Not a copy: range-tombstone iterators keep a pointer to it and may
  // outlive the reader (a table-cache eviction), while the column family's
  // comparator, which RocksDB hands in, outlives them all.
  const InternalKeyComparator& icmp_;
  const HashFunction hash_;
  const std::shared_ptr<Cache> block_cache_;
  SequenceNumber global_seqno_ = kDisableGlobalSequenceNumber;
  uint64_t block_cache_id_ = 0;
  // RocksDB keeps the reader while the DB is open (TableReaderOptions).
  const bool immortal_;
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
