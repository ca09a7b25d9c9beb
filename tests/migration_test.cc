// Moving an existing DB to RobinHoodTable: a DB written with BlockBasedTable
// reopened with RobinHoodTable reads its old files (the factory hands them
// to RocksDB's reader), compaction rewrites them in our format, and
// BlockBasedTable files can still be ingested. docs/guide.md tells users to
// do exactly this.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/options.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/table.h"
#include "rocksdb_robinhood/robinhood_table.h"
#include "tests/test_util.h"

namespace ROCKSDB_NAMESPACE {
namespace {

using test_util::OpenDB;

std::string Key(int i) {
  char buf[16];
  snprintf(buf, sizeof(buf), "key%06d", i);
  return buf;
}

// The last 8 bytes of a RobinHoodTable file are the ASCII "rh-table".
bool IsRobinHoodFile(const std::string& path) {
  std::string bytes;
  EXPECT_OK(ReadFileToString(Env::Default(), path, &bytes));
  return bytes.size() >= 8 && bytes.compare(bytes.size() - 8, 8, "rh-table") == 0;
}

class MigrationTest : public testing::Test {
 protected:
  void SetUp() override {
    path_ = test_util::TempPath("migration", "db");
    ASSERT_OK(DestroyDB(path_, Options()));
  }
  void TearDown() override {
    db_.reset();
    EXPECT_OK(DestroyDB(path_, Options()));
  }
  Options WithFactory(TableFactory* factory) {
    Options o;
    o.create_if_missing = true;
    o.disable_auto_compactions = true;
    o.table_factory.reset(factory);
    return o;
  }
  void ExpectContents(const std::map<std::string, std::string>& model) {
    for (const auto& kv : model) {
      std::string v;
      ASSERT_OK(db_->Get(ReadOptions(), kv.first, &v));
      EXPECT_EQ(v, kv.second) << kv.first;
    }
    std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions()));
    auto m = model.begin();
    for (it->SeekToFirst(); it->Valid(); it->Next(), ++m) {
      ASSERT_NE(m, model.end()) << "extra key " << it->key().ToString();
      EXPECT_EQ(it->key().ToString(), m->first);
      EXPECT_EQ(it->value().ToString(), m->second);
    }
    ASSERT_OK(it->status());
    EXPECT_EQ(m, model.end()) << "missing keys from " << m->first;
  }
  std::vector<std::string> LiveFiles() {
    return test_util::LiveSstPaths(db_.get());
  }

  std::string path_;
  std::unique_ptr<DB> db_;
};

TEST_F(MigrationTest, BlockBasedDBReopenedCompactedAndIngestedInto) {
  std::map<std::string, std::string> model;
  ASSERT_OK(OpenDB(WithFactory(NewBlockBasedTableFactory()), path_, &db_));
  for (int i = 0; i < 2000; ++i) {
    ASSERT_OK(db_->Put(WriteOptions(), Key(i), "old" + std::to_string(i)));
    model[Key(i)] = "old" + std::to_string(i);
    if (i == 999) ASSERT_OK(db_->Flush(FlushOptions()));
  }
  ASSERT_OK(db_->DeleteRange(WriteOptions(), db_->DefaultColumnFamily(),
                             Key(100), Key(200)));
  for (int i = 100; i < 200; ++i) model.erase(Key(i));
  ASSERT_OK(db_->Flush(FlushOptions()));
  db_.reset();

  // Reopened with RobinHoodTable: the old files read as before.
  ASSERT_OK(OpenDB(WithFactory(NewRobinHoodTableFactory()), path_, &db_));
  ASSERT_GE(LiveFiles().size(), 2u);
  for (const auto& f : LiveFiles()) EXPECT_FALSE(IsRobinHoodFile(f)) << f;
  ExpectContents(model);

  // New writes land in our format; the old files stay readable beside them.
  for (int i = 1500; i < 2500; ++i) {
    ASSERT_OK(db_->Put(WriteOptions(), Key(i), "new" + std::to_string(i)));
    model[Key(i)] = "new" + std::to_string(i);
  }
  ASSERT_OK(db_->Flush(FlushOptions()));
  ExpectContents(model);

  // A full compaction rewrites everything in our format.
  CompactRangeOptions cro;
  cro.bottommost_level_compaction = BottommostLevelCompaction::kForce;
  ASSERT_OK(db_->CompactRange(cro, nullptr, nullptr));
  for (const auto& f : LiveFiles()) EXPECT_TRUE(IsRobinHoodFile(f)) << f;
  ExpectContents(model);

  // A BlockBasedTable file from elsewhere can still be ingested.
  const test_util::ScratchFile scratch(path_ + "-ingest.sst");
  const std::string& sst = scratch.path();
  Options bbt = WithFactory(NewBlockBasedTableFactory());
  SstFileWriter writer(EnvOptions(), bbt);
  ASSERT_OK(writer.Open(sst));
  for (int i = 3000; i < 3100; ++i) {
    ASSERT_OK(writer.Put(Key(i), "ingested"));
    model[Key(i)] = "ingested";
  }
  ASSERT_OK(writer.Finish());
  ASSERT_OK(db_->IngestExternalFile({sst}, IngestExternalFileOptions()));
  ExpectContents(model);
  db_.reset();
  // And the whole DB reopens.
  ASSERT_OK(OpenDB(WithFactory(NewRobinHoodTableFactory()), path_, &db_));
  ExpectContents(model);
}

}  // namespace
}  // namespace ROCKSDB_NAMESPACE
