// The extension module behind the rocksdb_robinhood package (its
// __init__.py re-exports everything here). Importing it registers
// RobinHoodTable with RocksDB's object library, so options strings and
// OPTIONS files naming it work in the same process.
#include "rocksdb_robinhood/robinhood_table.h"
#include "tools/python/binding/binding.h"

PYBIND11_MODULE(_rocksdb_robinhood, m) {
  m.doc() = "RobinHoodTable for Python: SST files, a DB, the inspector, the loader";
  ROCKSDB_NAMESPACE::RegisterRobinHoodTableDefault();
  rh_python::DefineErrors(m);
  rh_python::DefineWriter(m);
  rh_python::DefineDB(m);
  rh_python::DefineInspect(m);
  rh_python::DefineLoad(m);
  rh_python::DefinePartition(m);
}
