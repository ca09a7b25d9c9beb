// The TableFactory: options, validation, and creation of builders and
// readers. Registered in RocksDB's ObjectLibrary as "RobinHoodTable".
#pragma once

#include <memory>
#include <string>

#include "rocksdb/table.h"
#include "table/compat.h"
#include "rocksdb_robinhood/robinhood_table.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

class RobinHoodTableFactory : public TableFactory {
 public:
  explicit RobinHoodTableFactory(
      const RobinHoodTableOptions& options = RobinHoodTableOptions());

  static const char* kClassName() { return kRobinHoodTableName; }
  const char* Name() const override { return kRobinHoodTableName; }

  using TableFactory::NewTableReader;
  Status NewTableReader(const ReadOptions& ro,
                        const TableReaderOptions& table_reader_options,
                        std::unique_ptr<RandomAccessFileReader>&& file,
                        uint64_t file_size,
                        std::unique_ptr<TableReader>* table,
                        bool prefetch_index_and_filter_in_cache) const override;
  TableBuilder* NewTableBuilder(const TableBuilderOptions& tbo,
                                WritableFileWriter* file) const override;
  bool IsDeleteRangeSupported() const override { return true; }
#if RH_HAS_TABLE_FACTORY_CLONE
  std::unique_ptr<TableFactory> Clone() const override {
    return std::make_unique<RobinHoodTableFactory>(options_);
  }
#endif

  std::string GetPrintableOptions() const override;
  Status PrepareOptions(const ConfigOptions& config_options) override;
  Status ValidateOptions(const DBOptions& db_opts,
                         const ColumnFamilyOptions& cf_opts) const override;

  // Checks every option's range; the message names the option.
  static Status Validate(const RobinHoodTableOptions& options);

 private:
  RobinHoodTableOptions options_;
  // Reads the files of a DB that used BlockBasedTable before it switched to
  // RobinHoodTable, until compaction rewrites them (NewTableReader).
  std::shared_ptr<TableFactory> block_based_;
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
