// Writes one RobinHoodTable file: entries go to the log as they arrive,
// block by block; the hash index, block table, sparse index, range
// deletions, properties and meta follow at Finish (robinhood_format.h).
//
// Entries are compressed per block when the column family asks for it
// (TableBuilderOptions::compression_type).
//
// While every entry is a compacted put that fits an inline slot, entries
// wait in an InlineEntryBuffer instead (inline_entries.h) and the file is
// written in the inline layout at Finish. The first that does not fit a
// slot but fits a page moves them to a PagedEntryBuffer (paged_entries.h),
// and the file takes the paged layout, whose pages go to the file as they
// fill once the page size is chosen; the first entry that fits neither
// sends the waiting ones to the log, in order, and the file takes the log
// layout, or, if pages went out already, starts a log after them
// (paged_log_layout.h). The entry path and Finish are in
// robinhood_table_builder.cc; the choice of layout and each layout's
// section writers in robinhood_table_builder_layouts.cc; the writes to the
// file, section framing and memory tracking in
// robinhood_table_builder_output.cc.
//
// Memory while building, beyond the current log block: 12 bytes per
// distinct user key for the hash index (hash_index.h), the sparse index
// (one key per sparse_index_interval entries), ~4 bytes per log block for
// the block table, the range tombstones, and 8 bytes per distinct user key
// for the filter, if there is one (filter_section.h). With
// build_memory_limit, the index records, the waiting entries and the
// sparse index move to temporary files once the builder holds half the
// limit (spill_buffer.h, spill_sorter.h), and are sorted there in runs of
// at most half of it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "rocksdb_robinhood/robinhood_table.h"
#include "table/compat.h"
#include "table/filter_section.h"
#include "table/hash_index.h"
#include "table/inline_entries.h"
#include "table/log_block_writer.h"
#include "table/paged_entries.h"
#include "table/robinhood_format.h"
#include "table/sparse_index.h"
#include "table/spill_buffer.h"
#include "table/table_builder.h"
#include "table/table_meta.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

class RobinHoodTableBuilder : public TableBuilder {
 public:
  // REQUIRES: `options` validated (RobinHoodTableFactory does it).
  // `hash` replaces the format's hash in tests that force collisions.
  RobinHoodTableBuilder(const RobinHoodTableOptions& options,
                        const TableBuilderOptions& tbo,
                        WritableFileWriter* file,
                        HashFunction hash = &KeyHash);
  ~RobinHoodTableBuilder() override;

  // REQUIRES: point entries arrive in internal-key order (range deletions
  // may come in any order); Finish/Abandon not called. A broken REQUIRES
  // makes status() InvalidArgument rather than write a file readers refuse.
  void Add(const Slice& key, const Slice& value) override;
  Status status() const override { return status_; }
  IOStatus io_status() const override { return io_status_; }
  Status Finish() override;
  void Abandon() override { closed_ = true; }
  uint64_t NumEntries() const override { return props_.num_entries; }
  uint64_t FileSize() const override { return offset_; }
  uint64_t EstimatedFileSize() const override;
  TableProperties GetTableProperties() const override { return props_; }
  std::string GetFileChecksum() const override;
  const char* GetFileChecksumFuncName() const override;
  void SetSeqnoTimeTableProperties(const compat::SeqnoTimeMapping& mapping,
                                   uint64_t oldest_ancestor_time) override;

  // Peak bytes held for the index structures so far (not the log block).
  size_t PeakMemoryUsage() const { return peak_memory_; }

 private:
  // Whether `ucmp` orders keys as their bytes do (key-ordered slots).
  static bool IsBytewise(const Comparator* ucmp);
  bool ok() const { return status_.ok(); }
  void Append(const Slice& data);
  // OK if `ikey` may follow the previous point entry.
  Status CheckOrder(const ParsedInternalKey& ikey) const;
  // Writes a point entry to the log (`key` is `ikey` encoded).
  void AppendToLog(const ParsedInternalKey& ikey, const Slice& key,
                   const Slice& value, bool new_key);
  // Whether a compacted put of `key` and `value` may wait for the paged
  // layout.
  bool FitsPages(const Slice& key, const Slice& value) const {
    return paging_ && PagedEntryBuffer::Fits(key, value);
  }
  // Keeps the first kCompressionProbeBytes of compacted puts' keys and
  // values, then DecideOnPages.
  void ProbeCompression(const Slice& key, const Slice& value);
  // Whether pages may be taken: not where the column family's codec would
  // save an eighth of the probe (pages are never compressed); spills the
  // pages to the log if not. Once.
  void DecideOnPages();
  // Moves the entries waiting for the inline layout to the paged one.
  void PageInline();
  // Sends the entries waiting for the inline or paged layout to the log.
  void SpillToLog();
  // Once the pages' size is chosen and a compressed log ruled out: the
  // pages go to the file as they fill.
  void MaybeStreamPages();
  // Closes the pages, which went to the file as they filled, and makes
  // the log, which starts after them, take the entries from now on.
  void StartLogTail();
  // With a log tail: writes its hash index and block table, and the
  // page index.
  void WriteLogTail(IndexGeometry* geometry, TableMeta* meta);
  // Writes the slots and the directory of an inline file.
  void WriteInline(const IndexGeometry& geometry, TableMeta* meta);
  // Writes the pages and the page index of a paged file.
  void WritePaged(TableMeta* meta);
  void WriteSection(const Slice& contents, SectionHandle* handle);
  // A section whose contents `produce` hands to the sink it is given, in
  // pieces.
  using Sink = std::function<Status(const Slice&)>;
  void WriteStreamedSection(const std::function<Status(const Sink&)>& produce,
                            SectionHandle* handle);
  // With a memory bound, once the builder holds half of it: moves the
  // waiting entries and the sparse index to temporary files.
  void MaybeSpill(size_t held);
  // The memory the builder holds now.
  size_t MemoryUsage() const;
  void WriteIndex(IndexGeometry* geometry, SectionHandle* handle);
  void WriteProperties(const IndexGeometry& geometry, const TableMeta& meta,
                       SectionHandle* handle);
  void TrackMemory();
  // Writes `data` to the file now (Append stages what it is given).
  void WriteOut(const Slice& data);
  // Adds `n` bytes at `data` to staged_ (at most kWriteUnit in all).
  void Stage(const char* data, size_t n);

  const RobinHoodTableOptions options_;
  Logger* const logger_;
  const Comparator* const ucmp_;
  WritableFileWriter* const file_;
  const HashFunction hash_;
  std::vector<std::unique_ptr<compat::Collector>> collectors_;

  Status status_;
  IOStatus io_status_;
  bool closed_ = false;
  // With build_memory_limit: where the temporary files go. Before the
  // members that spill, so that it outlives them.
  std::unique_ptr<SpillDir> spill_dir_;

  uint64_t offset_ = 0;  // bytes written to the file
  // The file goes out in writes of kWriteUnit bytes at offsets that are
  // multiples of it: a kernel whose page cache holds large folios (XFS;
  // ext4 since Linux 6.16) then keeps the file in huge pages, and maps it
  // with them, where writes of RocksDB's 1 MiB buffer leave 4 KiB pages.
  // A lookup's cache miss then costs one TLB entry of a few hundred, not
  // a page walk (measured: docs/benchmarks.md, "Huge pages").
  static constexpr size_t kWriteUnit = size_t{2} << 20;
  std::string staged_;  // the file's bytes past its last whole unit
  // Log blocks, compressed with the column family's codec.
  LogBlockWriter log_;
  uint64_t entries_since_sparse_ = 0;
  uint64_t log_entries_ = 0;    // point entries in the log
  uint64_t point_entries_ = 0;  // in the log or waiting; props_ counts range
                                // deletions too
  std::string last_user_key_;
  uint64_t last_packed_ = 0;  // sequence and type of the previous entry

  HashIndexBuilder index_;
  std::unique_ptr<InlineEntryBuffer> inline_;  // null once pages or the log are
  std::unique_ptr<PagedEntryBuffer> paged_;    // waiting for pages
  bool paging_;  // whether the paged layout may be chosen
  // A paged file whose log follows its pages: what describes the pages,
  // which are written (TableMeta's fields for them), and their index.
  bool log_tail_ = false;
  TableMeta tail_pages_;
  std::string tail_page_index_;
  bool paging_decided_ = false;  // whether compression ruled on it
  static constexpr size_t kCompressionProbeBytes = 64 << 10;
  std::string probe_;
  const CompressionOptions compression_opts_;
  uint64_t paged_entry_bytes_ = 0;  // a paged file's, for its fill
  std::unique_ptr<FilterSectionBuilder> filter_;  // null: no filter
  SparseIndexBuilder sparse_;
  std::string range_dels_;
  size_t peak_memory_ = 0;

  TableProperties props_;
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
