// Compiled into librocksdb_robinhood.so only: loading the library (for
// example with LD_PRELOAD under the system's db_bench or ldb) registers the
// factory, so an OPTIONS file naming RobinHoodTable just works.
#include "rocksdb_robinhood/robinhood_table.h"

namespace {
struct AutoRegister {
  AutoRegister() { ROCKSDB_NAMESPACE::RegisterRobinHoodTableDefault(); }
} auto_register;
}  // namespace
