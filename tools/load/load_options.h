// What rh_load's flags become: the checks on them, the column family
// options the files are written (and a new DB opened) with, and the
// options its table builders get on top of those.
#pragma once

#include <string>

#include "rocksdb/options.h"
#include "rocksdb/status.h"
#include "tools/load/loader.h"
#include "tools/load/range_builder.h"

namespace rh_load {

// The table factory's registered name for --table.
std::string TableName(const LoadOptions& o);

// The column family options of --table, --options and --compression;
// InvalidArgument naming the flag otherwise.
ROCKSDB_NAMESPACE::Status TableOptions(const LoadOptions& o,
                                       ROCKSDB_NAMESPACE::ColumnFamilyOptions* cf);

// The options the files are written with. A RobinHoodTable builder holds
// its share of --memory_limit (plan->builder_budget) itself, spilling to
// `spill_dir` past it (build_memory_limit), and plan->builder_budget
// becomes unbounded: files are cut at --target_file_size only. Where the
// share is below the option's minimum, or --options set a bound already,
// or for BlockBasedTable, the plan is left as it is and files are cut
// where the builder's estimate reaches the share. The DB never sees these
// options: its own flushes and compactions keep `cf`'s.
ROCKSDB_NAMESPACE::Options WriterOptions(
    const ROCKSDB_NAMESPACE::ColumnFamilyOptions& cf, const std::string& spill_dir,
    FilePlan* plan);

}  // namespace rh_load
