// RobinHoodTable: a RocksDB table format for data that is bulk-loaded or
// compacted and then read far more often than written. Each SST file is an
// append log of entries plus a Robin Hood hash index over the user keys
// (Sparkey's design), so a point lookup costs one short probe of the index and
// one read of the entry; a file of small compacted puts keeps its entries in
// the index's slots instead (the inline layout): one probe and nothing else.
// See docs/format.md for the byte layout.
//
// Use it from code:
//   options.table_factory.reset(rocksdb::NewRobinHoodTableFactory());
// or from configuration, once registered (RegisterRobinHoodTable, or by
// loading librocksdb_robinhood.so, which registers itself):
//   table_factory={id=RobinHoodTable;load_factor=0.85}
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "rocksdb/table.h"
#include "rocksdb/utilities/object_registry.h"

namespace ROCKSDB_NAMESPACE {

struct RobinHoodTableOptions {
  static const char* kName() { return "RobinHoodTableOptions"; }

  // Distinct user keys divided by hash slots. Higher saves index space and
  // lengthens probes; Robin Hood placement keeps probes short up to about
  // 0.95. Valid range: [kMinLoadFactor, kMaxLoadFactor].
  double load_factor = 0.85;
  static constexpr double kMinLoadFactor = 0.05;
  static constexpr double kMaxLoadFactor = 0.98;

  // The sparse ordered index (used by Seek and by iterators) records one key
  // in every `sparse_index_interval` entries, and the first entry of every
  // log block; in a file whose log blocks are compressed, only the latter (a
  // compressed block is decoded whole before any entry of it is read). A
  // Seek reads the block of the record a binary search finds and halves
  // the block's entries from there.
  // Valid range: [kMinSparseIndexInterval, kMaxSparseIndexInterval].
  uint32_t sparse_index_interval = 16;
  static constexpr uint32_t kMinSparseIndexInterval = 1;
  static constexpr uint32_t kMaxSparseIndexInterval = 65536;

  // Target size in bytes of a log block, the unit of checksumming (and of
  // compression). A block closes after the entry that reaches this size, so
  // entries never straddle blocks. Valid range: [kMinLogBlockSize,
  // kMaxLogBlockSize], i.e. 256 bytes to 64 MiB.
  uint32_t log_block_size = 4096;
  static constexpr uint32_t kMinLogBlockSize = 256;
  static constexpr uint32_t kMaxLogBlockSize = 64u << 20;

  // Seed of the 64-bit XXH3 hash of user keys. Part of each file (recorded
  // in it), so files written with different seeds are all readable.
  uint64_t hash_seed = 0x526f62696e486f6fULL;  // "RobinHoo"

  // The inline layout (docs/format.md): a file whose every entry is a
  // compacted put (sequence number 0, a plain value: what the bottommost
  // compaction and SstFileWriter write) and fits a slot of at most
  // `inline_slot_limit` bytes (1 + longest key + longest value, plus a
  // length byte for each that varies; slots in key order leave out the
  // prefix every key of the file shares) keeps its entries in the hash
  // table's slots, so a lookup reads one run of adjacent slots and no log.
  // Other files keep the log layout. 0 turns the inline layout off. The default
  // keeps a slot within a cache line. Valid range: 0 or
  // [kMinInlineSlotLimit, kMaxInlineSlotLimit].
  uint32_t inline_slot_limit = 64;
  static constexpr uint32_t kMinInlineSlotLimit = 2;
  static constexpr uint32_t kMaxInlineSlotLimit = 513;
  // Entries divided by home slots in inline files. Lower spends bytes to
  // shorten the run a lookup reads (docs/benchmarks.md measures the trade).
  // Valid range: [kMinLoadFactor, kMaxInlineLoadFactor].
  double inline_load_factor = 0.8;
  static constexpr double kMaxInlineLoadFactor = 0.95;
  // Whether an inline file stores its key order: the slot of every entry in
  // key order, 1 to 5 bytes each (3 for up to 16M slots; about a sixth of
  // a file of 8-byte keys and 4-byte values). Without it the file is that
  // much smaller and point lookups are unchanged, but the first iterator
  // over the file (a scan, a Seek, a compaction) reads every slot and
  // sorts the keys, as CuckooTable's iterators do, and the table then
  // holds 4 bytes per entry in memory for as long as it is open.
  bool inline_order_array = true;
  // Whether an inline file may place its slots in key order: a key's home
  // is then an estimate of its rank from the key's bytes instead of a hash
  // (needs the bytewise comparator). The builder takes key order only
  // where its probe runs come out as short as hashing's (keys spread
  // evenly enough over their range: counters, ids, random keys); the file
  // then needs no order array (inline_order_array does not apply), and a
  // Seek reads one run of slots, as a point lookup does. Such files are
  // format version 4. false: hash order always.
  bool inline_key_order = true;
  // The largest inline file in hash order: its slots and order array,
  // bytes. A scan of such a file steps from slot to slot at random, so a
  // compaction reads it whole into memory when the file is read without
  // mmap, and a slot at a time in random order through the mapping with
  // mmap (a disk read an entry once the file is past memory). A file whose
  // keys would take hash order and more bytes than this takes the paged
  // layout instead (page_layout; else the log): its entries in key order,
  // one page a lookup, read in order by scans and compactions. Files in
  // key order have no limit. In option strings a size:
  // inline_hash_order_limit=1G. 0: no limit.
  uint64_t inline_hash_order_limit = uint64_t{256} << 20;

  // The paged layout (docs/format.md): a file of compacted puts that is
  // not inline (an entry too long for a slot), whose every entry fits a
  // page of 4096 bytes (about 4 KiB of key and value), under the bytewise
  // comparator, keeps its entries in key order in pages, with a page index
  // of one short key a page in place of the hash index and the log. A
  // lookup reads one page; the file takes about the bytes of the entries.
  // Pages are never compressed: where the column family has a codec that
  // would save an eighth of a file's first 64 KiB of entries, the file
  // keeps the log layout and its compressed blocks. Such files are format
  // version 6 (7 with larger pages). The builder writes the pages as they
  // fill; an entry no page takes that comes after them (a longer one, or
  // one that is not a compacted put) starts a log behind them, with a
  // hash index of its own (format version 8, layout "paged+log"). false:
  // such files keep the log layout.
  bool page_layout = true;

  // A filter over each file's keys. Get and MultiGet ask it before the
  // slots or pages, so a lookup of a key the file lacks reads one cache
  // line of a filter of about bits / 8 bytes a key, which stays cached far
  // better than the slots; a lookup of a key the file has asks for its
  // home's line first and waits on both at once. It pays wherever lookups
  // reach files that lack their keys: every level above the last, and
  // keys that are often absent. "hashbloom:<bits>" (bits an integer from
  // 1 to 64): a cache-local Bloom filter over the file's own key hashes,
  // about 1% false positives at 10 bits, built within build_memory_limit.
  // RocksDB's built-in filters, named as BlockBasedTable's filter_policy
  // is in option strings, are accepted too: "bloomfilter:10",
  // "ribbonfilter:10" (the same rate in about 30% fewer bytes, slower to
  // build and probe); their builders hold 8 bytes a key outside the bound.
  // Files built with optimize_filters_for_hits at the bottommost level get
  // none, as BlockBasedTable's. Readers use any file's filter whatever
  // this option says. Empty (or "none", as OPTIONS files write it): no
  // filter.
  std::string filter_policy = "hashbloom:10";

  // A cache of verified, decompressed log blocks, for files whose blocks
  // are compressed (a column family with a codec), and of the raw log
  // blocks, pages and pages of slots of files read without mmap
  // (allow_mmap_reads=false): a lookup whose block is cached reads its
  // entry there and reads and decompresses nothing, as BlockBasedTable's
  // data blocks work. Lookups and user scans take what it holds and
  // (ReadOptions::fill_cache) put the blocks they read there (scans of
  // inline files read around it); compactions read around it. Reads that
  // may not block (ReadOptions::read_tier kBlockCacheTier) answer from it. Give it the same cache as
  // BlockBasedTableOptions::block_cache to hold both to one budget. A
  // file's entries there stay found when it is opened again (keyed, as
  // BlockBasedTable's, by the session that wrote it and its number).
  // Uncompressed files read with mmap never use it: their entries are read
  // where they lie. In option strings, a capacity: block_cache=1G. Not
  // written to OPTIONS files (as BlockBasedTable's). Empty: each lookup in
  // a compressed block decompresses it, and each lookup without mmap reads
  // its block or page (and checks its checksum).
  std::shared_ptr<Cache> block_cache;

  // The memory a builder may hold for one file, bytes. Past it, what a
  // builder otherwise holds for the whole file (the hash index's records,
  // 12 bytes a key; an inline or paged file's entries; the sparse index;
  // a hash filter's hashes, 8 bytes a key) goes to temporary files in
  // build_spill_dir, sorted in runs where it must be, and comes back at
  // Finish: the file is the same byte for byte, at the cost of writing and
  // reading that data once or twice more. Not covered: the keys of
  // RocksDB's built-in filters (8 bytes a key), range tombstones, the open
  // log block and the block table (4 bytes a log block). In option strings a size: build_memory_limit=1G.
  // 0: no bound. Otherwise at least kMinBuildMemoryLimit.
  uint64_t build_memory_limit = 0;
  static constexpr uint64_t kMinBuildMemoryLimit = uint64_t{16} << 20;
  // The directory for a bounded builder's temporary files
  // (<file>.<pid>-<k>.<n>.rhspill, removed as they are used up and when
  // the builder goes). Empty: the directory of the file being built.
  std::string build_spill_dir;
};

// The name under which the factory is registered and printed.
constexpr char kRobinHoodTableName[] = "RobinHoodTable";

// User-collected properties every RobinHoodTable file carries
// (TableProperties::user_collected_properties), for tools and monitoring.
// Values are decimal strings.
struct RobinHoodTablePropertyNames {
  // "RobinHoodTable" (RocksDB 7.8's TableProperties has no factory name).
  static constexpr const char* kFactory = "rocksdb.robinhood.factory";
  static constexpr const char* kFormatVersion =
      "rocksdb.robinhood.format.version";
  // Distinct keys divided by home slots, as built.
  static constexpr const char* kLoadFactor = "rocksdb.robinhood.load.factor";
  static constexpr const char* kMaxDisplacement =
      "rocksdb.robinhood.max.displacement";
  static constexpr const char* kMeanDisplacement =
      "rocksdb.robinhood.mean.displacement";
  // Bytes of the hash index's slots.
  static constexpr const char* kIndexBytes = "rocksdb.robinhood.index.bytes";
  static constexpr const char* kDistinctKeys =
      "rocksdb.robinhood.distinct.keys";
  // The builder's index memory at its peak.
  static constexpr const char* kBuilderPeakBytes =
      "rocksdb.robinhood.builder.peak.bytes";
  // "inline", "paged", "paged+log" (pages, then a log) or "log" (format
  // version 2 on; version 1 files are "log").
  static constexpr const char* kLayout = "rocksdb.robinhood.layout";
  // Of an inline file: "key" if its slots are in key order, else "hash".
  static constexpr const char* kSlotOrder = "rocksdb.robinhood.slot.order";
};

// Returns a new factory. The caller owns it (wrap it in a shared_ptr).
TableFactory* NewRobinHoodTableFactory(
    const RobinHoodTableOptions& options = RobinHoodTableOptions());

// Registers the factory with `library` under the id "RobinHoodTable", so
// options strings and OPTIONS files can name it. Has the signature of an
// ObjectLibrary::RegistrarFunc; returns the number of factories registered.
int RegisterRobinHoodTable(ObjectLibrary& library, const std::string& arg);

// Registers with ObjectLibrary::Default(). Safe to call more than once.
void RegisterRobinHoodTableDefault();

}  // namespace ROCKSDB_NAMESPACE
