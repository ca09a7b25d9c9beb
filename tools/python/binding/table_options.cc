// The options string every face of the package takes: RobinHoodTable's own
// options, parsed by RocksDB's option machinery with the factory registered
// under its id, strictly (an unknown name or a bad value is an error, not
// ignored).
#include "rocksdb/convenience.h"
#include "rocksdb/table.h"
#include "rocksdb_robinhood/robinhood_table.h"
#include "tools/python/binding/binding.h"

namespace rh_python {

using namespace ROCKSDB_NAMESPACE;

Options OptionsFromString(const std::string& table_options) {
  RegisterRobinHoodTableDefault();
  ConfigOptions config;
  config.ignore_unknown_options = false;
  config.ignore_unsupported_options = false;
  config.invoke_prepare_options = true;
  std::string spec = std::string("id=") + kRobinHoodTableName;
  if (!table_options.empty()) spec += ";" + table_options;
  std::shared_ptr<TableFactory> factory;
  Status s = TableFactory::CreateFromString(config, spec, &factory);
  // RocksDB reports an unknown name as NotFound: to a caller both are a
  // bad argument.
  if (!s.ok() && !s.IsInvalidArgument()) {
    s = Status::InvalidArgument(s.ToString());
  }
  RaiseIfError(s, "RobinHoodTable options \"" + table_options + "\"");
  Options options;
  options.table_factory = factory;
  return options;
}

}  // namespace rh_python
