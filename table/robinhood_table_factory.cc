#include "table/robinhood_table_factory.h"

#include <cinttypes>
#include <cstdio>
#include <mutex>

#include "rocksdb/comparator.h"
#include "rocksdb/utilities/options_type.h"
#include "table/robinhood_table_builder.h"
#include "table/robinhood_table_reader.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

namespace {
// Valid ranges, as documented in robinhood_table.h.
constexpr double kMinLoadFactor = 0.05;
constexpr double kMaxLoadFactor = 0.98;
constexpr uint32_t kMaxSparseInterval = 65536;
constexpr uint32_t kMinBlockSize = 256;
constexpr uint32_t kMaxBlockSize = 64u << 20;

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
};
}  // namespace

RobinHoodTableFactory::RobinHoodTableFactory(
    const RobinHoodTableOptions& options)
    : options_(options) {
  RegisterOptions(&options_, &robinhood_type_info);
}

Status RobinHoodTableFactory::Validate(const RobinHoodTableOptions& o) {
  // Written so that NaN fails too.
  if (!(o.load_factor >= kMinLoadFactor && o.load_factor <= kMaxLoadFactor)) {
    return Status::InvalidArgument(
        "RobinHoodTable option load_factor must be in [0.05, 0.98], got " +
        std::to_string(o.load_factor));
  }
  if (o.sparse_index_interval < 1 ||
      o.sparse_index_interval > kMaxSparseInterval) {
    return Status::InvalidArgument(
        "RobinHoodTable option sparse_index_interval must be in [1, 65536], "
        "got " + std::to_string(o.sparse_index_interval));
  }
  if (o.log_block_size < kMinBlockSize || o.log_block_size > kMaxBlockSize) {
    return Status::InvalidArgument(
        "RobinHoodTable option log_block_size must be in [256, 67108864], "
        "got " + std::to_string(o.log_block_size));
  }
  return Status::OK();
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
    const ReadOptions& /*ro*/, const TableReaderOptions& tro,
    std::unique_ptr<RandomAccessFileReader>&& file, uint64_t file_size,
    std::unique_ptr<TableReader>* table,
    bool /*prefetch_index_and_filter_in_cache*/) const {
  return RobinHoodTableReader::Open(tro.ioptions, tro.internal_comparator,
                                    std::move(file), file_size,
                                    tro.largest_seqno, table);
}

TableBuilder* RobinHoodTableFactory::NewTableBuilder(
    const TableBuilderOptions& tbo, WritableFileWriter* file) const {
  return new RobinHoodTableBuilder(options_, tbo, file);
}

std::string RobinHoodTableFactory::GetPrintableOptions() const {
  char buf[256];
  snprintf(buf, sizeof(buf),
           "  load_factor: %g\n  sparse_index_interval: %" PRIu32
           "\n  log_block_size: %" PRIu32 "\n  hash_seed: %" PRIu64 "\n",
           options_.load_factor, options_.sparse_index_interval,
           options_.log_block_size, options_.hash_seed);
  return buf;
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
