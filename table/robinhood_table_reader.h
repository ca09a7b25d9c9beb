// Reads a RobinHoodTable file: RocksDB's TableReader interface over the
// parts of TableView (table_view.h), which open decodes and checks once:
// the footer and meta block, every section's checksum, the hash index (in
// place with mmap, else in memory), block table, sparse index, properties
// and range deletions. A point lookup is a probe of the hash index and one
// read of the entry (log_block_reader.h); iterators walk the log in order
// (robinhood_table_iterator.h).
#pragma once

#include <memory>
#include <string>

#include "db/range_tombstone_fragmenter.h"
#include "rocksdb/statistics.h"
#include "rocksdb_robinhood/robinhood_table.h"
#include "table/compat.h"
#include "table/table_reader.h"
#include "table/table_view.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

class RobinHoodTableReader : public TableReader, private TableView {
 public:
  // `largest_seqno` is TableReaderOptions::largest_seqno (kMaxSequenceNumber
  // if unknown); with the global seqno property it decides the sequence
  // number every entry of an ingested file surfaces with. `icmp` must
  // outlive the reader and every iterator it hands out, as RocksDB's does.
  // `hash` must be the function the file was written with (tests swap it).
  static Status Open(const ImmutableOptions& ioptions,
                     const InternalKeyComparator& icmp,
                     std::unique_ptr<RandomAccessFileReader>&& file,
                     uint64_t file_size, SequenceNumber largest_seqno,
                     std::unique_ptr<TableReader>* reader,
                     HashFunction hash = &KeyHash);
  ~RobinHoodTableReader() override;

  // What the iterator and the inspector read.
  const TableView& view() const { return *this; }

  InternalIterator* NewIterator(const ReadOptions& ro,
                                const SliceTransform* prefix_extractor,
                                Arena* arena, bool skip_filters,
                                TableReaderCaller caller,
                                size_t compaction_readahead_size = 0,
                                bool allow_unprepared_value = false) override;
  FragmentedRangeTombstoneIterator* NewRangeTombstoneIterator(
      const ReadOptions& ro) override;
#if RH_HAS_SEQNO_TOMBSTONE_ITERATOR
  FragmentedRangeTombstoneIterator* NewRangeTombstoneIterator(
      SequenceNumber read_seqno, const Slice* timestamp) override;
#endif
  Status Get(const ReadOptions& ro, const Slice& key, GetContext* get_context,
             const SliceTransform* prefix_extractor,
             bool skip_filters = false) override;
  void MultiGet(const ReadOptions& ro, const MultiGetContext::Range* range,
                const SliceTransform* prefix_extractor,
                bool skip_filters = false) override;
  // Brings in what a Get of `internal_key` reads first, so that a host
  // which calls Prepare for a whole batch before its Gets (CompactedDBImpl's
  // MultiGet; Version's for level-0 files) overlaps their cache misses.
  // Never reads the file: a key of any length, or one this file lacks,
  // costs a hash and a prefetch hint.
  void Prepare(const Slice& internal_key) override;
  uint64_t ApproximateOffsetOf(RH_APPROXIMATE_READ_OPTIONS const Slice& key,
                               TableReaderCaller caller) override;
  uint64_t ApproximateSize(RH_APPROXIMATE_READ_OPTIONS const Slice& start,
                           const Slice& end, TableReaderCaller caller) override;
  void SetupForCompaction() override {}
  std::shared_ptr<const TableProperties> GetTableProperties() const override {
    return properties_;
  }
  size_t ApproximateMemoryUsage() const override;
  Status VerifyChecksum(const ReadOptions& ro, TableReaderCaller caller
                            RH_VERIFY_CHECKSUM_EXTRA) override;

 private:
  RobinHoodTableReader(const ImmutableOptions& ioptions,
                       const InternalKeyComparator& icmp,
                       std::unique_ptr<RandomAccessFileReader>&& file,
                       uint64_t file_size, HashFunction hash);
  Status Init(SequenceNumber largest_seqno);
  Status InitLog();     // hash index, block table, log, sparse index
  Status InitInline();  // inline directory and samples
  Status LoadRangeDels(const Slice& contents);
  // Get of a parsed key whose hash the caller has (MultiGet hashed the
  // batch to prefetch it; hashing again would be wasted work).
  Status GetHashed(const ReadOptions& ro, const ParsedInternalKey& target,
                   uint64_t hash, GetContext* get_context) const;
  // Prefetches the home of `user_key` (hash `hash`): the hash index's
  // slot, or with mmap the inline run. Reads nothing of the file.
  void PrefetchHome(const Slice& user_key, uint64_t hash) const {
    if (inline_ != nullptr) {
      inline_->PrefetchHome(user_key, hash);
    } else {
      index_.PrefetchHome(hash);
    }
  }
  // The hash lookups of `user_key` need: none (0) in key-ordered slots.
  uint64_t HashOf(const Slice& user_key) const {
    if (inline_ != nullptr && inline_->key_ordered()) return 0;
    return hash_(user_key, meta().hash_seed);
  }
  // The file offset of log address `address` (the log's end past it).
  uint64_t FileOffsetOf(uint64_t address) const;
  void RecordTick(Tickers ticker) const {
    if (ioptions_.stats != nullptr) ioptions_.stats->recordTick(ticker, 1);
  }
  // ApproximateOffsetOf's answer, whatever the host's signature.
  uint64_t OffsetOf(const Slice& internal_key) const;

  const ImmutableOptions& ioptions_;
  const HashFunction hash_;
  std::shared_ptr<const TableProperties> properties_;
  std::shared_ptr<FragmentedRangeTombstoneList> range_dels_;
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
