// A file past 4 GiB: entries of 1 MiB values (so it builds in seconds)
// whose log addresses need more than 32 bits. Built with SstFileWriter,
// verified, read back whole by an iterator, ingested, and read through the
// DB by Get, MultiGet and Seek, with pread and with mmap, on both sides of
// the 4 GiB line.
#include <unistd.h>

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/sst_file_reader.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb_robinhood/robinhood_table.h"
#include "tests/test_util.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {
namespace {

constexpr size_t kValueBytes = size_t(1) << 20;
// 4.2 GiB of values: the last ~200 entries lie past 4 GiB.
constexpr int kEntries = 4300;
constexpr uint64_t kFourGiB = uint64_t(1) << 32;

std::string Key(int i) {
  char buf[16];
  snprintf(buf, sizeof(buf), "key%06d", i);
  return buf;
}

// A value that names its entry at both ends and differs in between.
void Value(int i, std::string* v) {
  v->assign(kValueBytes, char('a' + i % 26));
  EncodeFixed32(&(*v)[0], uint32_t(i));
  EncodeFixed32(&(*v)[kValueBytes - 4], uint32_t(i) * 2654435761u);
}

bool IsValue(int i, const Slice& v) {
  return v.size() == kValueBytes && DecodeFixed32(v.data()) == uint32_t(i) &&
         DecodeFixed32(v.data() + kValueBytes - 4) == uint32_t(i) * 2654435761u &&
         v[kValueBytes / 2] == char('a' + i % 26);
}

TEST(LargeFileTest, PastFourGiBBuildsReadsVerifiesAndIngests) {
  const std::string sst = test_util::TempPath("large", "file.sst");
  const std::string dbpath = test_util::TempPath("large", "db");
  Options options;
  options.table_factory.reset(NewRobinHoodTableFactory());
  options.compression = kNoCompression;
  {
    SstFileWriter writer(EnvOptions(), options);
    ASSERT_OK(writer.Open(sst));
    std::string v;
    for (int i = 0; i < kEntries; i++) {
      Value(i, &v);
      ASSERT_OK(writer.Put(Key(i), v));
    }
    ExternalSstFileInfo info;
    ASSERT_OK(writer.Finish(&info));
    ASSERT_GT(info.file_size, kFourGiB + (uint64_t(100) << 20));
  }
  {
    SstFileReader reader(options);
    ASSERT_OK(reader.Open(sst));
    ASSERT_OK(reader.VerifyChecksum());
    std::unique_ptr<Iterator> it(reader.NewIterator(ReadOptions()));
    int i = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next(), i++) {
      ASSERT_EQ(Key(i), it->key().ToString());
      ASSERT_TRUE(IsValue(i, it->value())) << i;
    }
    ASSERT_OK(it->status());
    ASSERT_EQ(kEntries, i);
  }

  options.create_if_missing = true;
  ASSERT_OK(DestroyDB(dbpath, options));
  std::unique_ptr<DB> db;
  ASSERT_OK(test_util::OpenDB(options, dbpath, &db));
  IngestExternalFileOptions ingest;
  ingest.move_files = true;
  ASSERT_OK(db->IngestExternalFile({sst}, ingest));
  for (bool mmap : {false, true}) {
    SCOPED_TRACE(mmap ? "mmap" : "pread");
    db.reset();
    options.allow_mmap_reads = mmap;
    ASSERT_OK(test_util::OpenDB(options, dbpath, &db));
    // Both ends, the 4 GiB line and a stride between.
    std::vector<int> probe = {0, 1, kEntries / 2, kEntries - 1, kEntries - 2};
    for (int i = 4000; i < 4200; i += 3) probe.push_back(i);
    for (int i = 0; i < kEntries; i += 173) probe.push_back(i);
    for (int i : probe) {
      PinnableSlice v;
      ASSERT_OK(db->Get(ReadOptions(), db->DefaultColumnFamily(), Key(i), &v));
      ASSERT_TRUE(IsValue(i, v)) << i;
    }
    std::string absent;
    EXPECT_TRUE(db->Get(ReadOptions(), "key9999999", &absent).IsNotFound());
    std::vector<std::string> keys;
    for (int i = kEntries - 40; i < kEntries; i += 2) keys.push_back(Key(i));
    keys.push_back("key00000050");  // absent: between key000005 and key000006
    std::vector<Slice> slices(keys.begin(), keys.end());
    std::vector<std::string> values;
    std::vector<Status> st = db->MultiGet(ReadOptions(), slices, &values);
    for (size_t k = 0; k + 1 < keys.size(); k++) {
      ASSERT_OK(st[k]);
      ASSERT_TRUE(IsValue(kEntries - 40 + int(k) * 2, values[k])) << keys[k];
    }
    EXPECT_TRUE(st.back().IsNotFound());
    std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions()));
    it->Seek(Key(4150));
    for (int i = 4150; i < 4160; i++, it->Next()) {
      ASSERT_TRUE(it->Valid());
      ASSERT_EQ(Key(i), it->key().ToString());
      ASSERT_TRUE(IsValue(i, it->value())) << i;
    }
    ASSERT_OK(it->status());
    it->SeekToLast();
    ASSERT_TRUE(it->Valid());
    EXPECT_EQ(Key(kEntries - 1), it->key().ToString());
  }
  ASSERT_OK(db->VerifyChecksum());
  db.reset();
  ASSERT_OK(DestroyDB(dbpath, options));
  unlink(sst.c_str());
}

}  // namespace
}  // namespace ROCKSDB_NAMESPACE
