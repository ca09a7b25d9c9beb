// Every property in the file, as info lists it: RocksDB's named ones, then
// the user-collected ones (ours among them), with the binary values
// RocksDB's collectors write decoded.
#pragma once

#include <cstdint>

#include "rocksdb/table_properties.h"
#include "tools/inspect/printer.h"

namespace rh_inspect {

using ROCKSDB_NAMESPACE::TableProperties;

// The global sequence number of an ingested file, if it has one.
bool GlobalSeqno(const TableProperties& p, uint64_t* seqno);

// Two groups: "properties" (RocksDB's) and "user_collected_properties",
// each property under its name.
void DescribeProperties(Printer& out, const TableProperties& p);

}  // namespace rh_inspect
