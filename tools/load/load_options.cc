#include "tools/load/load_options.h"

#include <algorithm>

#include "rocksdb/convenience.h"
#include "rocksdb_robinhood/robinhood_table.h"

namespace rh_load {

using namespace ROCKSDB_NAMESPACE;

namespace {

bool ParseCompression(const std::string& name, CompressionType* type) {
  if (name == "none") *type = kNoCompression;
  else if (name == "snappy") *type = kSnappyCompression;
  else if (name == "lz4") *type = kLZ4Compression;
  else if (name == "zstd") *type = kZSTD;
  else return false;
  return true;
}

}  // namespace

std::string TableName(const LoadOptions& o) {
  return o.table == "block" ? "BlockBasedTable" : kRobinHoodTableName;
}

Status TableOptions(const LoadOptions& o, ColumnFamilyOptions* cf) {
  RegisterRobinHoodTableDefault();
  ConfigOptions config;
  config.ignore_unsupported_options = false;
  config.input_strings_escaped = false;
  Status s = GetColumnFamilyOptionsFromString(
      config, ColumnFamilyOptions(),
      "table_factory={id=" + TableName(o) + ";" + o.table_options + "}",
      cf);
  if (s.ok()) s = cf->table_factory->ValidateOptions(DBOptions(), *cf);
  if (!s.ok()) return Status::InvalidArgument("--options", s.ToString());
  if (!ParseCompression(o.compression, &cf->compression)) {
    return Status::InvalidArgument("--compression",
                                   "must be none, snappy, lz4 or zstd, not '" +
                                       o.compression + "'");
  }
  const auto supported = GetSupportedCompressions();
  if (cf->compression != kNoCompression &&
      std::find(supported.begin(), supported.end(), cf->compression) == supported.end()) {
    return Status::InvalidArgument("--compression",
                                   o.compression + " is not in this RocksDB build");
  }
  return Status::OK();
}

Options WriterOptions(const ColumnFamilyOptions& cf, const std::string& spill_dir,
                      FilePlan* plan) {
  Options w(DBOptions(), cf);
  const auto* rh = cf.table_factory->GetOptions<RobinHoodTableOptions>();
  if (rh != nullptr && rh->build_memory_limit == 0 && !spill_dir.empty() &&
      plan->builder_budget >= RobinHoodTableOptions::kMinBuildMemoryLimit) {
    RobinHoodTableOptions bounded = *rh;
    bounded.build_memory_limit = plan->builder_budget;
    bounded.build_spill_dir = spill_dir;
    w.table_factory.reset(NewRobinHoodTableFactory(bounded));
    plan->builder_budget = UINT64_MAX;
  }
  return w;
}

Status ValidateLoadOptions(const LoadOptions& o) {
  if (o.table != "robinhood" && o.table != "block") {
    return Status::InvalidArgument("--table", "must be robinhood or block, not '" + o.table + "'");
  }
  if (o.inputs.empty()) return Status::InvalidArgument("--input", "names no file");
  for (const auto& in : o.inputs) {
    if (in.empty()) return Status::InvalidArgument("--input", "has an empty file name");
  }
  if (o.output_dir.empty()) return Status::InvalidArgument("--output_dir", "is required");
  if (o.memory_limit < LoadOptions::kMinMemoryLimit) {
    return Status::InvalidArgument(
        "--memory_limit", "must be at least " +
                              std::to_string(LoadOptions::kMinMemoryLimit >> 20) + " MiB");
  }
  if (o.threads < 1 || o.threads > LoadOptions::kMaxThreads) {
    return Status::InvalidArgument("--threads", "must be 1 to " +
                                                   std::to_string(LoadOptions::kMaxThreads));
  }
  if (o.target_file_size < LoadOptions::kMinTargetFileSize) {
    return Status::InvalidArgument(
        "--target_file_size",
        "must be at least " + std::to_string(LoadOptions::kMinTargetFileSize) + " bytes");
  }
  if (o.column_family.empty()) {
    return Status::InvalidArgument("--column_family", "must not be empty");
  }
  return Status::OK();
}

}  // namespace rh_load
