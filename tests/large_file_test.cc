// Files past 4 GiB, one of each layout: entries whose positions need more
// than 32 bits. Each is built with SstFileWriter (the paged one under a
// memory bound, its pages streaming past 4 GiB, then a log of its last
// entries that starts past 4 GiB), checked to have taken its layout,
// verified, read back whole by an iterator, ingested, and read through the
// DB by Get, MultiGet and Seek, with pread and with mmap, on both sides of
// the 4 GiB line and in the log.
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/sst_file_reader.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/table_properties.h"
#include "rocksdb_robinhood/robinhood_table.h"
#include "tests/test_util.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {
namespace {

constexpr uint64_t kFourGiB = uint64_t(1) << 32;

// A layout and entries that take it, over 4.2 GiB of them, in few
// entries so that it builds in seconds: values of 1 MiB for the log, one
// entry a 4 KiB page for pages (and from the 1,070,000th, a value of
// 70,000 bytes, which no page takes, a log behind them), and for inline
// slots of 262 bytes (values up to 255 bytes fit a slot) of which a tenth
// hold an entry.
struct Shape {
  const char* layout;
  size_t value_bytes;
  int entries;
  uint64_t build_memory_limit;
  uint32_t inline_slot_limit;
  double inline_load_factor;
  int long_value_at = -1;  // the entry of kLongValueBytes, if any
};
constexpr size_t kLongValueBytes = 70000;

const Shape kShapes[] = {
    {"log", size_t(1) << 20, 4300, 0, 64, 0.8},
    {"paged+log", 4000, 1100000, uint64_t(256) << 20, 64, 0.8, 1070000},
    {"inline", 250, 1800000, 0, 262, 0.1},
};

// The value bytes of entry `i`.
size_t BytesOf(const Shape& shape, int i) {
  return i == shape.long_value_at ? kLongValueBytes : shape.value_bytes;
}

std::string Key(int i) {
  char buf[16];
  snprintf(buf, sizeof(buf), "key%08d", i);
  return buf;
}

// A value that names its entry at both ends and differs in between.
void Value(int i, size_t bytes, std::string* v) {
  v->assign(bytes, char('a' + i % 26));
  EncodeFixed32(&(*v)[0], uint32_t(i));
  EncodeFixed32(&(*v)[bytes - 4], uint32_t(i) * 2654435761u);
}

bool IsValue(int i, size_t bytes, const Slice& v) {
  return v.size() == bytes && DecodeFixed32(v.data()) == uint32_t(i) &&
         DecodeFixed32(v.data() + bytes - 4) == uint32_t(i) * 2654435761u &&
         v[bytes / 2] == char('a' + i % 26);
}

class LargeFileTest : public testing::TestWithParam<Shape> {};

TEST_P(LargeFileTest, PastFourGiBBuildsReadsVerifiesAndIngests) {
  const Shape shape = GetParam();
  const int n = shape.entries;
  const std::string sst = test_util::TempPath("large", "file.sst");
  const std::string dbpath = test_util::TempPath("large", "db");
  Options options;
  RobinHoodTableOptions rh;
  rh.build_memory_limit = shape.build_memory_limit;
  rh.inline_slot_limit = shape.inline_slot_limit;
  rh.inline_load_factor = shape.inline_load_factor;
  options.table_factory.reset(NewRobinHoodTableFactory(rh));
  options.compression = kNoCompression;
  uint64_t file_size = 0;
  {
    SstFileWriter writer(EnvOptions(), options);
    ASSERT_OK(writer.Open(sst));
    std::string v;
    for (int i = 0; i < n; i++) {
      Value(i, BytesOf(shape, i), &v);
      ASSERT_OK(writer.Put(Key(i), v));
    }
    ExternalSstFileInfo info;
    ASSERT_OK(writer.Finish(&info));
    file_size = info.file_size;
    ASSERT_GT(file_size, kFourGiB + (uint64_t(100) << 20));
  }
  {
    SstFileReader reader(options);
    ASSERT_OK(reader.Open(sst));
    const auto& user = reader.GetTableProperties()->user_collected_properties;
    auto layout = user.find(RobinHoodTablePropertyNames::kLayout);
    ASSERT_TRUE(layout != user.end());
    ASSERT_EQ(shape.layout, layout->second);
    ASSERT_OK(reader.VerifyChecksum());
    std::unique_ptr<Iterator> it(reader.NewIterator(ReadOptions()));
    int i = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next(), i++) {
      ASSERT_EQ(Key(i), it->key().ToString());
      ASSERT_TRUE(IsValue(i, BytesOf(shape, i), it->value())) << i;
    }
    ASSERT_OK(it->status());
    ASSERT_EQ(n, i);
  }

  options.create_if_missing = true;
  ASSERT_OK(DestroyDB(dbpath, options));
  std::unique_ptr<DB> db;
  ASSERT_OK(test_util::OpenDB(options, dbpath, &db));
  IngestExternalFileOptions ingest;
  ingest.move_files = true;
  ASSERT_OK(db->IngestExternalFile({sst}, ingest));
  // The entry near the 4 GiB line, by the share of the file before it
  // (every layout here spreads its entries evenly).
  const int line =
      static_cast<int>(double(n) * double(kFourGiB) / double(file_size));
  const int window = std::max(200, n / 2000);
  for (bool mmap : {false, true}) {
    SCOPED_TRACE(mmap ? "mmap" : "pread");
    db.reset();
    options.allow_mmap_reads = mmap;
    ASSERT_OK(test_util::OpenDB(options, dbpath, &db));
    // Both ends, about the 4 GiB line and a stride between, and where a
    // log starts behind the pages.
    std::vector<int> probe = {0, 1, n / 2, n - 1, n - 2};
    if (shape.long_value_at >= 0) {
      for (int i = shape.long_value_at - 3; i < shape.long_value_at + 3; i++) {
        probe.push_back(i);
      }
    }
    for (int i = std::max(0, line - window); i < std::min(n, line + window);
         i += 3) {
      probe.push_back(i);
    }
    for (int i = 0; i < n; i += n / 97 + 1) probe.push_back(i);
    for (int i : probe) {
      PinnableSlice v;
      ASSERT_OK(db->Get(ReadOptions(), db->DefaultColumnFamily(), Key(i), &v));
      ASSERT_TRUE(IsValue(i, BytesOf(shape, i), v)) << i;
    }
    std::string absent;
    EXPECT_TRUE(db->Get(ReadOptions(), "key99999999", &absent).IsNotFound());
    std::vector<std::string> keys;
    for (int i = n - 40; i < n; i += 2) keys.push_back(Key(i));
    keys.push_back(Key(5) + "0");  // absent: between Key(5) and Key(6)
    std::vector<Slice> slices(keys.begin(), keys.end());
    std::vector<std::string> values;
    std::vector<Status> st = db->MultiGet(ReadOptions(), slices, &values);
    for (size_t k = 0; k + 1 < keys.size(); k++) {
      ASSERT_OK(st[k]);
      const int i = n - 40 + int(k) * 2;
      ASSERT_TRUE(IsValue(i, BytesOf(shape, i), values[k])) << keys[k];
    }
    EXPECT_TRUE(st.back().IsNotFound());
    std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions()));
    const int from = std::min(line + 50, n - 10);
    it->Seek(Key(from));
    for (int i = from; i < from + 10; i++, it->Next()) {
      ASSERT_TRUE(it->Valid());
      ASSERT_EQ(Key(i), it->key().ToString());
      ASSERT_TRUE(IsValue(i, BytesOf(shape, i), it->value())) << i;
    }
    ASSERT_OK(it->status());
    it->SeekForPrev(Key(from) + "0");
    ASSERT_TRUE(it->Valid());
    EXPECT_EQ(Key(from), it->key().ToString());
    it->SeekToLast();
    ASSERT_TRUE(it->Valid());
    EXPECT_EQ(Key(n - 1), it->key().ToString());
  }
  ASSERT_OK(db->VerifyChecksum());
  db.reset();
  ASSERT_OK(DestroyDB(dbpath, options));
  unlink(sst.c_str());
}

INSTANTIATE_TEST_CASE_P(Layouts, LargeFileTest, testing::ValuesIn(kShapes),
                        [](const testing::TestParamInfo<Shape>& info) {
                          std::string name = info.param.layout;
                          std::replace(name.begin(), name.end(), '+', '_');
                          return name;
                        });

}  // namespace
}  // namespace ROCKSDB_NAMESPACE
