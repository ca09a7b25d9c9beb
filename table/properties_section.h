// Reads the properties section: RocksDB's standard properties block (so
// RocksDB's own tools read it), which RocksDB's parser decodes only after
// checks of ours: its checksum (allowing for a global seqno written by
// ingestion, ingestion_rules.h) and its structure (property_block_check.h),
// since the parser trusts the bytes it is given. The parser reads the very
// bytes those checks passed, not the file again.
#pragma once

#include <memory>

#include "options/cf_options.h"
#include "rocksdb/status.h"
#include "rocksdb/table_properties.h"
#include "table/section_reader.h"
#include "table/table_meta.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

Status ReadPropertiesSection(const SectionReader& file, const TableTail& tail,
                             const ImmutableOptions& ioptions,
                             std::unique_ptr<TableProperties>* props);

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
