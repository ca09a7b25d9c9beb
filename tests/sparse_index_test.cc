// Unit tests of the sparse ordered index (sparse_index.h): its exact bytes,
// Seek's answer, and the checks that keep crafted records from sizing,
// misordering or pointing anywhere.
#include <gtest/gtest.h>

#include <string>

#include "table/sparse_index.h"
#include "tests/table_harness.h"
#include "tests/test_util.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {
namespace {

using harness::IKey;

const InternalKeyComparator kIcmp(BytewiseComparator());

TEST(SparseIndexTest, ExactBytes) {
  SparseIndexBuilder b;
  b.Add(IKey("a", 0, kTypeValue), 0);
  b.Add(IKey("b", 7, kTypeValue), 300);
  const std::string got = b.Finish();
  // count 2; key "a" + packed (0 << 8 | 1), delta 0; key "b" + packed
  // (7 << 8 | 1), delta 300 = ac 02.
  const std::string want(
      "\x02"
      "\x09" "a\x01\x00\x00\x00\x00\x00\x00\x00" "\x00"
      "\x09" "b\x01\x07\x00\x00\x00\x00\x00\x00" "\xac\x02",
      1 + 10 + 1 + 10 + 2);
  EXPECT_EQ(Slice(got).ToString(true), Slice(want).ToString(true));

  SparseIndex idx;
  ASSERT_OK(idx.Init(got, 1000, &kIcmp, "f", 0));
  ASSERT_EQ(idx.size(), 2u);
  EXPECT_EQ(idx.address(1), 300u);
  // The last record below the target: an entry >= target lies after it.
  EXPECT_EQ(idx.SeekAddress(IKey("a", kMaxSequenceNumber, kTypeValue)), 0u);
  EXPECT_EQ(idx.SeekAddress(IKey("a", 0, kTypeValue)), 0u);
  EXPECT_EQ(idx.SeekAddress(IKey("ab", 0, kTypeValue)), 0u);
  EXPECT_EQ(idx.SeekAddress(IKey("b", 6, kTypeValue)), 300u);
  EXPECT_EQ(idx.SeekAddress(IKey("z", 0, kTypeValue)), 300u);
}

TEST(SparseIndexTest, RefusesCraftedRecords) {
  auto init = [](const std::string& contents, uint64_t log_bytes) {
    SparseIndex idx;
    return idx.Init(contents, log_bytes, &kIcmp, "f.sst", 321);
  };
  auto refused = [&](const std::string& contents, const char* what) {
    Status s = init(contents, 1000);
    EXPECT_TRUE(s.IsCorruption()) << what;
    EXPECT_NE(s.ToString().find(what), std::string::npos) << s.ToString();
    EXPECT_NE(s.ToString().find("f.sst: sparse index:"), std::string::npos);
    EXPECT_NE(s.ToString().find("at offset 321"), std::string::npos);
  };
  auto one = [](const std::string& key, uint64_t delta) {
    std::string r;
    PutLengthPrefixedSlice(&r, key);
    PutVarint64(&r, delta);
    return r;
  };
  std::string huge;
  PutVarint64(&huge, uint64_t{1} << 62);
  refused(huge, "bad record count");
  // (a byte after it, so the count alone does not give it away)
  refused("\x01" + one("1234567", 0) + "x", "key too short");
  refused("\x01" + one(IKey("a", 0, kTypeValue), 1), "address out of order");
  refused("\x02" + one(IKey("b", 0, kTypeValue), 0) +
              one(IKey("a", 0, kTypeValue), 5),
          "keys out of order");
  refused("\x02" + one(IKey("a", 0, kTypeValue), 0) +
              one(IKey("b", 0, kTypeValue), 1000),
          "address past the log");
  refused("\x01" + one(IKey("a", 0, kTypeValue), 0) + "x", "trailing bytes");
  refused(std::string("\x00", 1), "record count");  // a log, no records
  EXPECT_OK(init(std::string("\x00", 1), 0));       // empty log, no records
}

}  // namespace
}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
