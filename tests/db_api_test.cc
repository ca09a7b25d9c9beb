// DB-level tests of RocksDB's APIs beyond reads, writes and iterators, over
// RobinHoodTable's files, through the public API only: merge operands read
// back from files, a checkpoint opened as a DB, a column family exported
// and imported, whole-file checksums, a row cache, wide-column entities,
// integrated blob files, a secondary instance, backups, iterators that
// follow the DB (tailing, refreshed), the table properties RocksDB reads
// through our reader, a repair without the MANIFEST, and transactions'
// conflict checks. Each over
// mmap reads on and off and the three table configurations of the
// harness, against its model.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>

#include "file/file_util.h"
#include "rocksdb/file_checksum.h"
#include "rocksdb/statistics.h"
#include "rocksdb/version.h"
#include "rocksdb/utilities/backup_engine.h"
#include "rocksdb/utilities/checkpoint.h"
#include "rocksdb/utilities/transaction_db.h"
#include "tests/db_harness.h"
#include "tests/fault_fs.h"
#include "tools/common/db_open.h"

namespace ROCKSDB_NAMESPACE {
namespace dbtest {
using robinhood::DBResult;
namespace {

// Every key and value `it` gives from `start` on, in order.
Model ReadFrom(Iterator* it, const std::string& start) {
  Model all;
  for (it->Seek(start); it->Valid(); it->Next()) {
    all[it->key().ToString()] = it->value().ToString();
  }
  EXPECT_OK(it->status());
  return all;
}

// Every key and value of `db` (column family `cf`, default if null) in
// order, by iterator.
Model ReadAll(DB* db, ColumnFamilyHandle* cf = nullptr) {
  std::unique_ptr<Iterator> it(db->NewIterator(
      ReadOptions(), cf != nullptr ? cf : db->DefaultColumnFamily()));
  return ReadFrom(it.get(), "");
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
  // The backup options docs/guide.md gives ("Backups"): shared files named
  // by crc32c and size, since the default naming reads each file's DB
  // session with a reader that refuses our files.
  static std::unique_ptr<BackupEngine> OpenBackupEngine(
      const BackupEngineOptions& o, Env* env) {
    BackupEngine* raw = nullptr;
    EXPECT_OK(BackupEngine::Open(o, env, &raw));
    return std::unique_ptr<BackupEngine>(raw);
  }
  static BackupEngineOptions GuideBackupOptions(const std::string& dir) {
    BackupEngineOptions o(dir);
    o.share_files_with_checksum_naming =
        BackupEngineOptions::kLegacyCrc32cAndFileSize;
    return o;
  }
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

// A row cache (Options::row_cache) over our files: RocksDB keeps what each
// file's Get handed its context and replays it; the second read of a key
// comes from there and answers as the first, merges and deletes included.
TEST_P(RobinHoodDBApiTest, RowCacheAnswersAsTheFiles) {
  Close();
  options_.row_cache = NewLRUCache(8 << 20);
  options_.statistics = CreateDBStatistics();
  ASSERT_OK(Open());
  WriteAcrossFiles();
  Flush();
  for (int pass = 0; pass < 2; pass++) {
    SCOPED_TRACE(pass);
    for (int i = 0; i < 800; i++) {
      std::string v;
      Status s = db_->Get(ReadOptions(), Key(i), &v);
      auto m = model_.find(Key(i));
      if (m == model_.end()) {
        ASSERT_TRUE(s.IsNotFound()) << Key(i) << ": " << s.ToString();
      } else {
        ASSERT_OK(s);
        ASSERT_EQ(v, m->second) << Key(i);
      }
    }
  }
  EXPECT_GT(options_.statistics->getTickerCount(ROW_CACHE_HIT), 800u);
  Compact();
  ExpectOurTables();
  VERIFY("row cache, after a compaction");
}

// Integrated blob files (enable_blob_files): values past min_blob_size go
// to blob files and our tables hold their blob indexes, which RocksDB
// resolves on Get, MultiGet and iteration, through flushes and a full
// compaction.
TEST_P(RobinHoodDBApiTest, BlobFilesHoldTheLargeValues) {
  Close();
  options_.enable_blob_files = true;
  options_.min_blob_size = 64;
  ASSERT_OK(Open());
  for (int i = 0; i < 400; i++) {
    // Every third value small enough to stay in the table.
    Put(Key(i), i % 3 == 0 ? "small" + std::to_string(i)
                           : std::string(100 + i, static_cast<char>('a' + i % 26)));
  }
  Flush();
  for (int i = 0; i < 400; i += 7) Delete(Key(i));
  for (int i = 1; i < 400; i += 5) Put(Key(i), std::string(300, 'z') + Key(i));
  Flush();
  ExpectOurTables();
  std::vector<std::string> blobs;
  ASSERT_OK(Env::Default()->GetChildren(dbname_, &blobs));
  EXPECT_TRUE(std::any_of(blobs.begin(), blobs.end(), [](const std::string& f) {
    return f.size() > 5 && f.compare(f.size() - 5, 5, ".blob") == 0;
  })) << "no blob file was written";
  VERIFY("values in blob files");
  std::vector<std::string> names = {Key(1), Key(2), Key(3), Key(7), Key(999)};
  std::vector<Slice> keys(names.begin(), names.end());
  std::vector<std::string> values;
  std::vector<Status> st = db_->MultiGet(ReadOptions(), keys, &values);
  for (size_t i = 0; i < names.size(); i++) {
    auto m = model_.find(names[i]);
    if (m == model_.end()) {
      EXPECT_TRUE(st[i].IsNotFound()) << names[i] << ": " << st[i].ToString();
    } else {
      EXPECT_OK(st[i]);
      EXPECT_EQ(values[i], m->second) << names[i];
    }
  }
  Compact();
  ExpectOurTables();
  VERIFY("values in blob files, compacted");
}

// A secondary instance (OpenAsSecondary) reads the primary's files, and
// catches up with the files the primary writes after it opened.
TEST_P(RobinHoodDBApiTest, SecondaryInstanceFollowsThePrimary) {
  WriteAcrossFiles();
  Flush();
  Options so = options_;
  so.max_open_files = -1;  // what a secondary requires
  const std::string dir = Dir("secondary");
  std::unique_ptr<DB> secondary;
  ASSERT_OK(DB::OpenAsSecondary(so, dbname_, dir, DBResult(&secondary)));
  ASSERT_NO_FATAL_FAILURE(ExpectHolds(secondary.get(), nullptr, model_));
  for (int i = 1000; i < 1200; i++) Put(Key(i), Value(i, 2));
  Flush();
  ASSERT_OK(secondary->TryCatchUpWithPrimary());
  ASSERT_NO_FATAL_FAILURE(ExpectHolds(secondary.get(), nullptr, model_));
  secondary.reset();
  ASSERT_OK(DestroyDB(dir, so));
  VERIFY("after the secondary");
}

// Wide-column entities (PutEntity) read back from files whole: GetEntity
// gives their columns, Get and iterators their default column's value, as
// RocksDB defines, before and after a full compaction, among plain puts.
TEST_P(RobinHoodDBApiTest, WideColumnEntitiesComeBackFromFiles) {
  auto entity_key = [](int i) { return "e" + Key(i); };
  // Owned columns: WideColumns only points at its names and values.
  using Owned = std::vector<std::pair<std::string, std::string>>;
  auto owned_of = [](int i) {
    Owned c;
    // Every other entity without a default column; names sorted, as
    // PutEntity wants them.
    if (i % 2 == 0) c.emplace_back("", "d" + std::to_string(i));
    c.emplace_back("a", "x" + std::to_string(i));
    c.emplace_back("b", std::string(static_cast<size_t>(i % 50), 'y'));
    return c;
  };
  auto view = [](const Owned& o) {
    WideColumns c;
    for (const auto& nv : o) c.emplace_back(nv.first, nv.second);
    return c;
  };
  for (int i = 0; i < 300; i++) {
    Put(Key(i), Value(i, 0));
    const std::string k = entity_key(i);
    const Owned o = owned_of(i);
    ASSERT_OK(db_->PutEntity(WriteOptions(), db_->DefaultColumnFamily(), k,
                             view(o)));
    model_[k] = i % 2 == 0 ? "d" + std::to_string(i) : "";
    keys_.insert(k);
  }
  Flush();
  ExpectOurTables();
  auto check = [&](const char* when) {
    SCOPED_TRACE(when);
    for (int i = 0; i < 300; i++) {
      const std::string k = entity_key(i);
      PinnableWideColumns got;
      ASSERT_OK(db_->GetEntity(ReadOptions(), db_->DefaultColumnFamily(), k,
                               &got));
      const Owned o = owned_of(i);
      ASSERT_EQ(got.columns(), view(o)) << P(k);
      std::string v;
      ASSERT_OK(db_->Get(ReadOptions(), k, &v));
      EXPECT_EQ(v, model_[k]) << P(k);
      // A plain value reads as one default column.
      PinnableWideColumns plain;
      ASSERT_OK(db_->GetEntity(ReadOptions(), db_->DefaultColumnFamily(),
                               Key(i), &plain));
      ASSERT_EQ(plain.columns().size(), 1u);
      EXPECT_EQ(plain.columns()[0].value(), Value(i, 0));
    }
    std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions()));
    int entities = 0;
    for (it->Seek("e"); it->Valid() && it->key().starts_with("e");
         it->Next()) {
      const int i = entities++;
      ASSERT_EQ(it->key().ToString(), entity_key(i));
      const Owned o = owned_of(i);
      EXPECT_EQ(it->columns(), view(o));
      EXPECT_EQ(it->value().ToString(), model_[entity_key(i)]);
    }
    ASSERT_OK(it->status());
    EXPECT_EQ(entities, 300);
  };
  ASSERT_NO_FATAL_FAILURE(check("flushed"));
  Compact();
  ExpectOurTables();
  ASSERT_NO_FATAL_FAILURE(check("compacted"));
  VERIFY("after the entities");
}

// With the guide's options a backup copies the files, verifies them by
// checksum, and restores a DB that reads the same; a second backup after
// more writes shares the unchanged files.
TEST_P(RobinHoodDBApiTest, BackupRestoresTheSameDB) {
  WriteAcrossFiles();
  Flush();
  const std::string backups = Dir("backups");
  const std::string restored = Dir("restored");
  ASSERT_OK(DestroyDir(Env::Default(), backups));
  ASSERT_OK(DestroyDB(restored, options_));
  std::unique_ptr<BackupEngine> engine =
      OpenBackupEngine(GuideBackupOptions(backups), Env::Default());
  ASSERT_NE(engine, nullptr);
  ASSERT_OK(engine->CreateNewBackup(db_.get(), /*flush_before_backup=*/true));
  const Model first = model_;
  for (int i = 1000; i < 1300; i++) Put(Key(i), Value(i, 3));
  Compact();
  ExpectOurTables();
  ASSERT_OK(engine->CreateNewBackup(db_.get(), /*flush_before_backup=*/true));
  std::vector<BackupInfo> infos;
  engine->GetBackupInfo(&infos);
  ASSERT_EQ(infos.size(), 2u);
  for (const BackupInfo& info : infos) {
    ASSERT_OK(engine->VerifyBackup(info.backup_id, /*verify_with_checksum=*/true));
  }
  // Each backup restores to the DB it was taken of.
  const Model* wants[] = {&first, &model_};
  for (size_t b = 0; b < infos.size(); b++) {
    SCOPED_TRACE("backup " + std::to_string(infos[b].backup_id));
    ASSERT_OK(engine->RestoreDBFromBackup(infos[b].backup_id, restored,
                                          restored));
    std::unique_ptr<DB> copy;
    ASSERT_OK(test_util::OpenDB(options_, restored, &copy));
    ASSERT_NO_FATAL_FAILURE(ExpectHolds(copy.get(), nullptr, *wants[b]));
    ASSERT_OK(copy->Close());
    copy.reset();
    ASSERT_OK(DestroyDB(restored, options_));
  }
  engine.reset();
  ASSERT_OK(DestroyDir(Env::Default(), backups));
  VERIFY("after the backups");
}

// BackupEngine's default naming of shared table files reads each file's DB
// session with sst_dump's reader, which refuses our files: from RocksDB
// 8.11 that fails the backup (Corruption, naming the file), before 8.11
// the file is named by crc32c and size instead. Either way the DB stays
// as it was; the guide gives the naming that works on every release.
TEST_P(RobinHoodDBApiTest, DefaultBackupNamingNeedsTheGuidesOption) {
  WriteAcrossFiles();
  Flush();
  const std::string backups = Dir("backups");
  ASSERT_OK(DestroyDir(Env::Default(), backups));
  std::unique_ptr<BackupEngine> engine =
      OpenBackupEngine(BackupEngineOptions(backups), Env::Default());
  ASSERT_NE(engine, nullptr);
  const Status s = engine->CreateNewBackup(db_.get());
#if ROCKSDB_MAJOR > 8 || (ROCKSDB_MAJOR == 8 && ROCKSDB_MINOR >= 11)
  ASSERT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.ToString().find(".sst"), std::string::npos) << s.ToString();
#else
  ASSERT_OK(s);
#endif
  engine.reset();
  ASSERT_OK(DestroyDir(Env::Default(), backups));
  VERIFY("after the default backup");
}

// With the guide's naming a backup must know each table file's crc32c:
// it reads every file whole at every backup, unchanged ones too, unless
// the DB records that checksum itself (file_checksum_gen_factory), when
// an incremental backup of unchanged files reads next to nothing of them.
// The guide advises both; this pins what each costs.
TEST_P(RobinHoodDBApiTest, BackupOfUnchangedFilesReadsThemOnlyWithoutFileChecksums) {
  if (std::get<1>(GetParam()) != 0) GTEST_SKIP() << "one table configuration";
  auto fs = std::make_shared<FaultFS>(FileSystem::Default());
  std::unique_ptr<Env> env = NewFaultEnv(fs);
  for (const bool checksums : {false, true}) {
    SCOPED_TRACE(checksums ? "with file checksums" : "without");
    Options o = BaseOptions();
    o.env = env.get();
    o.file_checksum_gen_factory =
        checksums ? GetFileChecksumGenCrc32cFactory() : nullptr;
    ASSERT_NO_FATAL_FAILURE(StartOver(o));
    // Files of about 2 MB each.
    std::mt19937_64 rng(7);
    std::string big(400, '\0');
    for (int f = 0; f < 3; f++) {
      for (int i = 0; i < 5000; i++) {
        for (char& c : big) c = static_cast<char>(rng());  // no codec shrinks it
        ASSERT_OK(db_->Put(WriteOptions(), Key(f * 5000 + i), big));
      }
      Flush();
    }
    ExpectOurTables();
    uint64_t sst_bytes = 0;
    for (const LiveFileMetaData& f : Files()) sst_bytes += f.size;
    const std::string backups = Dir("backups");
    ASSERT_OK(DestroyDir(Env::Default(), backups));
    std::unique_ptr<BackupEngine> engine =
        OpenBackupEngine(GuideBackupOptions(backups), env.get());
    ASSERT_NE(engine, nullptr);
    fs->CountSstReadsIn(dbname_);
    ASSERT_OK(engine->CreateNewBackup(db_.get()));
    const uint64_t first = fs->sst_bytes_read();
    fs->CountSstReadsIn(dbname_);
    ASSERT_OK(engine->CreateNewBackup(db_.get()));
    const uint64_t second = fs->sst_bytes_read();
    fs->CountSstReadsIn("");
    EXPECT_GE(first, sst_bytes);  // the copy
    if (checksums) {
      EXPECT_LT(second, sst_bytes / 8) << "of " << sst_bytes;
    } else {
      EXPECT_GE(second, sst_bytes);
    }
    ASSERT_OK(engine->VerifyBackup(2, /*verify_with_checksum=*/true));
    engine.reset();
    ASSERT_OK(DestroyDir(Env::Default(), backups));
  }
  ASSERT_NO_FATAL_FAILURE(StartOver(BaseOptions()));
}

// What RocksDB reads of a file's properties through our reader: the
// properties of the tables a key range overlaps, and an iterator's
// table_filter, which skips whole files by them.
TEST_P(RobinHoodDBApiTest, PropertiesInRangeAndTableFilter) {
  for (int i = 0; i < 100; i++) Put(Key(i), Value(i, 0));
  Flush();
  for (int i = 100; i < 250; i++) Put(Key(i), Value(i, 0));
  Flush();
  ExpectOurTables();
  const std::string lo = Key(10), hi = Key(50);
  Range range(lo, hi);
  TablePropertiesCollection in_range;
  ASSERT_OK(db_->GetPropertiesOfTablesInRange(db_->DefaultColumnFamily(),
                                              &range, 1, &in_range));
  ASSERT_EQ(in_range.size(), 1u);
  EXPECT_EQ(in_range.begin()->second->num_entries, 100u);
  EXPECT_EQ(in_range.begin()->second->user_collected_properties.count(
                kOurProperty),
            1u);
  ReadOptions ro;
  int asked = 0;
  const std::function<bool(const TableProperties&)> filter =
      [&asked](const TableProperties& p) {
        asked++;
        return p.num_entries != 100;
      };
#if ROCKSDB_MAJOR > 11 || (ROCKSDB_MAJOR == 11 && ROCKSDB_MINOR >= 9)
  ro.table_filter = &filter;  // a pointer from 11.9
#else
  ro.table_filter = filter;
#endif
  std::unique_ptr<Iterator> it(db_->NewIterator(ro));
  int n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), n++) {
    ASSERT_EQ(it->key().ToString(), Key(100 + n));
    ASSERT_EQ(it->value().ToString(), Value(100 + n, 0));
  }
  ASSERT_OK(it->status());
  EXPECT_EQ(n, 150);
  EXPECT_EQ(asked, 2);
  it.reset();
  VERIFY("after the filtered iterator");
}

// RepairDB rebuilds a lost MANIFEST from the table files: it reads each
// through our reader (properties, and every key and sequence number by
// iterator), and the repaired DB reads as before.
TEST_P(RobinHoodDBApiTest, RepairRebuildsTheManifestFromOurFiles) {
  WriteAcrossFiles();
  Flush();
  const Model before = model_;
  Close();
  std::vector<std::string> children;
  ASSERT_OK(Env::Default()->GetChildren(dbname_, &children));
  int manifests = 0;
  for (const std::string& c : children) {
    if (c.rfind("MANIFEST-", 0) == 0) {
      ASSERT_OK(Env::Default()->DeleteFile(dbname_ + "/" + c));
      manifests++;
    }
  }
  ASSERT_GT(manifests, 0);
  ASSERT_OK(RepairDB(dbname_, options_));
  ASSERT_OK(Open());
  ExpectOurTables();
  ASSERT_NO_FATAL_FAILURE(ExpectHolds(db_.get(), nullptr, before));
  // Writes after the repair land above what it recovered.
  for (int i = 0; i < 500; i += 2) Put(Key(i), Value(i, 7));
  Flush();
  Compact();
  VERIFY("after the repair");
}

// A pessimistic transaction with a snapshot finds a write made after it
// that has gone to one of our files: GetForUpdate reads the newest
// sequence number of the key through our reader and refuses (Busy), and
// keys not written since read from the files and commit.
TEST_P(RobinHoodDBApiTest, TransactionsSeeConflictsInFiles) {
  Close();
  TransactionDB* raw = nullptr;
  ASSERT_OK(TransactionDB::Open(options_, TransactionDBOptions(), dbname_, &raw));
  std::unique_ptr<TransactionDB> tdb(raw);
  for (int i = 0; i < 200; i++) {
    ASSERT_OK(tdb->Put(WriteOptions(), Key(i), Value(i, 0)));
  }
  ASSERT_OK(tdb->Flush(FlushOptions()));
  std::unique_ptr<Transaction> txn(tdb->BeginTransaction(WriteOptions()));
  txn->SetSnapshot();
  ASSERT_OK(tdb->Put(WriteOptions(), Key(7), Value(7, 1)));
  ASSERT_OK(tdb->Flush(FlushOptions()));
  std::string v;
  Status s = txn->GetForUpdate(ReadOptions(), Key(7), &v);
  EXPECT_TRUE(s.IsBusy()) << s.ToString();
  ASSERT_OK(txn->GetForUpdate(ReadOptions(), Key(8), &v));
  EXPECT_EQ(v, Value(8, 0));
  ASSERT_OK(txn->Put(Key(8), "txn"));
  ASSERT_OK(txn->Commit());
  txn.reset();
  // The same after a full compaction has moved everything to one file.
  CompactRangeOptions cro;
  cro.bottommost_level_compaction = BottommostLevelCompaction::kForce;
  txn.reset(tdb->BeginTransaction(WriteOptions()));
  txn->SetSnapshot();
  ASSERT_OK(tdb->Put(WriteOptions(), Key(9), Value(9, 1)));
  ASSERT_OK(tdb->Flush(FlushOptions()));
  ASSERT_OK(tdb->CompactRange(cro, nullptr, nullptr));
  s = txn->GetForUpdate(ReadOptions(), Key(9), &v);
  EXPECT_TRUE(s.IsBusy()) << s.ToString();
  ASSERT_OK(txn->GetForUpdate(ReadOptions(), Key(10), &v));
  EXPECT_EQ(v, Value(10, 0));
  ASSERT_OK(txn->Rollback());
  txn.reset();
  ASSERT_OK(tdb->Get(ReadOptions(), Key(8), &v));
  EXPECT_EQ(v, "txn");
  ASSERT_OK(tdb->Get(ReadOptions(), Key(9), &v));
  EXPECT_EQ(v, Value(9, 1));
  ASSERT_OK(tdb->Close());
  tdb.reset();
  ASSERT_OK(DestroyDB(dbname_, options_));
  ASSERT_OK(Open());
}

// A tailing iterator (RocksDB's ForwardIterator, which makes its table
// iterators outside any arena and keeps them across the flushes and
// compactions it follows) sees what later writes put in new files at its
// next Seek.
TEST_P(RobinHoodDBApiTest, TailingIteratorFollowsNewFiles) {
  WriteAcrossFiles();
  Flush();
  ReadOptions ro;
  ro.tailing = true;
  std::unique_ptr<Iterator> it(db_->NewIterator(ro));
  auto read_from = [&](const std::string& start) {
    return ReadFrom(it.get(), start);
  };
  auto model_from = [&](const std::string& start) {
    return Model(model_.lower_bound(start), model_.end());
  };
  EXPECT_EQ(read_from(""), model_);
  for (int i = 900; i < 1100; i++) Put(Key(i), Value(i, 4));
  Flush();
  EXPECT_EQ(read_from(Key(100)), model_from(Key(100)));
  for (int i = 0; i < 1100; i += 9) Delete(Key(i));
  for (int i = 1100; i < 1200; i++) Put(Key(i), Value(i, 5));
  Flush();
  Compact();
  ExpectOurTables();
  EXPECT_EQ(read_from(""), model_);
  // Seeks that land between keys and past the end.
  EXPECT_EQ(read_from(Key(555) + std::string(1, '\0')),
            model_from(Key(555) + std::string(1, '\0')));
  EXPECT_EQ(read_from(Key(99999)), model_from(Key(99999)));
  it.reset();
  VERIFY("after the tailing iterator");
}

// Iterator::Refresh moves an iterator to the DB as it is now: files
// flushed and compacted since it was made, and the ones it read gone.
TEST_P(RobinHoodDBApiTest, RefreshedIteratorReadsTheNewFiles) {
  WriteAcrossFiles();
  Flush();
  std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions()));
  const Model before = model_;
  auto read_all = [&]() { return ReadFrom(it.get(), ""); };
  for (int i = 0; i < 1000; i += 4) Put(Key(i), Value(i, 6));
  Flush();
  EXPECT_EQ(read_all(), before);  // an iterator reads one version
  ASSERT_OK(it->Refresh());
  EXPECT_EQ(read_all(), model_);
  for (int i = 0; i < 1000; i += 11) Delete(Key(i));
  Compact();
  ExpectOurTables();
  ASSERT_OK(it->Refresh());
  EXPECT_EQ(read_all(), model_);
  it.reset();
  VERIFY("after the refreshed iterator");
}

INSTANTIATE_TEST_SUITE_P(MmapAndConfigs, RobinHoodDBApiTest,
                         testing::Combine(testing::Bool(),
                                          testing::Values(0, 1, 2)),
                         ParamName);

}  // namespace
}  // namespace dbtest
}  // namespace ROCKSDB_NAMESPACE
