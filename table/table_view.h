// The read-only view of an open RobinHoodTable file that the iterator and
// the inspector share: its parts, as the reader decoded and checked them
// at open, and the log reader that reads (and verifies) its blocks. Valid
// while the reader that owns it lives; safe to use from several threads.
//
//   file: SectionReader (byte ranges, checksummed sections; mmap or pread)
//   tail: TableMeta + footer (table_meta.h)
//   hash index (hash_index.h), block table (block_table.h),
//   sparse index (sparse_index.h), log (log_block_reader.h);
//   or, for an inline file, its slots (inline_table.h) and sparse index;
//   the filter, if any (filter_section.h)
#pragma once

#include <memory>
#include <string>

#include "db/dbformat.h"
#include "table/block_table.h"
#include "table/filter_section.h"
#include "table/hash_index.h"
#include "table/inline_table.h"
#include "table/log_block_reader.h"
#include "table/section_reader.h"
#include "table/sparse_index.h"
#include "table/table_meta.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

class TableView {
 public:
  const std::string& file_name() const { return file_.file_name(); }
  const SectionReader& file() const { return file_; }
  bool mmap() const { return file_.mmap(); }
  const TableMeta& meta() const { return tail_.meta; }
  const HashIndex& hash_index() const { return index_; }
  const BlockTable& blocks() const { return blocks_; }
  const SparseIndex& sparse_index() const { return sparse_; }
  const LogBlockReader& log() const { return *log_; }
  // The slots of an inline file; null for a file with a log.
  const InlineTable* inline_table() const { return inline_.get(); }
  // The filter (format version 3 on; not usable() if the file has none).
  const FilterSection& filter() const { return filter_; }
  const InternalKeyComparator& icmp() const { return icmp_; }

  // Finds the first (newest) entry of `user_key`, whose hash is `hash`
  // (KeyHash with meta().hash_seed): `*found` false if the file has no such
  // key. A probe of the hash index, then one entry read per candidate.
  Status FindNewest(const Slice& user_key, uint64_t hash, bool verify,
                    std::string* buf, EntryRef* newest, bool* found) const;

  // The sequence number an entry stored with `stored` surfaces with: the
  // file's global one, if ingestion gave it one (ingestion_rules.h).
  SequenceNumber Surfaced(SequenceNumber stored) const {
    return global_seqno_ == kDisableGlobalSequenceNumber ? stored
                                                         : global_seqno_;
  }

 protected:
  TableView(std::unique_ptr<RandomAccessFileReader>&& file, uint64_t size,
            bool mmap, const InternalKeyComparator& icmp)
      : file_(std::move(file), size, mmap), icmp_(icmp) {}

  SectionReader file_;
  TableTail tail_;
  std::string index_buf_;  // the slots, without mmap
  HashIndex index_;
  BlockTable blocks_;
  SparseIndex sparse_;
  std::unique_ptr<LogBlockReader> log_;  // once blocks_ is initialised
  std::unique_ptr<InlineTable> inline_;
  FilterSection filter_;
  // Not a copy: range-tombstone iterators keep a pointer to it and may
  // outlive the reader (a table-cache eviction), while the column family's
  // comparator, which RocksDB hands in, outlives them all.
  const InternalKeyComparator& icmp_;
  SequenceNumber global_seqno_ = kDisableGlobalSequenceNumber;
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
