// rh_load's input from an existing RocksDB DB (any table format): one
// column family's live entries, read with an iterator of a read-only open.
#pragma once

#include <memory>
#include <string>

#include "tools/load/input_reader.h"

namespace rh_load {

Status OpenDbInput(const std::string& path, const std::string& column_family,
                   std::unique_ptr<InputReader>* reader);
// The DB's SST bytes (for progress), 0 if unknown.
uint64_t DbInputSize(const std::string& path);

}  // namespace rh_load
