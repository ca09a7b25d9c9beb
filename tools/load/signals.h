// SIGINT and SIGTERM ask rh_load to stop: the loops check StopRequested()
// often, unwind with Interrupted(), and the loader removes what it wrote.
#pragma once

#include "rocksdb/status.h"

namespace rh_load {

void InstallStopHandlers();
bool StopRequested();
ROCKSDB_NAMESPACE::Status Interrupted();
// The signal that asked to stop (0: none).
int StopSignal();

}  // namespace rh_load
