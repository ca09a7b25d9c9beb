// What RocksDB changed silently between releases, pinned through the public
// API on whichever host this suite is built against (7.8.3 and 9.11.2 in
// CI): changes that compile and then misbehave unless table/compat.h takes
// them into account. Each test names the release that made the change.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>

#include "file/random_access_file_reader.h"
#include "options/cf_options.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/file_system.h"
#include "rocksdb/merge_operator.h"
#include "rocksdb/options.h"
#include "rocksdb/table_properties.h"
#include "rocksdb/version.h"
#include "rocksdb_robinhood/robinhood_table.h"
#include "table/compat.h"
#include "table/meta_blocks.h"
#include "table/robinhood_format.h"
#include "table/table_meta.h"
#include "tests/test_util.h"

namespace ROCKSDB_NAMESPACE {
namespace {

using test_util::OpenDB;

class HostCompatTest : public testing::Test {
 protected:
  void SetUp() override {
    path_ = test_util::TempPath("host_compat", ::testing::UnitTest::GetInstance()
                                                   ->current_test_info()
                                                   ->name());
    ASSERT_OK(DestroyDB(path_, Options()));
    options_.create_if_missing = true;
    options_.table_factory.reset(NewRobinHoodTableFactory());
    options_.disable_auto_compactions = true;
  }
  void TearDown() override {
    db_.reset();
    EXPECT_OK(DestroyDB(path_, Options()));
    test_util::RemoveTree(path_);
  }
  void Open() { ASSERT_OK(OpenDB(options_, path_, &db_)); }
  std::vector<std::string> SstFiles() {
    return test_util::LiveSstPaths(db_.get());
  }

  std::string path_;
  Options options_;
  std::unique_ptr<DB> db_;
};

// 8.7: DB iterators take range tombstones from the reader's
// NewRangeTombstoneIterator(SequenceNumber, const Slice*); its base version
// returns null, and without our override the deleted keys come back.
TEST_F(HostCompatTest, RangeDeletionInAFileHidesKeysFromIterators) {
  Open();
  for (int i = 0; i < 100; ++i) {
    ASSERT_OK(db_->Put(WriteOptions(), "k" + std::to_string(100 + i), "v"));
  }
  ASSERT_OK(db_->Flush(FlushOptions()));
  ASSERT_OK(db_->DeleteRange(WriteOptions(), db_->DefaultColumnFamily(),
                             "k120", "k180"));
  ASSERT_OK(db_->Flush(FlushOptions()));  // the tombstone is in a file too
  ASSERT_EQ(SstFiles().size(), 2u);

  for (bool forward : {true, false}) {
    std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions()));
    int seen = 0;
    if (forward) {
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        EXPECT_FALSE(it->key().compare("k120") >= 0 &&
                     it->key().compare("k180") < 0)
            << it->key().ToString() << " is range-deleted";
        ++seen;
      }
    } else {
      for (it->SeekToLast(); it->Valid(); it->Prev()) ++seen;
    }
    ASSERT_OK(it->status());
    EXPECT_EQ(seen, 40) << (forward ? "forward" : "backward");
  }
  std::string v;
  EXPECT_TRUE(db_->Get(ReadOptions(), "k150", &v).IsNotFound());
}

// A merge operator that refuses every merge.
class FailingMerge : public MergeOperator {
 public:
  bool FullMergeV2(const MergeOperationInput&,
                   MergeOperationOutput*) const override {
    return false;
  }
  const char* Name() const override { return "FailingMerge"; }
};

// 9.1: GetContext::SaveValue reports merge (and blob) errors through a
// Status* read_status; a null one there crashes, and an ignored one loses
// the error. Either way the read must fail, and say so.
TEST_F(HostCompatTest, FailingMergeOperatorSurfacesTheError) {
  options_.merge_operator = std::make_shared<FailingMerge>();
  Open();
  // The flush would merge an operand into its base (and fail): a snapshot
  // between them keeps both in the file, for the read to merge.
  ASSERT_OK(db_->Put(WriteOptions(), "base", "b"));
  const Snapshot* snap = db_->GetSnapshot();
  ASSERT_OK(db_->Merge(WriteOptions(), "base", "op1"));
  ASSERT_OK(db_->Merge(WriteOptions(), "only-ops", "op1"));
  ASSERT_OK(db_->Flush(FlushOptions()));
  ASSERT_OK(db_->Merge(WriteOptions(), "only-ops", "op2"));
  ASSERT_OK(db_->Flush(FlushOptions()));
  ASSERT_EQ(SstFiles().size(), 2u);
  for (const char* key : {"base", "only-ops"}) {
    std::string v;
    Status s = db_->Get(ReadOptions(), key, &v);
    EXPECT_FALSE(s.ok()) << key << ": a failed merge read as " << v;
    EXPECT_FALSE(s.IsNotFound()) << key << ": " << s.ToString();
  }
  // MultiGet meets the same error per key.
  std::vector<Slice> keys = {"base", "only-ops"};
  std::vector<std::string> values;
  for (const Status& s : db_->MultiGet(ReadOptions(), keys, &values)) {
    EXPECT_FALSE(s.ok() || s.IsNotFound()) << s.ToString();
  }
  db_->ReleaseSnapshot(snap);
}

// A user collector factory that declines to collect for every file.
class DecliningFactory : public TablePropertiesCollectorFactory {
 public:
  TablePropertiesCollector* CreateTablePropertiesCollector(
      TablePropertiesCollectorFactory::Context) override {
    return nullptr;
  }
  const char* Name() const override { return "Declining"; }
};

class CountingCollector : public TablePropertiesCollector {
 public:
  Status AddUserKey(const Slice&, const Slice&, EntryType, SequenceNumber,
                    uint64_t) override {
    ++n_;
    return Status::OK();
  }
  Status Finish(UserCollectedProperties* props) override {
    (*props)["test.count"] = std::to_string(n_);
    return Status::OK();
  }
  UserCollectedProperties GetReadableProperties() const override {
    return {};
  }
  const char* Name() const override { return "Counting"; }

 private:
  int n_ = 0;
};

class CountingFactory : public TablePropertiesCollectorFactory {
 public:
  TablePropertiesCollector* CreateTablePropertiesCollector(
      TablePropertiesCollectorFactory::Context) override {
    return new CountingCollector();
  }
  const char* Name() const override { return "Counting"; }
};

// 8.10: a collector factory may return null, meaning "not for this file";
// RocksDB then hands the builder a null collector, which must be skipped.
TEST_F(HostCompatTest, CollectorFactoryReturningNullIsSkipped) {
#if !RH_ROCKSDB_AT_LEAST(8, 10)
  GTEST_SKIP() << "before RocksDB 8.10 a collector factory may not return "
                  "null: RocksDB's own wrapper calls the null collector";
#endif
  options_.table_properties_collector_factories = {
      std::make_shared<DecliningFactory>(), std::make_shared<CountingFactory>()};
  Open();
  for (int i = 0; i < 10; ++i) {
    ASSERT_OK(db_->Put(WriteOptions(), "k" + std::to_string(i), "v"));
  }
  ASSERT_OK(db_->Flush(FlushOptions()));
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  TablePropertiesCollection props;
  ASSERT_OK(db_->GetPropertiesOfAllTables(&props));
  ASSERT_EQ(props.size(), 1u);
  const auto& user = props.begin()->second->user_collected_properties;
  ASSERT_TRUE(user.count("test.count"));
  EXPECT_EQ(user.at("test.count"), "10");
}

// 11.0: RocksDB's footer decoder refuses magic numbers it does not know,
// so ours is our own code. Its bytes keep RocksDB's layout for table
// format versions 1 to 5, which earlier hosts decode.
TEST(TableFooterTest, RoundTripsAndRefusesDamage) {
  using robinhood::SectionHandle;
  using robinhood::TableFooter;
  const SectionHandle metaindex{123456789, 321};
  const SectionHandle meta{123457115, 180};
  const std::string bytes =
      robinhood::EncodeFooter(metaindex, meta, robinhood::kFormatVersion);
  ASSERT_EQ(bytes.size(), robinhood::kFooterSize);
  TableFooter f;
  ASSERT_TRUE(robinhood::DecodeFooter(bytes, &f));
  EXPECT_EQ(f.checksum_type, kCRC32c);
  EXPECT_EQ(f.metaindex.offset, metaindex.offset);
  EXPECT_EQ(f.metaindex.size, metaindex.size);
  EXPECT_EQ(f.meta.offset, meta.offset);
  EXPECT_EQ(f.meta.size, meta.size);
  EXPECT_EQ(f.format_version, robinhood::kFormatVersion);
  EXPECT_EQ(f.magic, robinhood::kMagicNumber);

  std::string padded = bytes;
  padded[TableFooter::kPaddedHandles - 1] = 1;  // padding must be zeros
  EXPECT_FALSE(robinhood::DecodeFooter(padded, &f));
  EXPECT_FALSE(robinhood::DecodeFooter(Slice(bytes.data(), 52), &f));
  std::string runaway = bytes;  // a varint that never ends
  for (size_t i = 1; i < TableFooter::kPaddedHandles; ++i) runaway[i] = '\x80';
  EXPECT_FALSE(robinhood::DecodeFooter(runaway, &f));
}

// RocksDB reads the properties of a table missing from its table cache with
// its own reader (Version::GetTableProperties: compaction inputs, DB open's
// statistics, GetPropertiesOfAllTables). For magic numbers not its own it
// checks no block checksum, so a damaged footer made release builds parse
// arbitrary bytes as a block and crash (CompactionReadFaultTest on 9.11.2).
// Since format version 2 our footer keeps it out on every host, with any
// one bit of the footer flipped too; through the DB, properties come from
// our reader.
TEST_F(HostCompatTest, HostPropertyReaderRefusesOurFiles) {
  Open();
  for (int i = 0; i < 50; ++i) {
    ASSERT_OK(db_->Put(WriteOptions(), "k" + std::to_string(i), "v"));
  }
  ASSERT_OK(db_->Flush(FlushOptions()));
  TablePropertiesCollection props;
  ASSERT_OK(db_->GetPropertiesOfAllTables(&props));
  ASSERT_EQ(props.size(), 1u);
  EXPECT_EQ(props.begin()->second->num_entries, 50u);
  const std::string file = props.begin()->first;

  std::string bytes;
  ASSERT_OK(ReadFileToString(options_.env, file, &bytes));
  const std::string copy = path_ + "/flipped.sst";
  const std::shared_ptr<FileSystem>& fs = options_.env->GetFileSystem();
  ImmutableOptions ioptions(options_);
  auto host_read = [&](const std::string& contents) {
    EXPECT_OK(WriteStringToFile(options_.env, contents, copy, true));
    std::unique_ptr<FSRandomAccessFile> raw;
    EXPECT_OK(fs->NewRandomAccessFile(copy, FileOptions(), &raw, nullptr));
    RandomAccessFileReader reader(std::move(raw), copy);
    std::unique_ptr<TableProperties> host_props;
    // kNullTableMagicNumber (0), as Version::GetTableProperties passes it.
    return robinhood::compat::HostReadTableProperties(
        &reader, contents.size(), 0, ioptions, &host_props);
  };
  Status s = host_read(bytes);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  const size_t footer = bytes.size() - robinhood::kFooterSize;
  for (size_t at = footer; at < bytes.size(); ++at) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string flipped = bytes;
      flipped[at] = static_cast<char>(flipped[at] ^ (1 << bit));
      s = host_read(flipped);
      EXPECT_FALSE(s.ok()) << "footer byte " << at - footer << " bit " << bit;
    }
  }
}

// With a table cache smaller than the DB's files, compactions find their
// inputs' properties missing from the cache and ask RocksDB's own reader,
// which refuses our files (above): the compaction still runs, from our
// readers, and writes the right data. GetPropertiesOfAllTables asks the
// same reader and fails while a table is out of the cache (docs/guide.md
// says so); it answers once every table is.
TEST_F(HostCompatTest, CompactionWithASmallTableCache) {
  options_.max_open_files = 20;  // a table cache of 10 on every host
  options_.table_cache_numshardbits = 0;
  Open();
  for (int f = 0; f < 24; ++f) {
    for (int i = 0; i < 40; ++i) {
      const int k = f * 20 + i;
      ASSERT_OK(db_->Put(WriteOptions(), "key" + std::to_string(k),
                         "v" + std::to_string(f)));
    }
    ASSERT_OK(db_->Flush(FlushOptions()));
  }
  db_.reset();
  Open();  // loads the readers of a few files only
  TablePropertiesCollection props;
  Status s = db_->GetPropertiesOfAllTables(&props);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  CompactRangeOptions cro;
  cro.bottommost_level_compaction = BottommostLevelCompaction::kForce;
  ASSERT_OK(db_->CompactRange(cro, nullptr, nullptr));
  for (int k = 0; k < 23 * 20 + 40; ++k) {
    std::string v;
    ASSERT_OK(db_->Get(ReadOptions(), "key" + std::to_string(k), &v));
    // The newest file holding k wrote it last.
    EXPECT_EQ(v, "v" + std::to_string(std::min(k / 20, 23))) << k;
  }
  props.clear();
  ASSERT_OK(db_->GetPropertiesOfAllTables(&props));
  uint64_t entries = 0;
  for (const auto& p : props) entries += p.second->num_entries;
  EXPECT_EQ(entries, 23u * 20 + 40);
}

}  // namespace
}  // namespace ROCKSDB_NAMESPACE
