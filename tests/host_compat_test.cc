// What RocksDB changed silently between releases, pinned through the public
// API on whichever host this suite is built against (7.8.3 and 9.11.2 in
// CI): changes that compile and then misbehave unless table/compat.h takes
// them into account. Each test names the release that made the change.
#include <gtest/gtest.h>

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
  const std::string bytes = robinhood::EncodeFooter(metaindex, meta);
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

TEST_F(HostCompatTest, PropertiesReadableByTheHost) {
  Open();
  for (int i = 0; i < 50; ++i) {
    ASSERT_OK(db_->Put(WriteOptions(), "k" + std::to_string(i), "v"));
  }
  ASSERT_OK(db_->Flush(FlushOptions()));
  // Through the DB, on every host: our reader parses them.
  TablePropertiesCollection props;
  ASSERT_OK(db_->GetPropertiesOfAllTables(&props));
  ASSERT_EQ(props.size(), 1u);
  EXPECT_EQ(props.begin()->second->num_entries, 50u);
  const std::string file = props.begin()->first;

#if RH_ROCKSDB_AT_LEAST(11, 0)
  GTEST_SKIP() << "RocksDB " << ROCKSDB_MAJOR << "." << ROCKSDB_MINOR
               << "'s footer decoder refuses magic numbers it does not know: "
                  "its ReadTableProperties cannot reach our properties";
#else
  // RocksDB's own reader of a file's properties (sst_dump's and
  // ReadTableProperties' path), which finds them through our footer.
  std::unique_ptr<FSRandomAccessFile> raw;
  const std::shared_ptr<FileSystem>& fs = options_.env->GetFileSystem();
  ASSERT_OK(fs->NewRandomAccessFile(file, FileOptions(), &raw, nullptr));
  RandomAccessFileReader reader(std::move(raw), file);
  uint64_t size = 0;
  ASSERT_OK(fs->GetFileSize(file, IOOptions(), &size, nullptr));
  ImmutableOptions ioptions(options_);
  std::unique_ptr<TableProperties> host_props;
  ASSERT_OK(robinhood::compat::HostReadTableProperties(
      &reader, size, robinhood::kMagicNumber, ioptions, &host_props));
  EXPECT_EQ(host_props->num_entries, 50u);
  EXPECT_EQ(host_props->user_collected_properties.at(
                RobinHoodTablePropertyNames::kFactory),
            kRobinHoodTableName);
#endif
}

}  // namespace
}  // namespace ROCKSDB_NAMESPACE
