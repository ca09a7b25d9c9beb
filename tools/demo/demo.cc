// The demo: opens a DB configured by an options string naming
// RobinHoodTable, loads a built-in data set, compacts it, reads it back and
// prints what it did. Exits 1 if any read is wrong.
//
//   rh_demo [DIR]   DIR must not exist: the demo removes what it made, and
//                   nothing else (default /tmp/robinhood_demo_<pid>)
#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <string>

#include <unistd.h>

#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/table_properties.h"
#include "rocksdb_robinhood/robinhood_table.h"
#include "tools/common/db_open.h"

using namespace ROCKSDB_NAMESPACE;
using ROCKSDB_NAMESPACE::robinhood::DBResult;

namespace {
constexpr int kKeys = 200000;

std::string Key(int i) {
  char buf[32];
  snprintf(buf, sizeof(buf), "key%08d", i);
  return buf;
}
std::string Value(int i) {
  std::string v = "value-" + std::to_string(i) + "-";
  v.resize(100, static_cast<char>('a' + i % 26));
  return v;
}
double Since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t)
      .count();
}
int Fail(const char* what, const Status& s) {
  fprintf(stderr, "demo: %s: %s\n", what, s.ToString().c_str());
  return 1;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
    const bool help = argc == 2 && (std::string(argv[1]) == "--help" ||
                                    std::string(argv[1]) == "-h");
    fprintf(help ? stdout : stderr,
            "usage: rh_demo [DIR]\n"
            "  Loads %d keys into a new RocksDB at DIR (which must not exist;\n"
            "  default /tmp/robinhood_demo_<pid>) with RobinHoodTable as its\n"
            "  table factory, compacts, reads them back, then removes DIR.\n",
            kKeys);
    return help ? 0 : 2;
  }
  RegisterRobinHoodTableDefault();
  const std::string path =
      argc > 1 ? argv[1] : "/tmp/robinhood_demo_" + std::to_string(getpid());
  // The demo destroys its DB at both ends: never one it did not make.
  struct stat st;
  if (stat(path.c_str(), &st) == 0) {
    fprintf(stderr, "demo: %s exists; give a path that does not\n",
            path.c_str());
    return 2;
  }
  const std::string config = "table_factory={id=RobinHoodTable}";

  // An id RocksDB does not know must be an error, not BlockBasedTable.
  ConfigOptions cfg;
  cfg.ignore_unsupported_options = false;
  Options options;
  Status s = GetColumnFamilyOptionsFromString(cfg, ColumnFamilyOptions(),
                                              config, &options);
  if (!s.ok()) return Fail("options", s);
  options.create_if_missing = true;
  DestroyDB(path, options);
  std::unique_ptr<DB> db;
  s = DB::Open(options, path, DBResult(&db));
  if (!s.ok()) return Fail("open", s);
  printf("opened %s with \"%s\" (table factory %s)\n", path.c_str(),
         config.c_str(), options.table_factory->Name());

  auto t = std::chrono::steady_clock::now();
  for (int i = 0; i < kKeys; ++i) {
    s = db->Put(WriteOptions(), Key(i), Value(i));
    if (!s.ok()) return Fail("put", s);
  }
  for (int i = 0; i < kKeys; i += 10) db->Delete(WriteOptions(), Key(i));
  printf("loaded %d keys of 100-byte values, deleted every 10th: %.2f s\n",
         kKeys, Since(t));

  t = std::chrono::steady_clock::now();
  s = db->CompactRange(CompactRangeOptions(), nullptr, nullptr);
  if (!s.ok()) return Fail("compact", s);
  printf("flushed and compacted: %.2f s\n", Since(t));

  t = std::chrono::steady_clock::now();
  int found = 0, deleted = 0, wrong = 0;
  std::string v;
  for (int i = 0; i < kKeys; ++i) {
    s = db->Get(ReadOptions(), Key(i), &v);
    if (i % 10 == 0) {
      s.IsNotFound() ? ++deleted : ++wrong;
    } else if (s.ok() && v == Value(i)) {
      ++found;
    } else {
      ++wrong;
    }
  }
  printf("read back every key: %d found, %d deleted as expected, %d wrong: "
         "%.2f s\n", found, deleted, wrong, Since(t));

  std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions()));
  int scanned = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) ++scanned;
  if (!it->status().ok()) return Fail("scan", it->status());
  printf("scanned %d entries in order\n", scanned);
  if (scanned != found) ++wrong;
  it.reset();

  TablePropertiesCollection props;
  db->GetPropertiesOfAllTables(&props);
  for (const auto& p : props) {
    const auto& tp = *p.second;
    printf("%s: %s, %llu entries, log %llu bytes, index %llu bytes, "
           "%.1f bytes/entry\n",
           p.first.substr(p.first.rfind('/') + 1).c_str(),
           tp.user_collected_properties.count(RobinHoodTablePropertyNames::kFactory)
               ? tp.user_collected_properties.at(RobinHoodTablePropertyNames::kFactory)
                     .c_str()
               : "another table format",
           static_cast<unsigned long long>(tp.num_entries),
           static_cast<unsigned long long>(tp.data_size),
           static_cast<unsigned long long>(tp.index_size),
           tp.num_entries ? (tp.data_size + tp.index_size) * 1.0 /
                                tp.num_entries
                          : 0.0);
  }
  s = db->VerifyChecksum();
  printf("checksums: %s\n", s.ToString().c_str());
  db.reset();
  DestroyDB(path, options);
  return wrong == 0 && s.ok() ? 0 : 1;
}
