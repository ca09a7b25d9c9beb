// Corruption at DB level: RocksDB with RobinHoodTable and paranoid_checks,
// a byte of a flushed or ingested file damaged on disk: Get gives the right
// value or Corruption naming the file, DB::VerifyChecksum reports it.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>
#include "db/dbformat.h"
#include "db/range_tombstone_fragmenter.h"
#include "file/random_access_file_reader.h"
#include "file/writable_file_writer.h"
#include "options/cf_options.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/file_system.h"
#include "rocksdb/merge_operator.h"
#include "rocksdb/metadata.h"
#include "rocksdb/options.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/table_properties.h"
#include "rocksdb_robinhood/robinhood_table.h"
#include "table/block_table.h"
#include "table/get_context.h"
#include "table/robinhood_format.h"
#include "table/robinhood_table_reader.h"
#include "table/table_builder.h"
#include "tests/corruption_harness.h"
#include "tests/test_util.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {
namespace {

using namespace harness;  // NOLINT: the suite is written in its terms

// ---------------------------------------------------------------------------
// DB level: RocksDB with RobinHoodTable, a flushed file damaged on disk.

std::string DBKey(int i) {
  char buf[16];
  snprintf(buf, sizeof(buf), "key%06d", i);
  return buf;
}

std::string DBValue(int i) {
  std::string v = "value" + std::to_string(i) + ":";
  v.resize(5 + (i * 37) % 90, static_cast<char>('a' + i % 26));
  return v;
}

class DBCorruptionTest
    : public testing::TestWithParam<std::tuple<bool, CompressionType>> {
 protected:
  static constexpr int kKeys = 600;

  DBCorruptionTest()
      : dbname_(test_util::TempPath(
            "corruption", std::string("db_") +
                              (std::get<0>(GetParam()) ? "mmap_" : "pread_") +
                              std::to_string(std::get<1>(GetParam())))) {
    options_.create_if_missing = true;
    options_.paranoid_checks = true;
    options_.allow_mmap_reads = std::get<0>(GetParam());
    options_.compression = std::get<1>(GetParam());
    options_.disable_auto_compactions = true;
    RobinHoodTableOptions rh;
    rh.log_block_size = 256;  // small blocks: damage costs few keys
    options_.table_factory.reset(NewRobinHoodTableFactory(rh));
    DestroyDB(dbname_, options_);
  }
  ~DBCorruptionTest() override {
    db_.reset();
    DestroyDB(dbname_, options_);
  }

  Status Open() {
    db_.reset();
    return test_util::OpenDB(options_, dbname_, &db_);
  }

  // Writes the keys and flushes them into one file; returns its path.
  std::string FillOneFile() {
    EXPECT_OK(Open());
    for (int i = 0; i < kKeys; ++i) {
      EXPECT_OK(db_->Put(WriteOptions(), DBKey(i), DBValue(i)));
    }
    EXPECT_OK(db_->Flush(FlushOptions()));
    std::vector<LiveFileMetaData> files;
    db_->GetLiveFilesMetaData(&files);
    EXPECT_EQ(files.size(), 1u);
    db_.reset();
    if (files.empty()) return "";
    file_name_ = files[0].name;  // "/000009.sst"
    if (!file_name_.empty() && file_name_[0] == '/') file_name_.erase(0, 1);
    return files[0].db_path + "/" + file_name_;
  }

  bool NamesTheFile(const Status& s) const {
    return s.IsCorruption() && Contains(s.ToString(), file_name_);
  }

  struct Answers {
    int right = 0;
    int corruptions = 0;
    // The batched MultiGet's, which reaches the reader's MultiGet (the
    // vector one may look each key up alone).
    int batch_corruptions = 0;
    bool scan_corruption = false;
  };

  // Every read answers right or Corruption naming the file.
  Answers ReadEverything() {
    Answers a;
    for (int i = 0; i < kKeys + 20; ++i) {
      std::string v;
      Status s = db_->Get(ReadOptions(), DBKey(i), &v);
      if (s.ok() && i < kKeys && v == DBValue(i)) {
        a.right++;
      } else if (s.IsNotFound() && i >= kKeys) {
        a.right++;
      } else if (NamesTheFile(s)) {
        a.corruptions++;
      } else {
        ADD_FAILURE() << "Get(" << DBKey(i) << "): " << s.ToString() << " \""
                      << v << "\"";
      }
    }
    std::vector<std::string> keys;
    for (int i = 0; i < kKeys; ++i) keys.push_back(DBKey(i));
    std::vector<Slice> slices(keys.begin(), keys.end());
    std::vector<std::string> values;
    std::vector<Status> statuses =
        db_->MultiGet(ReadOptions(), slices, &values);
    for (int i = 0; i < kKeys; ++i) {
      if (!(statuses[i].ok() && values[i] == DBValue(i)) &&
          !NamesTheFile(statuses[i])) {
        ADD_FAILURE() << "MultiGet(" << DBKey(i)
                      << "): " << statuses[i].ToString();
      }
    }
    std::vector<PinnableSlice> pinned(kKeys);
    std::vector<Status> batch_statuses(kKeys);
    db_->MultiGet(ReadOptions(), db_->DefaultColumnFamily(), kKeys,
                  slices.data(), pinned.data(), batch_statuses.data());
    for (int i = 0; i < kKeys; ++i) {
      if (NamesTheFile(batch_statuses[i])) {
        a.batch_corruptions++;
      } else if (!(batch_statuses[i].ok() && pinned[i] == DBValue(i))) {
        ADD_FAILURE() << "MultiGet(batched, " << DBKey(i)
                      << "): " << batch_statuses[i].ToString();
      }
    }
    a.scan_corruption = ScanIsRightOrCorruption(ReadOptions(), "scan");
    // Without checksums the same: the reader checks what it reads whatever
    // verify_checksums says.
    ReadOptions unverified;
    unverified.verify_checksums = false;
    for (int k = 0; k < kKeys; ++k) {
      std::string v;
      Status s = db_->Get(unverified, DBKey(k), &v);
      if (s.ok()) {
        EXPECT_EQ(v, DBValue(k)) << "unverified Get of key " << k;
      } else {
        EXPECT_TRUE(s.IsCorruption() && NamesTheFile(s)) << s.ToString();
      }
    }
    ScanIsRightOrCorruption(unverified, "unverified scan");
    return a;
  }

  // A full scan with `ro`: every entry right, then the end or Corruption
  // naming the file. True if it ended in Corruption.
  bool ScanIsRightOrCorruption(const ReadOptions& ro, const char* what) {
    std::unique_ptr<Iterator> it(db_->NewIterator(ro));
    int i = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next(), ++i) {
      if (i >= kKeys || it->key() != DBKey(i) || it->value() != DBValue(i)) {
        ADD_FAILURE() << what << ": entry " << i << " is "
                      << it->key().ToString();
        break;
      }
    }
    if (!it->status().ok()) {
      EXPECT_TRUE(it->status().IsCorruption() && NamesTheFile(it->status()))
          << it->status().ToString();
      return true;
    }
    EXPECT_EQ(i, kKeys) << what << " ended cleanly early";
    return false;
  }

  // FillOneFile, then the file's bytes and where its parts lie.
  void FillOneFileAndRead(std::string* sst, std::string* original,
                          FileMap* layout) {
    *sst = FillOneFile();
    ASSERT_FALSE(sst->empty());
    ASSERT_OK(ReadFileToString(Env::Default(), *sst, original));
    TableFile table(*sst, /*existing=*/true);
    *layout = MapOf(&table);
  }

  const std::string dbname_;
  Options options_;
  std::unique_ptr<DB> db_;
  std::string file_name_;
};

TEST_P(DBCorruptionTest, DamagedLogByte) {
  std::string sst, original;
  FileMap layout;
  ASSERT_NO_FATAL_FAILURE(FillOneFileAndRead(&sst, &original, &layout));
  ASSERT_GE(layout.blocks.size(), 10u);
  const BlockLocation loc = layout.blocks[layout.blocks.size() / 2];
  const std::vector<std::pair<uint64_t, std::string>> targets = {
      {loc.file_offset + loc.contents_bytes / 2, "a middle byte"},
      {loc.file_offset, "the first byte"},
      {loc.file_offset + loc.contents_bytes, "the trailer's type byte"},
      {loc.file_offset + loc.contents_bytes + 2, "a trailer CRC byte"},
  };
  for (const auto& target : targets) {
    SCOPED_TRACE("log block at " + std::to_string(loc.file_offset) + ": " +
                 target.second + " flipped");
    ASSERT_OK(WriteStringToFile(Env::Default(),
                                Flipped(original, target.first, 0x10), sst,
                                false));
    ASSERT_OK(Open());  // the log is not read at open
    for (int round = 0; round < 2; ++round) {
      Answers a = ReadEverything();
      EXPECT_GT(a.corruptions, 0);
      EXPECT_GT(a.right, kKeys / 2);
      EXPECT_TRUE(a.scan_corruption);
    }
    Status s = db_->VerifyChecksum();
    EXPECT_TRUE(NamesTheFile(s)) << s.ToString();
    EXPECT_TRUE(Contains(s.ToString(), "log block")) << s.ToString();
    db_.reset();
  }
  ASSERT_OK(WriteStringToFile(Env::Default(), original, sst, false));
  ASSERT_OK(Open());
  Answers a = ReadEverything();
  EXPECT_EQ(a.right, kKeys + 20);
  EXPECT_OK(db_->VerifyChecksum());
}

// Damage in a section verified at open: the DB refuses to open, or every
// read of the file says Corruption.
TEST_P(DBCorruptionTest, DamagedIndexOrFooter) {
  std::string sst, original;
  FileMap layout;
  ASSERT_NO_FATAL_FAILURE(FillOneFileAndRead(&sst, &original, &layout));
  for (uint64_t off : {layout.meta.index.offset + layout.meta.index.size / 2,
                       layout.meta_offset + 40, layout.file_size - 3}) {
    SCOPED_TRACE("byte " + std::to_string(off) + " (" + layout.PartOf(off) +
                 ") flipped");
    ASSERT_OK(WriteStringToFile(Env::Default(), Flipped(original, off), sst,
                                false));
    Status s = Open();
    if (!s.ok()) {
      EXPECT_TRUE(NamesTheFile(s)) << s.ToString();
      continue;
    }
    Answers a = ReadEverything();
    EXPECT_EQ(a.right, 20);  // only the absent keys, found absent
    EXPECT_TRUE(NamesTheFile(db_->VerifyChecksum()));
    db_.reset();
  }
}

// Damage in a page of the filter: a reader of positioned reads checks
// the whole filter at open, so the DB refuses to open, naming the file; a
// mapped file's pages are checked as probes read them, and every read is
// right or Corruption naming the file, the batched MultiGet's too, each
// key in its own status.
TEST_P(DBCorruptionTest, DamagedFilterPage) {
  std::string sst, original;
  FileMap layout;
  ASSERT_NO_FATAL_FAILURE(FillOneFileAndRead(&sst, &original, &layout));
  ASSERT_GT(layout.meta.filter.size, 0u) << "the file has no filter";
  ASSERT_OK(WriteStringToFile(
      Env::Default(),
      Flipped(original, layout.meta.filter.offset + layout.meta.filter.size / 2),
      sst, false));
  Status s = Open();
  if (!std::get<0>(GetParam())) {
    EXPECT_TRUE(NamesTheFile(s)) << s.ToString();
    return;
  }
  ASSERT_OK(s);
  Answers a = ReadEverything();
  EXPECT_EQ(a.right + a.corruptions, kKeys + 20);
  // The Gets of absent keys raise the reader's share of misses, and from
  // then on lookups probe the filter: the batch's keys of the page say
  // Corruption.
  EXPECT_GT(a.batch_corruptions, 0);
  EXPECT_TRUE(NamesTheFile(db_->VerifyChecksum()));
  db_.reset();
}

// Damage in the samples, which open leaves to their first use: point
// lookups, which never read them, stay right; a Seek and VerifyChecksum
// say Corruption, naming the file.
TEST_P(DBCorruptionTest, DamagedSamples) {
  std::string sst, original;
  FileMap layout;
  ASSERT_NO_FATAL_FAILURE(FillOneFileAndRead(&sst, &original, &layout));
  ASSERT_OK(WriteStringToFile(
      Env::Default(), Flipped(original, layout.meta.sparse_index.offset + 1),
      sst, false));
  ASSERT_OK(Open());
  Answers a = ReadEverything();
  EXPECT_EQ(a.right, kKeys + 20);
  std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions()));
  it->Seek(DBKey(kKeys / 2));
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(NamesTheFile(it->status())) << it->status().ToString();
  EXPECT_TRUE(NamesTheFile(db_->VerifyChecksum()));
  it.reset();
  db_.reset();
}

// Ingestion writes the global sequence number into the properties block
// after its checksum was taken: the reader accepts exactly that change, and
// damage to the written value itself still shows.
TEST_P(DBCorruptionTest, IngestedFileWithGlobalSeqno) {
  const std::string ext = dbname_ + "_ingest.sst";
  {
    SstFileWriter writer(EnvOptions(), options_);
    ASSERT_OK(writer.Open(ext));
    for (int i = 0; i < 300; ++i) ASSERT_OK(writer.Put(DBKey(i), DBValue(i)));
    ASSERT_OK(writer.Finish());
  }
  ASSERT_OK(Open());
  ASSERT_OK(db_->Put(WriteOptions(), DBKey(5), "older"));  // overlaps
  IngestExternalFileOptions ifo;
  ifo.write_global_seqno = true;
  ifo.move_files = false;
  ASSERT_OK(db_->IngestExternalFile({ext}, ifo));
  Env::Default()->DeleteFile(ext);
  // The ingested file is the one with a global seqno (the other holds the
  // flushed memtable).
  TablePropertiesCollection props;
  ASSERT_OK(db_->GetPropertiesOfAllTables(&props));
  std::string sst;
  uint64_t seqno_at = 0;
  for (const auto& p : props) {
    if (p.second->external_sst_file_global_seqno_offset > 0) {
      sst = p.first;
      seqno_at = p.second->external_sst_file_global_seqno_offset;
    }
  }
  ASSERT_FALSE(sst.empty());
  file_name_ = sst.substr(sst.rfind('/') + 1);
  for (int i = 0; i < 300; ++i) {
    std::string v;
    ASSERT_OK(db_->Get(ReadOptions(), DBKey(i), &v));
    ASSERT_EQ(v, DBValue(i));
  }
  ASSERT_OK(db_->VerifyChecksum());
  db_.reset();

  std::string original;
  ASSERT_OK(ReadFileToString(Env::Default(), sst, &original));
  ASSERT_NE(DecodeFixed64(&original[seqno_at]), 0u);  // written in place
  ASSERT_OK(Open());
  ASSERT_OK(db_->VerifyChecksum());
  db_.reset();
  // The global seqno's lowest byte, and a byte elsewhere in the block.
  for (uint64_t off : {seqno_at, seqno_at - 20}) {
    ASSERT_OK(WriteStringToFile(Env::Default(), Flipped(original, off, 0x04),
                                sst, false));
    Status s = Open();
    if (!s.ok()) {
      EXPECT_TRUE(NamesTheFile(s)) << s.ToString();
      continue;
    }
    for (int i = 0; i < 300; ++i) {
      std::string v;
      s = db_->Get(ReadOptions(), DBKey(i), &v);
      EXPECT_TRUE(NamesTheFile(s)) << DBKey(i) << ": " << s.ToString();
    }
    EXPECT_TRUE(NamesTheFile(db_->VerifyChecksum()));
    db_.reset();
  }
}

std::vector<CompressionType> Codecs() {
  std::vector<CompressionType> out = {kNoCompression};
  for (CompressionType c : GetSupportedCompressions()) {
    if (c == kSnappyCompression) out.push_back(c);
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(
    MmapAndCodecs, DBCorruptionTest,
    testing::Combine(testing::Bool(), testing::ValuesIn(Codecs())),
    [](const testing::TestParamInfo<std::tuple<bool, CompressionType>>& info) {
      return std::string(std::get<0>(info.param) ? "mmap" : "pread") +
             (std::get<1>(info.param) == kNoCompression ? "_raw" : "_snappy");
    });

}  // namespace
}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
