#include "table/robinhood_table_factory.h"

#include <cinttypes>
#include <cstdio>
#include <mutex>

#include "rocksdb/comparator.h"
#include "rocksdb/table.h"
#include "rocksdb/utilities/options_type.h"
#include "table/filter_section.h"
#include "table/robinhood_table_builder.h"
#include "table/robinhood_table_reader.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

namespace {
using O = RobinHoodTableOptions;

// BlockBasedTable's magic numbers, current and legacy: constants of its file
// format (RocksDB declares them in a header that moved in 9.0).
constexpr uint64_t kBlockBasedMagic = 0x88e241b785f4cff7ull;
constexpr uint64_t kLegacyBlockBasedMagic = 0xdb4775248b80fb57ull;

// The shortest decimal that reads back as `v` ("0.05", not "0.050000").
std::string Shortest(double v) {
  char buf[32];
  for (int digits = 1; digits <= 17; ++digits) {
    snprintf(buf, sizeof(buf), "%.*g", digits, v);
    if (strtod(buf, nullptr) == v) break;
  }
  return buf;
}

std::unordered_map<std::string, OptionTypeInfo> robinhood_type_info = {
    {"load_factor",
     {offsetof(struct RobinHoodTableOptions, load_factor), OptionType::kDouble,
      OptionVerificationType::kNormal, OptionTypeFlags::kNone}},
    {"sparse_index_interval",
     {offsetof(struct RobinHoodTableOptions, sparse_index_interval),
      OptionType::kUInt32T, OptionVerificationType::kNormal,
      OptionTypeFlags::kNone}},
    {"log_block_size",
     {offsetof(struct RobinHoodTableOptions, log_block_size),
      OptionType::kUInt32T, OptionVerificationType::kNormal,
      OptionTypeFlags::kNone}},
    {"hash_seed",
     {offsetof(struct RobinHoodTableOptions, hash_seed), OptionType::kUInt64T,
      OptionVerificationType::kNormal, OptionTypeFlags::kNone}},
    {"inline_slot_limit",
     {offsetof(struct RobinHoodTableOptions, inline_slot_limit),
      OptionType::kUInt32T, OptionVerificationType::kNormal,
      OptionTypeFlags::kNone}},
    {"inline_load_factor",
     {offsetof(struct RobinHoodTableOptions, inline_load_factor),
      OptionType::kDouble, OptionVerificationType::kNormal,
      OptionTypeFlags::kNone}},
    {"inline_order_array",
     {offsetof(struct RobinHoodTableOptions, inline_order_array),
      OptionType::kBoolean, OptionVerificationType::kNormal,
      OptionTypeFlags::kNone}},
    {"inline_key_order",
     {offsetof(struct RobinHoodTableOptions, inline_key_order),
      OptionType::kBoolean, OptionVerificationType::kNormal,
      OptionTypeFlags::kNone}},
    {"inline_hash_order_limit",
     {offsetof(struct RobinHoodTableOptions, inline_hash_order_limit),
      OptionType::kUInt64T, OptionVerificationType::kNormal,
      OptionTypeFlags::kNone}},
    {"page_layout",
     {offsetof(struct RobinHoodTableOptions, page_layout),
      OptionType::kBoolean, OptionVerificationType::kNormal,
      OptionTypeFlags::kNone}},
    // No filter is "" in the struct and "none" in OPTIONS files: with a
    // default that is not empty, an empty value must survive a round trip
    // (9.x's OPTIONS check drops it, then finds the default).
    {"filter_policy",
     {offsetof(struct RobinHoodTableOptions, filter_policy),
      OptionType::kString, OptionVerificationType::kNormal,
      OptionTypeFlags::kNone,
      [](const ConfigOptions& /*opts*/, const std::string& /*name*/,
         const std::string& value, void* addr) {
        *static_cast<std::string*>(addr) =
            value == kNoFilterPolicy ? std::string() : value;
        return Status::OK();
      },
      [](const ConfigOptions& /*opts*/, const std::string& /*name*/,
         const void* addr, std::string* value) {
        const auto* policy = static_cast<const std::string*>(addr);
        *value = policy->empty() ? kNoFilterPolicy : *policy;
        return Status::OK();
      },
      [](const ConfigOptions& /*opts*/, const std::string& /*name*/,
         const void* addr1, const void* addr2, std::string* /*mismatch*/) {
        return *static_cast<const std::string*>(addr1) ==
               *static_cast<const std::string*>(addr2);
      }}},
    {"build_memory_limit",
     {offsetof(struct RobinHoodTableOptions, build_memory_limit),
      OptionType::kUInt64T, OptionVerificationType::kNormal,
      OptionTypeFlags::kNone}},
    {"build_spill_dir",
     {offsetof(struct RobinHoodTableOptions, build_spill_dir),
      OptionType::kString, OptionVerificationType::kNormal,
      OptionTypeFlags::kNone}},
    // As BlockBasedTable's: a capacity ("256M") or a cache's own options
    // string; not written to OPTIONS files, nor compared.
    {"block_cache",
     {offsetof(struct RobinHoodTableOptions, block_cache),
      OptionType::kUnknown, OptionVerificationType::kNormal,
      (OptionTypeFlags::kCompareNever | OptionTypeFlags::kDontSerialize),
      [](const ConfigOptions& opts, const std::string& /*name*/,
         const std::string& value, void* addr) {
        auto* cache = static_cast<std::shared_ptr<Cache>*>(addr);
        return Cache::CreateFromString(opts, value, cache);
      }}},
};
}  // namespace

RobinHoodTableFactory::RobinHoodTableFactory(
    const RobinHoodTableOptions& options)
    : options_(options), block_based_(NewBlockBasedTableFactory()) {
  RegisterOptions(&options_, &robinhood_type_info);
}

Status RobinHoodTableFactory::Validate(const RobinHoodTableOptions& o) {
  auto out_of_range = [](const char* name, const std::string& lo,
                         const std::string& hi, const std::string& got) {
    return Status::InvalidArgument("RobinHoodTable option " +
                                   std::string(name) + " must be in [" + lo +
                                   ", " + hi + "], got " + got);
  };
  // Written so that NaN fails too.
  if (!(o.load_factor >= O::kMinLoadFactor &&
        o.load_factor <= O::kMaxLoadFactor)) {
    return out_of_range("load_factor", Shortest(O::kMinLoadFactor),
                        Shortest(O::kMaxLoadFactor),
                        std::to_string(o.load_factor));
  }
  if (o.sparse_index_interval < O::kMinSparseIndexInterval ||
      o.sparse_index_interval > O::kMaxSparseIndexInterval) {
    return out_of_range("sparse_index_interval",
                        std::to_string(O::kMinSparseIndexInterval),
                        std::to_string(O::kMaxSparseIndexInterval),
                        std::to_string(o.sparse_index_interval));
  }
  if (o.log_block_size < O::kMinLogBlockSize ||
      o.log_block_size > O::kMaxLogBlockSize) {
    return out_of_range("log_block_size", std::to_string(O::kMinLogBlockSize),
                        std::to_string(O::kMaxLogBlockSize),
                        std::to_string(o.log_block_size));
  }
  if (o.inline_slot_limit != 0 &&
      (o.inline_slot_limit < O::kMinInlineSlotLimit ||
       o.inline_slot_limit > O::kMaxInlineSlotLimit)) {
    return out_of_range("inline_slot_limit",
                        std::to_string(O::kMinInlineSlotLimit),
                        std::to_string(O::kMaxInlineSlotLimit),
                        std::to_string(o.inline_slot_limit) +
                            " (0 turns the inline layout off)");
  }
  if (!(o.inline_load_factor >= O::kMinLoadFactor &&
        o.inline_load_factor <= O::kMaxInlineLoadFactor)) {
    return out_of_range("inline_load_factor", Shortest(O::kMinLoadFactor),
                        Shortest(O::kMaxInlineLoadFactor),
                        std::to_string(o.inline_load_factor));
  }
  if (o.build_memory_limit != 0 &&
      o.build_memory_limit < O::kMinBuildMemoryLimit) {
    return Status::InvalidArgument(
        "RobinHoodTable option build_memory_limit must be 0 (no bound) or at "
        "least " + std::to_string(O::kMinBuildMemoryLimit) + ", got " +
        std::to_string(o.build_memory_limit));
  }
  FilterSpec filter;
  return ResolveFilterPolicy(o.filter_policy, &filter);
}

Status RobinHoodTableFactory::PrepareOptions(const ConfigOptions& config) {
  Status s = Validate(options_);
  return s.ok() ? TableFactory::PrepareOptions(config) : s;
}

Status RobinHoodTableFactory::ValidateOptions(
    const DBOptions& db_opts, const ColumnFamilyOptions& cf_opts) const {
  Status s = Validate(options_);
  if (!s.ok()) return s;
  if (cf_opts.comparator != nullptr &&
      cf_opts.comparator->timestamp_size() > 0) {
    return Status::NotSupported(
        "RobinHoodTable does not support user-defined timestamps");
  }
  return TableFactory::ValidateOptions(db_opts, cf_opts);
}

Status RobinHoodTableFactory::NewTableReader(
    const ReadOptions& ro, const TableReaderOptions& tro,
    std::unique_ptr<RandomAccessFileReader>&& file, uint64_t file_size,
    std::unique_ptr<TableReader>* table,
    bool prefetch_index_and_filter_in_cache) const {
  // A DB that switches its table_factory to RobinHoodTable keeps its
  // BlockBasedTable files until compaction rewrites them in our format, and
  // may ingest such files: RocksDB's own reader reads those, as its
  // AdaptiveTableFactory would. Only the magic number decides; anything
  // else is ours to read or to refuse.
  if (file_size >= 8) {
    char buf[8];
    Slice magic;
    IOStatus s = compat::ReadAt(file.get(), IOOptions(), file_size - 8, 8,
                                 &magic, buf);
    if (s.ok() && magic.size() == 8) {
      const uint64_t m = DecodeFixed64(magic.data());
      if (m == kBlockBasedMagic || m == kLegacyBlockBasedMagic) {
        return block_based_->NewTableReader(ro, tro, std::move(file),
                                            file_size, table,
                                            prefetch_index_and_filter_in_cache);
      }
    }
  }
  return RobinHoodTableReader::Open(tro.ioptions, tro.internal_comparator,
                                    std::move(file), file_size,
                                    tro.largest_seqno, table, &KeyHash,
                                    options_.block_cache, tro.immortal);
}

TableBuilder* RobinHoodTableFactory::NewTableBuilder(
    const TableBuilderOptions& tbo, WritableFileWriter* file) const {
  return new RobinHoodTableBuilder(options_, tbo, file);
}

std::string RobinHoodTableFactory::GetPrintableOptions() const {
  char buf[384];
  snprintf(buf, sizeof(buf),
           "  load_factor: %g\n  sparse_index_interval: %" PRIu32
           "\n  log_block_size: %" PRIu32 "\n  hash_seed: %" PRIu64
           "\n  inline_slot_limit: %" PRIu32
           "\n  inline_load_factor: %g\n  inline_order_array: %d"
           "\n  inline_key_order: %d\n  page_layout: %d\n",
           options_.load_factor, options_.sparse_index_interval,
           options_.log_block_size, options_.hash_seed,
           options_.inline_slot_limit, options_.inline_load_factor,
           options_.inline_order_array ? 1 : 0,
           options_.inline_key_order ? 1 : 0, options_.page_layout ? 1 : 0);
  std::string out = buf;
  out += "  inline_hash_order_limit: " +
         std::to_string(options_.inline_hash_order_limit) + "\n";
  out += "  filter_policy: " + options_.filter_policy + "\n";
  out += "  build_memory_limit: " +
         std::to_string(options_.build_memory_limit) + "\n";
  out += "  build_spill_dir: " + options_.build_spill_dir + "\n";
  out += "  block_cache: ";
  out += options_.block_cache == nullptr
             ? std::string("none")
             : std::to_string(options_.block_cache->GetCapacity()) +
                   " bytes (" + options_.block_cache->Name() + ")";
  return out + "\n";
}

}  // namespace robinhood

TableFactory* NewRobinHoodTableFactory(const RobinHoodTableOptions& options) {
  return new robinhood::RobinHoodTableFactory(options);
}

int RegisterRobinHoodTable(ObjectLibrary& library, const std::string& /*arg*/) {
  library.AddFactory<TableFactory>(
      kRobinHoodTableName,
      [](const std::string& /*uri*/, std::unique_ptr<TableFactory>* guard,
         std::string* /*errmsg*/) {
        guard->reset(new robinhood::RobinHoodTableFactory());
        return guard->get();
      });
  return 1;
}

void RegisterRobinHoodTableDefault() {
  static std::once_flag once;
  std::call_once(once, [] {
    RegisterRobinHoodTable(*ObjectLibrary::Default(), "");
  });
}

}  // namespace ROCKSDB_NAMESPACE

// The registrar RocksDB's generated build_version.cc names when this folder
// is built in tree (robinhood.mk's robinhood_FUNC): RocksDB's ObjectRegistry
// calls it, so db_bench, ldb and sst_dump know "RobinHoodTable" unaided.
extern "C" int robinhood_table_register(ROCKSDB_NAMESPACE::ObjectLibrary& library,
                                        const std::string& arg) {
  return ROCKSDB_NAMESPACE::RegisterRobinHoodTable(library, arg);
}
