// Reads a RobinHoodTable file. Open checks the footer, the meta block and
// every section's checksum, and keeps the index structures in memory (or,
// with allow_mmap_reads, reads the hash index in place). A point lookup is
// a probe of the hash index (hash_index.h) and one read of the entry.
//
// Log blocks are checksummed; a lookup verifies the block it reads the
// first time it reads it (when ReadOptions::verify_checksums) and remembers
// that, so later lookups in the block read only the entry: one positioned
// read, or none with mmap. Iterators verify every block they read from the
// file.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "db/range_tombstone_fragmenter.h"
#include "rocksdb_robinhood/robinhood_table.h"
#include "table/block_table.h"
#include "table/hash_index.h"
#include "table/log_entry.h"
#include "table/robinhood_format.h"
#include "table/sparse_index.h"
#include "table/table_reader.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

class RobinHoodTableReader : public TableReader {
 public:
  // `largest_seqno` is TableReaderOptions::largest_seqno (0 if unknown);
  // with the global seqno property it decides the sequence number every
  // entry of an ingested file surfaces with. `hash` must be the function
  // the file was written with (tests swap it). `icmp` must outlive the
  // reader and every iterator it hands out, as RocksDB's does.
  static Status Open(const ImmutableOptions& ioptions,
                     const InternalKeyComparator& icmp,
                     std::unique_ptr<RandomAccessFileReader>&& file,
                     uint64_t file_size, SequenceNumber largest_seqno,
                     std::unique_ptr<TableReader>* reader,
                     HashFunction hash = &KeyHash);
  ~RobinHoodTableReader() override;

  InternalIterator* NewIterator(const ReadOptions& ro,
                                const SliceTransform* prefix_extractor,
                                Arena* arena, bool skip_filters,
                                TableReaderCaller caller,
                                size_t compaction_readahead_size = 0,
                                bool allow_unprepared_value = false) override;
  FragmentedRangeTombstoneIterator* NewRangeTombstoneIterator(
      const ReadOptions& ro) override;
  Status Get(const ReadOptions& ro, const Slice& key, GetContext* get_context,
             const SliceTransform* prefix_extractor,
             bool skip_filters = false) override;
  void MultiGet(const ReadOptions& ro, const MultiGetContext::Range* range,
                const SliceTransform* prefix_extractor,
                bool skip_filters = false) override;
  uint64_t ApproximateOffsetOf(const Slice& key,
                               TableReaderCaller caller) override;
  uint64_t ApproximateSize(const Slice& start, const Slice& end,
                           TableReaderCaller caller) override;
  void SetupForCompaction() override {}
  std::shared_ptr<const TableProperties> GetTableProperties() const override {
    return properties_;
  }
  size_t ApproximateMemoryUsage() const override;
  Status VerifyChecksum(const ReadOptions& ro,
                        TableReaderCaller caller) override;

  // For the iterator and the inspector.
  const TableMeta& meta() const { return meta_; }
  const HashIndex& hash_index() const { return index_; }
  const BlockTable& blocks() const { return blocks_; }
  const SparseIndex& sparse_index() const { return sparse_; }
  const InternalKeyComparator& icmp() const { return icmp_; }
  const std::string& file_name() const;
  // The sequence number entries surface with: the global one, if set.
  SequenceNumber Surfaced(SequenceNumber stored) const {
    return global_seqno_ == kDisableGlobalSequenceNumber ? stored
                                                         : global_seqno_;
  }
  // Makes `*contents` the contents of block `b`: in place with mmap, else
  // read into `*buf`. Verifies the checksum if `verify` (once per block with
  // mmap, on every read without).
  Status ReadBlock(size_t b, bool verify, std::string* buf,
                   Slice* contents) const;
  // The second half of ReadBlock, for callers that read the stored bytes
  // (`raw`: contents and trailer) themselves: checks and decompresses them.
  Status DecodeBlock(size_t b, const Slice& raw, bool verify,
                     std::string* buf, Slice* contents) const;
  bool mmap() const { return mmap_; }
  // Reads [offset, offset + n) into `*result`: in place with mmap, else
  // into `*buf`.
  Status ReadRange(uint64_t offset, size_t n, std::string* buf,
                   Slice* result) const;
  // Finds and decodes the first (newest) entry of `user_key`: `*entry`
  // points into `*buf` or the mapping, `*block` is its block and
  // `*next_address` the address after it. `*found` false: no such key.
  Status Lookup(const Slice& user_key, uint64_t hash, bool verify,
                std::string* buf, LogEntry* entry, size_t* block,
                uint64_t* next_address, bool* found) const;

 private:
  RobinHoodTableReader(const ImmutableOptions& ioptions,
                       const InternalKeyComparator& icmp,
                       std::unique_ptr<RandomAccessFileReader>&& file,
                       uint64_t file_size, HashFunction hash);
  Status Init(SequenceNumber largest_seqno);
  // Get of a parsed key whose hash the caller has (MultiGet hashed the
  // batch to prefetch it; hashing again would be wasted work).
  Status GetHashed(const ReadOptions& ro, const ParsedInternalKey& target,
                   uint64_t hash, GetContext* get_context) const;
  // Reads a section with its trailer and checks the checksum.
  Status ReadSection(const SectionHandle& h, const char* what,
                     std::string* buf, Slice* contents) const;
  // Reads the properties with RocksDB's reader and checks their checksum.
  Status CheckProperties(std::unique_ptr<TableProperties>* out) const;
  Status ApplyGlobalSeqno(SequenceNumber largest_seqno);
  Status LoadRangeDels(const Slice& contents);
  bool IsVerified(size_t b) const;
  void MarkVerified(size_t b) const;
  uint64_t FileOffsetOf(uint64_t address) const;

  const ImmutableOptions& ioptions_;
  // Not a copy: range-tombstone iterators keep a pointer to it and may
  // outlive this reader (a table-cache eviction), while the column
  // family's comparator, which RocksDB hands in, outlives them all.
  const InternalKeyComparator& icmp_;
  std::unique_ptr<RandomAccessFileReader> file_;
  const uint64_t file_size_;
  const HashFunction hash_;
  const bool mmap_;
  Slice file_data_;  // the whole file, with mmap

  TableMeta meta_;
  std::string index_buf_;  // the slots, without mmap
  HashIndex index_;
  BlockTable blocks_;
  SparseIndex sparse_;
  SequenceNumber global_seqno_ = kDisableGlobalSequenceNumber;
  std::shared_ptr<const TableProperties> properties_;
  std::shared_ptr<FragmentedRangeTombstoneList> range_dels_;
  std::unique_ptr<std::atomic<uint64_t>[]> verified_;  // bit per block
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
