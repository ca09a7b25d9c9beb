#include "db_bench_ext/formats.h"

#include <sstream>

#include "db_bench_ext/flags.h"
#include "rocksdb/cache.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/slice_transform.h"
#include "rocksdb/table.h"
#include "rocksdb_robinhood/robinhood_table.h"

namespace db_bench_ext {

bool ParseFormats(const std::string& list, std::vector<FormatSpec>* out,
                  std::string* bad) {
  std::stringstream ss(list);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item.empty()) continue;
    FormatSpec f;
    if (item == "robinhood") {
      f = {Format::kRobinHood, item, "RobinHoodTable"};
    } else if (item == "robinhood_bloom") {
      // The same, with RocksDB's Bloom filter at --bloom_bits, beside the
      // plain one in the same run.
      f = {Format::kRobinHood, item, "RobinHoodTable+bloom"};
    } else if (item == "robinhood_nofilter") {
      // The same with filter_policy="": what the default filter costs and
      // saves, beside it in the same run.
      f = {Format::kRobinHood, item, "RobinHoodTable(no filter)"};
    } else if (item == "robinhood_log") {
      // The same with page_layout=false: files too long for a slot keep
      // the log layout, beside the paged ones in the same run.
      f = {Format::kRobinHood, item, "RobinHoodTable(log)"};
    } else if (item == "robinhood_hashorder") {
      // The same with inline_key_order=false: inline files in hash order
      // with an order array, beside key order in the same run.
      f = {Format::kRobinHood, item, "RobinHoodTable(hash order)"};
    } else if (item == "cuckoo") {
      f = {Format::kCuckoo, item, "CuckooTable"};
    } else if (item == "plain") {
      f = {Format::kPlain, item, "PlainTable"};
    } else if (item == "block") {
      f = {Format::kBlock, item, "BlockBasedTable"};
    } else {
      *bad = item;
      return false;
    }
    out->push_back(f);
  }
  return !out->empty();
}

rocksdb::CompressionType CompressionOf(const std::string& name) {
  if (name == "snappy") return rocksdb::kSnappyCompression;
  if (name == "lz4") return rocksdb::kLZ4Compression;
  if (name == "zstd") return rocksdb::kZSTD;
  return rocksdb::kNoCompression;
}

bool ValidCacheType(const std::string& name) {
  return name == "lru_cache" || name == "hyper_clock_cache";
}

namespace {
// A block cache of --cache_type; 64 shards, as db_bench's default for
// large caches.
std::shared_ptr<rocksdb::Cache> NewBlockCache(size_t capacity) {
  if (FLAGS_cache_type == "hyper_clock_cache") {
    // The mean charge of a 4 KiB block, which sizes its table.
    return rocksdb::HyperClockCacheOptions(capacity, 4096, 6)
        .MakeSharedCache();
  }
  return rocksdb::NewLRUCache(capacity, 6);
}
}  // namespace

bool ValidCompression(const std::string& name) {
  return name == "none" || name == "snappy" || name == "lz4" || name == "zstd";
}

FormatSetup MakeOptions(const FormatSpec& format, const Workload& w,
                        uint64_t num, bool mmap_read) {
  using namespace rocksdb;
  FormatSetup setup;
  Options& o = setup.options;
  o.create_if_missing = true;
  o.compression = CompressionOf(FLAGS_compression);
  o.bottommost_compression = o.compression;
  o.target_file_size_base = uint64_t(FLAGS_target_file_size_base);
  o.max_open_files = -1;
  // A bulk load: no compactions while filling; the fill phase then runs one
  // full CompactRange, so every format's files come from its own builder.
  o.disable_auto_compactions = true;
  o.level0_slowdown_writes_trigger = 1 << 30;
  o.level0_stop_writes_trigger = 1 << 30;
  o.max_background_jobs = 2;
  // The block cache of every format that has one, each its own.
  size_t cache = size_t(FLAGS_cache_size);
  if (cache == 0) {
    // Room for all data blocks with slack for per-entry block overhead.
    double per_entry = w.AverageKeySize() + w.value_size + 24;
    cache = size_t(double(num) * per_entry * 1.5) + (64u << 20);
  }
  std::ostringstream s;
  switch (format.format) {
    case Format::kRobinHood: {
      RobinHoodTableOptions rh;
      rh.load_factor = FLAGS_robinhood_load_factor;
      rh.log_block_size = static_cast<uint32_t>(FLAGS_robinhood_log_block_size);
      rh.sparse_index_interval =
          static_cast<uint32_t>(FLAGS_robinhood_sparse_index_interval);
      rh.inline_slot_limit =
          static_cast<uint32_t>(FLAGS_robinhood_inline_slot_limit);
      rh.inline_load_factor = FLAGS_robinhood_inline_load_factor;
      rh.inline_order_array = FLAGS_robinhood_inline_order_array;
      rh.inline_key_order = format.name != "robinhood_hashorder" &&
                            FLAGS_robinhood_inline_key_order;
      rh.inline_hash_order_limit = FLAGS_robinhood_inline_hash_order_limit;
      rh.page_layout =
          format.name != "robinhood_log" && FLAGS_robinhood_page_layout;
      if (format.name == "robinhood_bloom") {
        rh.filter_policy = "bloomfilter:" + std::to_string(FLAGS_bloom_bits);
      } else if (format.name == "robinhood_nofilter") {
        rh.filter_policy = "";
      } else if (FLAGS_robinhood_filter_policy != "default") {
        rh.filter_policy = FLAGS_robinhood_filter_policy;
      }
      // Used by compressed files (their decompressed blocks) and by files
      // read without mmap (the blocks and pages lookups read).
      if ((o.compression != kNoCompression || !mmap_read) &&
          FLAGS_robinhood_block_cache) {
        rh.block_cache = NewBlockCache(cache);
      }
      o.table_factory.reset(NewRobinHoodTableFactory(rh));
      o.allow_mmap_reads = mmap_read;
      s << "RobinHoodTable load_factor=" << rh.load_factor
        << " log_block_size=" << rh.log_block_size
        << " sparse_index_interval=" << rh.sparse_index_interval
        << " inline_slot_limit=" << rh.inline_slot_limit
        << " inline_load_factor=" << rh.inline_load_factor
        << " inline_order_array=" << rh.inline_order_array
        << " inline_key_order=" << rh.inline_key_order
        << " inline_hash_order_limit=" << rh.inline_hash_order_limit
        << " page_layout=" << rh.page_layout
        << " filter_policy=" << (rh.filter_policy.empty() ? "none"
                                                           : rh.filter_policy)
        << " mmap_read=" << mmap_read;
      if (rh.block_cache != nullptr) {
        s << " block_cache=" << (cache >> 20) << " MiB " << FLAGS_cache_type;
      }
      break;
    }
    case Format::kCuckoo: {
      // table.h: power-of-two tables (use_module_hash=false) are "faster in
      // general"; the other parameters are the wiki's defaults.
      CuckooTableOptions c;
      c.use_module_hash = false;
      o.table_factory.reset(NewCuckooTableFactory(c));
      o.allow_mmap_reads = true;  // required
      s << "CuckooTable hash_table_ratio=" << c.hash_table_ratio
        << " cuckoo_block_size=" << c.cuckoo_block_size
        << " use_module_hash=0 mmap_read=1 (required)";
      break;
    }
    case Format::kPlain: {
      // table.h: PlainTable looks keys up by a prefix hash, then a binary
      // search among the keys of that prefix. Every key here starts with 8
      // bytes unique to it, so an 8-byte prefix (the whole key for fixed
      // 8-byte keys) gives one key per prefix: the best case for lookups.
      PlainTableOptions p;
      p.user_key_len = w.FixedKeys() ? uint32_t(w.key_size)
                                     : kPlainTableVariableLength;
      p.bloom_bits_per_key = FLAGS_bloom_bits;
      p.hash_table_ratio = 0.75;
      p.index_sparseness = 16;
      o.table_factory.reset(NewPlainTableFactory(p));
      size_t prefix = w.FixedKeys() ? size_t(w.key_size) : size_t(w.min_key);
      o.prefix_extractor.reset(NewFixedPrefixTransform(prefix));
      o.allow_mmap_reads = true;  // its intended mode
      s << "PlainTable user_key_len="
        << (w.FixedKeys() ? std::to_string(w.key_size) : "variable")
        << " prefix=fixed:" << prefix << " bloom_bits=" << p.bloom_bits_per_key
        << " hash_table_ratio=0.75 mmap_read=1";
      break;
    }
    case Format::kBlock: {
      BlockBasedTableOptions b;
      b.filter_policy.reset(NewBloomFilterPolicy(FLAGS_bloom_bits, false));
      // The data block hash index (wiki: "Data Block Hash Index") speeds up
      // point lookups inside a block.
      b.data_block_index_type = BlockBasedTableOptions::kDataBlockBinaryAndHash;
      b.data_block_hash_table_util_ratio = 0.75;
      b.block_cache = NewBlockCache(cache);
      b.block_align = FLAGS_block_align;
      o.table_factory.reset(NewBlockBasedTableFactory(b));
      o.allow_mmap_reads = mmap_read;
      s << "BlockBasedTable bloom=" << FLAGS_bloom_bits
        << " bits/key, data block hash index, block cache "
        << (cache >> 20) << " MiB " << FLAGS_cache_type
        << (FLAGS_block_align ? ", block_align" : "")
        << ", mmap_read=" << mmap_read;
      break;
    }
  }
  if (o.compression == kNoCompression) {
    s << ", no compression";
  } else {
    s << ", " << FLAGS_compression << " (values " << FLAGS_compression_ratio
      << " random)";
  }
  setup.summary = s.str();
  return setup;
}

std::string SkipReason(const FormatSpec& f, const Workload& w,
                       const std::string& phase) {
  if (f.format == Format::kCuckoo && !w.FixedKeys()) {
    return "CuckooTable needs fixed-size keys and values; this workload's "
           "keys vary in length";
  }
  if (f.format == Format::kCuckoo && phase == "ingest") {
    return "CuckooTable's builder runs no property collectors, so "
           "SstFileWriter's files lack the external-file version and "
           "IngestExternalFile rejects them";
  }
  if (FLAGS_fill_by == "ingest" && phase.empty() &&
      (f.format == Format::kCuckoo || f.format == Format::kPlain)) {
    return "--fill_by=ingest: this format's files cannot be ingested (see "
           "its ingest phase)";
  }
  if (f.format == Format::kCuckoo &&
      (phase == "seekrandom" || phase == "readseq") &&
      !FLAGS_cuckoo_seekrandom) {
    return "CuckooTable's iterator sorts the whole file before its first "
           "Seek (its wiki: \"range scan is very slow\"; minutes at 10M "
           "keys); --cuckoo_seekrandom runs it anyway";
  }
  if (f.format == Format::kPlain && phase == "ingest") {
    return "IngestExternalFile needs SeekToLast, which PlainTable lacks "
           "(this librocksdb, built with assertions, aborts on it)";
  }
  return "";
}

std::string PhaseNote(const FormatSpec& f, const std::string& phase) {
  if (f.format == Format::kCuckoo && phase == "seekrandom") {
    return "CuckooTable's iterator sorts the whole file when first used "
           "(counted in micros/op, not in p50)";
  }
  if (f.format == Format::kPlain && phase == "seekrandom") {
    return "PlainTable seeks by prefix (no total-order Seek, no Prev)";
  }
  return "";
}

bool ScanIsSlow(const FormatSpec& f) { return f.format == Format::kCuckoo; }

}  // namespace db_bench_ext
