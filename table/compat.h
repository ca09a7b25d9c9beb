// Every RocksDB internal call or override whose signature moved between
// releases, in one place, keyed on ROCKSDB_MAJOR/ROCKSDB_MINOR: supporting a
// newer host means editing this file only. Supported: 7.8 through 11.x (see
// docs/compatibility.md for what was verified on each). Each entry says
// which release changed what.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "db/table_properties_collector.h"
#include "file/random_access_file_reader.h"
#include "file/writable_file_writer.h"
#include "rocksdb/version.h"
#include "table/format.h"
#include "table/get_context.h"
#include "table/meta_blocks.h"
#include "table/table_builder.h"
#include "table/table_reader.h"

#define RH_ROCKSDB_AT_LEAST(major, minor) \
  (ROCKSDB_MAJOR > (major) ||             \
   (ROCKSDB_MAJOR == (major) && ROCKSDB_MINOR >= (minor)))

#if RH_ROCKSDB_AT_LEAST(10, 2)
#include "table/block_based/block.h"
#endif
#if RH_ROCKSDB_AT_LEAST(8, 11)
#include "db/seqno_to_time_mapping.h"
#endif
#if RH_ROCKSDB_AT_LEAST(8, 0)
#include "rocksdb/advanced_cache.h"
#else
#include "rocksdb/cache.h"
#endif

// Overrides whose parameter lists changed: the reader and builder declare
// them with these, so the class compiles against each host.
//
// 8.2: ApproximateOffsetOf/ApproximateSize take the ReadOptions first.
#if RH_ROCKSDB_AT_LEAST(8, 2)
#define RH_APPROXIMATE_READ_OPTIONS const ReadOptions& /*read_options*/,
#else
#define RH_APPROXIMATE_READ_OPTIONS
#endif
// 10.8: VerifyChecksum gains meta_blocks_only (we verify everything; our
// tools' calls ask for everything with RH_VERIFY_CHECKSUM_ALL).
#if RH_ROCKSDB_AT_LEAST(10, 8)
#define RH_VERIFY_CHECKSUM_EXTRA , bool /*meta_blocks_only*/
#define RH_VERIFY_CHECKSUM_ALL , /*meta_blocks_only=*/false
#else
#define RH_VERIFY_CHECKSUM_EXTRA
#define RH_VERIFY_CHECKSUM_ALL
#endif
// 8.7: DB iterators take range tombstones from
// NewRangeTombstoneIterator(SequenceNumber, const Slice*), whose base
// version returns null: without the override, range deletions vanish from
// iterators.
#define RH_HAS_SEQNO_TOMBSTONE_ITERATOR RH_ROCKSDB_AT_LEAST(8, 7)
// 9.8: TableFactory::Clone() is pure virtual (it does not exist before).
#define RH_HAS_TABLE_FACTORY_CLONE RH_ROCKSDB_AT_LEAST(9, 8)
// 11.0: TableBuilderOptions loses skip_filters (and SstFileWriter the
// argument that set it).
#define RH_HAS_BUILDER_SKIP_FILTERS (!RH_ROCKSDB_AT_LEAST(11, 0))

namespace ROCKSDB_NAMESPACE {
namespace robinhood {
namespace compat {

// 10.0 dropped kZSTDNotFinalCompression; files written with it (zstd data
// under type byte 0x40) stay readable.
constexpr CompressionType kZstdNotFinal = static_cast<CompressionType>(0x40);

// 9.0 renamed IntTblPropCollector to InternalTblPropColl, and the
// TableBuilderOptions member that lists the factories.
#if RH_ROCKSDB_AT_LEAST(9, 0)
using Collector = InternalTblPropColl;
using CollectorFactories = InternalTblPropCollFactories;
inline const CollectorFactories* FactoriesOf(const TableBuilderOptions& tbo) {
  return tbo.internal_tbl_prop_coll_factories;
}
#else
using Collector = IntTblPropCollector;
using CollectorFactories = IntTblPropCollectorFactories;
inline const CollectorFactories* FactoriesOf(const TableBuilderOptions& tbo) {
  return tbo.int_tbl_prop_collector_factories;
}
#endif

// 9.4 passes num_levels and the last-level seqno threshold too (from the
// TableBuilderOptions, which became the collectors' Context).
template <class Factory>
Collector* NewCollector(Factory* factory, const TableBuilderOptions& tbo) {
#if RH_ROCKSDB_AT_LEAST(9, 4)
  return factory->CreateInternalTblPropColl(
      tbo.column_family_id, tbo.level_at_creation, tbo.num_levels,
      tbo.last_level_inclusive_max_seqno_threshold);
#elif RH_ROCKSDB_AT_LEAST(9, 0)
  return factory->CreateInternalTblPropColl(tbo.column_family_id,
                                            tbo.level_at_creation);
#else
  return factory->CreateIntTblPropCollector(tbo.column_family_id,
                                            tbo.level_at_creation);
#endif
}

// 8.9 hands back what the collectors added, so the builder's own
// TableProperties carry them as the file's do.
inline void NotifyCollectorsOnFinish(
    const std::vector<std::unique_ptr<Collector>>& collectors, Logger* logger,
    PropertyBlockBuilder* builder, TableProperties* props) {
#if RH_ROCKSDB_AT_LEAST(8, 9)
  NotifyCollectTableCollectorsOnFinish(collectors, logger, builder,
                                       props->user_collected_properties,
                                       props->readable_properties);
#else
  (void)props;
  NotifyCollectTableCollectorsOnFinish(collectors, logger, builder);
#endif
}

// 8.6 moved the rate-limiter priority into IOOptions (10.3 added a
// defaulted debug context, 11.4 retyped the aligned buffer: nullptr fits).
inline IOStatus ReadAt(const RandomAccessFileReader* file,
                       const IOOptions& opts, uint64_t offset, size_t n,
                       Slice* result, char* scratch) {
#if RH_ROCKSDB_AT_LEAST(8, 6)
  return file->Read(opts, offset, n, result, scratch,
                    /*aligned_buf=*/nullptr);
#else
  return file->Read(opts, offset, n, result, scratch,
                    /*aligned_buf=*/nullptr, opts.rate_limiter_priority);
#endif
}

// 8.11: WritableFileWriter::Append takes IOOptions.
inline IOStatus Append(WritableFileWriter* file, const Slice& data) {
#if RH_ROCKSDB_AT_LEAST(8, 11)
  return file->Append(IOOptions(), data);
#else
  return file->Append(data);
#endif
}

// 8.11: WritableFileWriter::Close takes IOOptions too.
inline IOStatus Close(WritableFileWriter* file) {
#if RH_ROCKSDB_AT_LEAST(8, 11)
  return file->Close(IOOptions());
#else
  return file->Close();
#endif
}

// 9.1: the fourth parameter is Status* read_status (merge and blob errors
// land there; a null one crashes on them). Before, the pinner was fourth.
// `pinner` (may be null: RocksDB copies the value) keeps `value` valid
// where RocksDB pins it.
inline bool SaveValue(GetContext* get_context, const ParsedInternalKey& key,
                      const Slice& value, bool* matched, Status* read_status,
                      Cleanable* pinner) {
#if RH_ROCKSDB_AT_LEAST(9, 1)
  return get_context->SaveValue(key, value, matched, read_status, pinner);
#else
  (void)read_status;
  return get_context->SaveValue(key, value, matched, pinner);
#endif
}

// 8.11: SetSeqnoTimeTableProperties takes the mapping, not its encoding.
#if RH_ROCKSDB_AT_LEAST(8, 11)
using SeqnoTimeMapping = SeqnoToTimeMapping;
inline std::string Encode(const SeqnoToTimeMapping& mapping) {
  std::string out;
  mapping.EncodeTo(out);
  return out;
}
#else
using SeqnoTimeMapping = std::string;
inline std::string Encode(const std::string& encoded) { return encoded; }
#endif

// RocksDB's properties parser over bytes we have already checksummed and
// walked (properties_section.cc). 10.2 exposes the parser on a Block; before
// it, the helper that reads the block wants RocksDB's Footer (which 11.0
// would refuse to decode from our magic number, hence the split).
inline Status ReadProperties(RandomAccessFileReader* file,
                             const BlockHandle& handle, const Slice& contents,
                             const Slice& footer_bytes, uint64_t footer_offset,
                             const ImmutableOptions& ioptions,
                             std::unique_ptr<TableProperties>* props) {
#if RH_ROCKSDB_AT_LEAST(10, 2)
  (void)file;
  (void)footer_bytes;
  (void)footer_offset;
  Block block{BlockContents(contents)};
  // The parser fills a TableProperties its caller made (it writes through
  // the pointer it is given).
  props->reset(new TableProperties);
  Status s = ParsePropertiesBlock(ioptions, handle.offset(), block, *props);
  if (!s.ok()) props->reset();
  return s;
#else
  (void)contents;
  // Our footer, already verified, with the version field RocksDB's decoder
  // accepts (ours is tagged to keep RocksDB's own readers out).
  std::string rocksdb_view = footer_bytes.ToString();
  EncodeFixed32(&rocksdb_view[rocksdb_view.size() - 12], 1);
  Footer footer;
  Status s = footer.DecodeFrom(rocksdb_view, footer_offset);
  if (!s.ok()) return s;
  return ReadTablePropertiesHelper(ReadOptions(), handle, file,
                                   /*prefetch_buffer=*/nullptr, footer,
                                   ioptions, props);
#endif
}

// For tests: 8.0 gave KeyContext the wide columns MultiGetEntity fills,
// between the value and the timestamp.
#if RH_ROCKSDB_AT_LEAST(8, 0)
#define RH_KEY_CONTEXT_COLUMNS nullptr,
#else
#define RH_KEY_CONTEXT_COLUMNS
#endif

// For tests (a FileSystem wrapper): 9.0 made ReadAsync's callback take the
// request by non-const reference.
#if RH_ROCKSDB_AT_LEAST(9, 0)
using ReadAsyncCallback = std::function<void(FSReadRequest&, void*)>;
#else
using ReadAsyncCallback = std::function<void(const FSReadRequest&, void*)>;
#endif

// For tests and tools: a TableBuilderOptions together with what it refers
// to. 8.11 added ReadOptions and WriteOptions, 9.9 newest_key_time.
struct OwnedBuilderOptions {
  OwnedBuilderOptions(const ImmutableOptions& ioptions,
                      const MutableCFOptions& moptions,
                      const InternalKeyComparator& icmp,
                      CompressionType compression, int level = -1)
      : tbo(ioptions, moptions,
#if RH_ROCKSDB_AT_LEAST(8, 11)
            read_options, write_options,
#endif
            icmp, &collectors, compression, compression_opts,
            /*column_family_id=*/0, cf_name, level
#if RH_ROCKSDB_AT_LEAST(9, 9)
            ,
            /*newest_key_time=*/0
#endif
        ) {
  }
  CollectorFactories collectors;
  const CompressionOptions compression_opts;
  const std::string cf_name = "default";
  const ReadOptions read_options;
  const WriteOptions write_options;
  TableBuilderOptions tbo;  // last: it refers to the members above
};

// For tests and tools: TableReaderOptions. 8.3 added
// block_protection_bytes_per_key, 10.4 the compression manager.
inline TableReaderOptions MakeReaderOptions(
    const ImmutableOptions& ioptions,
    const std::shared_ptr<const SliceTransform>& prefix_extractor,
    const EnvOptions& env_options, const InternalKeyComparator& icmp) {
  return TableReaderOptions(ioptions, prefix_extractor,
#if RH_ROCKSDB_AT_LEAST(10, 4)
                            /*compression_manager=*/nullptr,
#endif
                            env_options, icmp
#if RH_ROCKSDB_AT_LEAST(8, 3)
                            ,
                            /*block_protection_bytes_per_key=*/0
#endif
  );
}

// For tests and tools: ApproximateOffsetOf/ApproximateSize as callers see
// them (8.2 added the ReadOptions).
inline uint64_t ApproximateOffsetOf(TableReader* table, const Slice& key,
                                    TableReaderCaller caller) {
#if RH_ROCKSDB_AT_LEAST(8, 2)
  return table->ApproximateOffsetOf(ReadOptions(), key, caller);
#else
  return table->ApproximateOffsetOf(key, caller);
#endif
}
inline uint64_t ApproximateSize(TableReader* table, const Slice& start,
                                const Slice& end, TableReaderCaller caller) {
#if RH_ROCKSDB_AT_LEAST(8, 2)
  return table->ApproximateSize(ReadOptions(), start, end, caller);
#else
  return table->ApproximateSize(start, end, caller);
#endif
}

// For tests: RocksDB's own reader of a file's properties, through its
// footer. 8.2 added the ReadOptions. It cannot read our files from 11.0 on.
inline Status HostReadTableProperties(RandomAccessFileReader* file,
                                      uint64_t file_size, uint64_t magic,
                                      const ImmutableOptions& ioptions,
                                      std::unique_ptr<TableProperties>* props) {
#if RH_ROCKSDB_AT_LEAST(8, 2)
  return ReadTableProperties(file, file_size, magic, ioptions, ReadOptions(),
                             props);
#else
  return ReadTableProperties(file, file_size, magic, ioptions, props);
#endif
}

// 8.0: a Cache entry carries a CacheItemHelper (its role and deleter)
// instead of a bare deleter, and Cache moved to advanced_cache.h; a
// release after 7.8 had dropped the key from the deleter (either works).
// Inserts `block` (a new char[]) and pins it in `*handle`; on OK the cache
// owns `block` and deletes it with delete[], else the caller still owns it
// (every release says so for a non-null handle).
namespace detail {
inline void DeleteCachedBlockFn(const Slice& /*key*/, void* value) {
  delete[] static_cast<char*>(value);
}
inline void DeleteCachedBlockFn(void* value, MemoryAllocator* /*allocator*/) {
  delete[] static_cast<char*>(value);
}
}  // namespace detail
inline Status CacheInsert(Cache* cache, const Slice& key, char* block,
                          size_t charge, Cache::Handle** handle) {
#if RH_ROCKSDB_AT_LEAST(8, 0)
  static const Cache::CacheItemHelper kHelper(CacheEntryRole::kDataBlock,
                                              &detail::DeleteCachedBlockFn);
  return cache->Insert(key, block, &kHelper, charge, handle);
#else
  return cache->Insert(key, block, charge,
                       static_cast<Cache::DeleterFn>(
                           &detail::DeleteCachedBlockFn),
                       handle);
#endif
}

}  // namespace compat
}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
