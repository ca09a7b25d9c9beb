// DB-level tests of RocksDB's APIs beyond reads, writes and iterators, over
// RobinHoodTable's files, through the public API only: merge operands read
// back from files, a checkpoint opened as a DB, a column family exported
// and imported, and whole-file checksums. Each over mmap reads on and off
// and the three table configurations of the harness, against its model.
#include <gtest/gtest.h>

#include "rocksdb/file_checksum.h"
#include "rocksdb/version.h"
#include "rocksdb/utilities/checkpoint.h"
#include "tests/db_harness.h"

namespace ROCKSDB_NAMESPACE {
namespace dbtest {
namespace {

// Every key and value of `db` (column family `cf`, default if null) in
// order, by iterator.
Model ReadAll(DB* db, ColumnFamilyHandle* cf = nullptr) {
  Model all;
  std::unique_ptr<Iterator> it(db->NewIterator(
      ReadOptions(), cf != nullptr ? cf : db->DefaultColumnFamily()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    all[it->key().ToString()] = it->value().ToString();
  }
  EXPECT_OK(it->status());
  return all;
}

// `db` (column family `cf`, default if null) holds `model`, by iterator
// and by Get of each key.
void ExpectHolds(DB* db, ColumnFamilyHandle* cf, const Model& model) {
  if (cf == nullptr) cf = db->DefaultColumnFamily();
  EXPECT_EQ(ReadAll(db, cf), model);
  for (const auto& kv : model) {
    std::string v;
    Status s = db->Get(ReadOptions(), cf, kv.first, &v);
    ASSERT_TRUE(s.ok()) << P(kv.first) << ": " << s.ToString();
    ASSERT_EQ(v, kv.second) << P(kv.first);
  }
}

class RobinHoodDBApiTest : public RobinHoodDBTest {
 protected:
  // Puts and merges over three files and the memtable, some keys deleted.
  void WriteAcrossFiles() {
    for (int i = 0; i < 500; i++) Put(Key(i), Value(i, 0));
    Flush();
    for (int i = 0; i < 500; i += 3) Merge(Key(i), "m1");
    for (int i = 0; i < 500; i += 7) Delete(Key(i));
    Flush();
    for (int i = 250; i < 750; i += 2) Put(Key(i), Value(i, 1));
    Flush();
    for (int i = 0; i < 500; i += 5) Merge(Key(i), "m2");
    ExpectOurTables();
  }
  std::string Dir(const std::string& name) const { return dbname_ + "_" + name; }
  std::unique_ptr<Checkpoint> NewCheckpoint() {
    Checkpoint* raw = nullptr;
    EXPECT_OK(Checkpoint::Create(db_.get(), &raw));
    return std::unique_ptr<Checkpoint>(raw);
  }
  void VerifyFileChecksums() {
#if ROCKSDB_MAJOR < 8 || (ROCKSDB_MAJOR == 8 && ROCKSDB_MINOR < 2)
    // Before 8.2 RocksDB fails every file checksum read under mmap reads,
    // whatever the table format (its read-ahead buffer, off under mmap,
    // serves no read): verify the same files read by pread.
    if (mmap()) {
      Close();
      Options o = options_;
      o.allow_mmap_reads = false;
      ASSERT_OK(Open(o));
      ASSERT_OK(db_->VerifyFileChecksums(ReadOptions()));
      Close();
      ASSERT_OK(Open());
      return;
    }
#endif
    ASSERT_OK(db_->VerifyFileChecksums(ReadOptions()));
  }
};

TEST_P(RobinHoodDBApiTest, MergeOperandsComeBackFromFiles) {
  Put(Key(1), "base");
  Flush();
  Merge(Key(1), "a");
  Merge(Key(2), "only");
  Flush();
  Merge(Key(1), "b");  // in the memtable
  ExpectOurTables();
  GetMergeOperandsOptions opts;
  opts.expected_max_number_of_operands = 8;
  std::vector<PinnableSlice> ops(8);
  int n = 0;
  ASSERT_OK(db_->GetMergeOperands(ReadOptions(), db_->DefaultColumnFamily(),
                                  Key(1), ops.data(), &opts, &n));
  ASSERT_EQ(n, 3);
  EXPECT_EQ(ops[0].ToString(), "base");
  EXPECT_EQ(ops[1].ToString(), "a");
  EXPECT_EQ(ops[2].ToString(), "b");
  for (auto& op : ops) op.Reset();
  ASSERT_OK(db_->GetMergeOperands(ReadOptions(), db_->DefaultColumnFamily(),
                                  Key(2), ops.data(), &opts, &n));
  ASSERT_EQ(n, 1);
  EXPECT_EQ(ops[0].ToString(), "only");
  for (auto& op : ops) op.Reset();
  EXPECT_TRUE(db_->GetMergeOperands(ReadOptions(), db_->DefaultColumnFamily(),
                                    Key(3), ops.data(), &opts, &n)
                  .IsNotFound());
  Compact();
  ExpectOurTables();
  for (auto& op : ops) op.Reset();
  ASSERT_OK(db_->GetMergeOperands(ReadOptions(), db_->DefaultColumnFamily(),
                                  Key(1), ops.data(), &opts, &n));
  // A full compaction merges the operands into one value.
  ASSERT_EQ(n, 1);
  EXPECT_EQ(ops[0].ToString(), "base,a,b");
  VERIFY("after the merge operands");
}

TEST_P(RobinHoodDBApiTest, CheckpointOpensAsTheSameDB) {
  WriteAcrossFiles();
  std::unique_ptr<Checkpoint> cp = NewCheckpoint();
  ASSERT_NE(cp, nullptr);
  const std::string dir = Dir("checkpoint");
  ASSERT_OK(DestroyDB(dir, options_));
  ASSERT_OK(cp->CreateCheckpoint(dir));
  std::unique_ptr<DB> copy;
  ASSERT_OK(test_util::OpenDB(options_, dir, &copy));
  ASSERT_NO_FATAL_FAILURE(ExpectHolds(copy.get(), nullptr, model_));
  ASSERT_OK(copy->Close());
  copy.reset();
  ASSERT_OK(DestroyDB(dir, options_));
  VERIFY("after the checkpoint");
}

TEST_P(RobinHoodDBApiTest, ExportedColumnFamilyImportsAlike) {
  WriteAcrossFiles();
  Flush();  // export takes files only
  std::unique_ptr<Checkpoint> cp = NewCheckpoint();
  ASSERT_NE(cp, nullptr);
  const std::string dir = Dir("export");
  ASSERT_OK(DestroyDB(dir, options_));
  ExportImportFilesMetaData* exported = nullptr;
  ASSERT_OK(cp->ExportColumnFamily(db_->DefaultColumnFamily(), dir, &exported));
  std::unique_ptr<ExportImportFilesMetaData> owned(exported);
  ASSERT_FALSE(exported->files.empty());
  ColumnFamilyHandle* imported = nullptr;
  ImportColumnFamilyOptions import_options;
  import_options.move_files = false;
  ASSERT_OK(db_->CreateColumnFamilyWithImport(ColumnFamilyOptions(options_),
                                              "imported", import_options,
                                              *exported, &imported));
  ASSERT_NO_FATAL_FAILURE(ExpectHolds(db_.get(), imported, model_));
  std::string v;
  EXPECT_TRUE(db_->Get(ReadOptions(), imported, Key(7), &v).IsNotFound());
  // The imported files compact like any other.
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), imported, nullptr, nullptr));
  EXPECT_EQ(ReadAll(db_.get(), imported), model_);
  ASSERT_OK(db_->DropColumnFamily(imported));
  ASSERT_OK(db_->DestroyColumnFamilyHandle(imported));
  ASSERT_OK(DestroyDB(dir, options_));
  VERIFY("after the export and import");
}

TEST_P(RobinHoodDBApiTest, FileChecksumsVerify) {
  Close();
  options_.file_checksum_gen_factory = GetFileChecksumGenCrc32cFactory();
  ASSERT_OK(Open());
  WriteAcrossFiles();
  Flush();
  ASSERT_NO_FATAL_FAILURE(VerifyFileChecksums());
  ASSERT_OK(db_->VerifyChecksum());
  std::vector<LiveFileMetaData> files;
  db_->GetLiveFilesMetaData(&files);
  ASSERT_FALSE(files.empty());
  for (const auto& f : files) {
    EXPECT_EQ(f.file_checksum_func_name, "FileChecksumCrc32c") << f.name;
    EXPECT_FALSE(f.file_checksum.empty()) << f.name;
  }
  Compact();
  ExpectOurTables();
  ASSERT_NO_FATAL_FAILURE(VerifyFileChecksums());
  VERIFY("after the checksums");
}

INSTANTIATE_TEST_SUITE_P(MmapAndConfigs, RobinHoodDBApiTest,
                         testing::Combine(testing::Bool(),
                                          testing::Values(0, 1, 2)),
                         ParamName);

}  // namespace
}  // namespace dbtest
}  // namespace ROCKSDB_NAMESPACE
