// Reads a RobinHoodTable file: RocksDB's TableReader interface over the
// parts of TableView (table_view.h), which open decodes and checks once:
// the footer and meta block, the properties, range deletions and filter,
// and the file's layout (layout.h: a log and its hash index, or inline
// slots), which answers lookups, iterators, offsets and the checksums of
// the entries' units. The reader itself knows no layout. Its point
// lookups are in robinhood_table_reader_lookups.cc, the rest in
// robinhood_table_reader.cc.
#pragma once

#include <memory>
#include <string>

#include "db/range_tombstone_fragmenter.h"
#include "rocksdb/statistics.h"
#include "rocksdb_robinhood/robinhood_table.h"
#include "table/compat.h"
#include "table/miss_share.h"
#include "table/residency.h"
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
  // `block_cache` (may be null) keeps decompressed log blocks for lookups.
  // `immortal` is TableReaderOptions::immortal: RocksDB keeps the reader
  // while the DB is open (a read-only DB with max_open_files=-1), so a
  // value handed out of the mapping needs nothing to stay valid.
  // A file read without mmap loads at open what lookups keep
  // (Layout::LoadForLookups), as BlockBasedTable reads its index block.
  static Status Open(const ImmutableOptions& ioptions,
                     const InternalKeyComparator& icmp,
                     std::unique_ptr<RandomAccessFileReader>&& file,
                     uint64_t file_size, SequenceNumber largest_seqno,
                     std::unique_ptr<TableReader>* reader,
                     HashFunction hash = &KeyHash,
                     std::shared_ptr<Cache> block_cache = nullptr,
                     bool immortal = false);
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
  // About 128 user keys in order, each with the bytes of the entries since
  // the one before, the last the file's last key: where a compaction that
  // splits its work (max_subcompactions) may cut this file.
  Status ApproximateKeyAnchors(const ReadOptions& ro,
                               std::vector<Anchor>& anchors) override;
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
                       uint64_t file_size, HashFunction hash,
                       std::shared_ptr<Cache> block_cache, bool immortal);
  Status Init(SequenceNumber largest_seqno);
  Status LoadRangeDels(const Slice& contents);
  // TableView::block_cache_id(), from the properties. REQUIRES: a cache.
  uint64_t BlockCacheId() const;
  void RecordTick(Tickers ticker) const {
    if (ioptions_.stats != nullptr) ioptions_.stats->recordTick(ticker, 1);
  }
  // Whether `ro` asks for no read that may block and the entries are not
  // in memory: unless the file is mapped or has a block cache that may
  // hold what the scan (the layout's ScansThroughCache) or lookup reads.
  bool ScanMayNotRead(const ReadOptions& ro) const;
  bool LookupMayNotRead(const ReadOptions& ro) const;
  static ReadUse UseOf(const ReadOptions& ro) { return ReadUse::Of(ro); }
  // Splits a lookup's internal key as ParseInternalKey does, without the
  // Status that builds for every lookup: false for a key it would not
  // take, whose error ParseInternalKey then gives.
  static bool SplitLookupKey(const Slice& ikey, ParsedInternalKey* target) {
    if (ikey.size() < kNumInternalBytes) return false;
    UnPackSequenceAndType(ExtractInternalKeyFooter(ikey), &target->sequence,
                          &target->type);
    if (!IsExtendedValueType(target->type)) return false;
    target->user_key = ExtractUserKey(ikey);
    return true;
  }
  // The end of a lookup: one that needed a read it may not make leaves its
  // key "may exist" (KeyMayExist's answer without a value).
  static void NoteNeedsRead(const Status& s, const ReadUse& use,
                            GetContext* get_context) {
    if (use.no_io && s.IsIncomplete()) get_context->MarkKeyMayExist();
  }
  // The KeyHash of `user_key`, whose layout hash is `hash`: what a hash
  // filter takes.
  uint64_t KeyHashOf(const Slice& user_key, uint64_t hash) const {
    return hash_is_key_hash_ ? hash : Hash(user_key);
  }
  // What a lookup of layout hash `hash` samples by (layout.h SampleOf).
  uint64_t SampleHash(uint64_t hash) const {
    return SampleOf(hash, hash_is_key_hash_);
  }
  // REQUIRES: mmap() and a hashed filter. Whether the page a probe of
  // `key_hash` reads is not in memory, and where it lies in the file.
  bool FilterPageOnDisk(uint64_t key_hash, uint64_t* offset,
                        size_t* n) const;
  // For a batch whose homes may be on disk: asks the kernel for the home
  // of `user_key` (layout hash `hash`, sampled by `sample`; `hint`:
  // PrefetchHome's), if its pages are not in memory (residency.h).
  // `filtered`: the filter has let the key through.
  void AskForHomeOnDisk(const Slice& user_key, uint64_t hash,
                        uint64_t sample, Layout::Hint hint, bool filtered);
  // The layout's Get. One key in 64 (by `sample`, SampleHash) is timed,
  // for the share of lookups that read from disk.
  Status LayoutGet(const ParsedInternalKey& target, uint64_t hash,
                   uint64_t sample, Layout::Hint hint, const ReadUse& use,
                   GetContext* get_context) {
    if (Residency::Sampled(sample)) {
      return TimedGet(target, hash, sample, hint, use, get_context);
    }
    return layout_->Get(target, hash, hint, use, get_context);
  }
  Status TimedGet(const ParsedInternalKey& target, uint64_t hash,
                  uint64_t sample, Layout::Hint hint, const ReadUse& use,
                  GetContext* get_context);
  // ApproximateOffsetOf's answer, whatever the host's signature.
  uint64_t OffsetOf(const Slice& internal_key) const;

  const ImmutableOptions& ioptions_;
  std::shared_ptr<const TableProperties> properties_;
  std::shared_ptr<FragmentedRangeTombstoneList> range_dels_;
  // How often a lookup's filter says no (or, where it skipped the filter,
  // the layout).
  MissShare misses_;
  // How often a batch's homes are not in memory.
  Residency residency_;
  // The layout's HashIsKeyHash() and PrefetchesAfterHome(), asked once.
  bool hash_is_key_hash_ = true;
  bool prefetches_after_home_ = true;
  // Whether lookups skip the filter now: a mapped file in memory while
  // under a quarter of its lookups miss. A hit then waits on its home's
  // lines alone, not on the filter's too; a miss reads its home (a run of
  // slots, a page's tail, an index slot), which shows the key absent,
  // instead of the smaller, more often cached filter (skipping it whatever
  // the misses, the compacted DB's misses on 10M inline keys took 38%
  // longer and its hits 9% less). Without mmap or where lookups read from
  // disk (residency.h) the filter saves reads.
  bool SkipsFilter() const {
    return filter_.usable() && mmap() && residency_.InMemory() &&
           !misses_.MostlyMisses();
  }
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
