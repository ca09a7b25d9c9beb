// The SstFileWriter + IngestExternalFile workflow with RobinHoodTable, from
// the installed package: write a sorted file, ingest it, read it back.
// Prints "ok: N keys" and exits 0 when every key reads back.
//
//   ingest_example [DIR [FACTORY_ID]]
// FACTORY_ID (default RobinHoodTable) is the id the options string names:
// a wrong one is refused, with RocksDB's "Could not load TableFactory".
#include <cstdio>
#include <memory>
#include <string>

#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/version.h"
#include "rocksdb_robinhood/robinhood_table.h"

using namespace ROCKSDB_NAMESPACE;

static int Fail(const char* what, const Status& s) {
  std::fprintf(stderr, "%s: %s\n", what, s.ToString().c_str());
  return 1;
}

int main(int argc, char** argv) {
  // The DB's directory; the SST file is written beside it.
  const std::string dir = argc > 1 ? argv[1] : "/tmp/robinhood_example";
  const int n = 10000;
  const std::string id = argc > 2 ? argv[2] : "RobinHoodTable";
  // From configuration, as an options string or OPTIONS file names it. (From
  // code: options.table_factory.reset(NewRobinHoodTableFactory(...)).)
  // The id must be registered first: the shared library registers itself
  // when loaded, the static one does not; registering twice is harmless.
  RegisterRobinHoodTableDefault();
  // Without this, RocksDB takes an id it does not know (a typo, or the
  // factory not registered) for "no table factory" and silently uses
  // BlockBasedTable.
  ConfigOptions config;
  config.ignore_unsupported_options = false;
  Options options;
  Status s = GetColumnFamilyOptionsFromString(
      config, ColumnFamilyOptions(),
      "table_factory={id=" + id + ";load_factor=0.85}", &options);
  if (!s.ok()) return Fail("options", s);
  if (std::string(options.table_factory->Name()) != kRobinHoodTableName) {
    return Fail("options", Status::InvalidArgument(
                               "table factory", options.table_factory->Name()));
  }
  options.create_if_missing = true;
  DestroyDB(dir, options);

  SstFileWriter writer(EnvOptions(), options);
  const std::string sst = dir + ".sst";
  s = writer.Open(sst);
  if (!s.ok()) return Fail("open sst", s);
  char key[16];
  for (int i = 0; i < n; ++i) {
    std::snprintf(key, sizeof(key), "key%08d", i);  // sorted order
    s = writer.Put(key, "value" + std::to_string(i));
    if (!s.ok()) return Fail("put", s);
  }
  s = writer.Finish();
  if (!s.ok()) return Fail("finish", s);

  std::unique_ptr<DB> db;
#if ROCKSDB_MAJOR > 9 || (ROCKSDB_MAJOR == 9 && ROCKSDB_MINOR >= 11)
  s = DB::Open(options, dir, &db);
#else  // before 9.11 (11.0 removed this form)
  DB* raw = nullptr;
  s = DB::Open(options, dir, &raw);
  db.reset(raw);
#endif
  if (!s.ok()) return Fail("open db", s);
  s = db->IngestExternalFile({sst}, IngestExternalFileOptions());
  if (!s.ok()) return Fail("ingest", s);
  for (int i = 0; i < n; ++i) {
    std::snprintf(key, sizeof(key), "key%08d", i);
    std::string value;
    s = db->Get(ReadOptions(), key, &value);
    if (!s.ok() || value != "value" + std::to_string(i)) {
      return Fail(key, s.ok() ? Status::Corruption("wrong value") : s);
    }
  }
  std::printf("ok: %d keys\n", n);
  return 0;
}
