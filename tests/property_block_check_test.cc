// Unit tests of the properties-block check (property_block_check.h), on
// blocks written byte by byte: RocksDB's parser asserts on several of
// these shapes, so each must be refused before it gets there.
#include <gtest/gtest.h>

#include <string>

#include "table/property_block_check.h"
#include "tests/test_util.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {
namespace {

// An entry as RocksDB's block builder writes it.
void Entry(std::string* b, uint32_t shared, const std::string& key_delta,
           const std::string& value) {
  PutVarint32(b, shared);
  PutVarint32(b, static_cast<uint32_t>(key_delta.size()));
  PutVarint32(b, static_cast<uint32_t>(value.size()));
  b->append(key_delta);
  b->append(value);
}

// Entries "a"->"1", "b"->"22" (restart), "bc"->"3" (shares 1 with "b").
std::string Good(uint32_t footer_flags = 0) {
  std::string b;
  Entry(&b, 0, "a", "1");   // offset 0
  Entry(&b, 0, "b", "22");  // offset 5
  Entry(&b, 1, "c", "3");   // offset 11
  PutFixed32(&b, 0);
  PutFixed32(&b, 5);
  PutFixed32(&b, 2 | footer_flags);
  return b;
}

TEST(PropertyBlockCheckTest, WellFormed) {
  EXPECT_EQ(Good().size(), 16u + 12u);
  EXPECT_OK(CheckPropertyBlock(Good()));
}

TEST(PropertyBlockCheckTest, RefusesMalformed) {
  auto refused = [](const std::string& block, const char* what) {
    Status s = CheckPropertyBlock(block);
    EXPECT_TRUE(s.IsCorruption()) << what;
    EXPECT_NE(s.ToString().find(what), std::string::npos) << s.ToString();
  };
  refused(Good(0x80000000u), "hash index flag");
  refused(std::string("\0\0\0", 3), "block too short");
  std::string many = Good();
  EncodeFixed32(&many[many.size() - 4], 100);
  refused(many, "bad restart count");
  std::string zero = Good();
  EncodeFixed32(&zero[zero.size() - 4], 0);
  refused(zero, "bad restart count");

  // A restart point inside an entry, and one past the entries.
  std::string inside = Good();
  EncodeFixed32(&inside[inside.size() - 8], 6);
  refused(inside, "restart point");
  std::string past = Good();
  EncodeFixed32(&past[past.size() - 8], 40);
  refused(past, "restart point past the entries");

  // Shares more than the key before it has; shares at a restart point.
  std::string b;
  Entry(&b, 0, "a", "1");
  Entry(&b, 2, "x", "2");
  PutFixed32(&b, 0);
  PutFixed32(&b, 1);
  refused(b, "shares more");
  b.clear();
  Entry(&b, 1, "a", "1");
  PutFixed32(&b, 0);
  PutFixed32(&b, 1);
  refused(b, "shares more");

  // Value running past the restart array; keys out of order.
  b.clear();
  Entry(&b, 0, "a", "1");
  b[2] = 9;  // value length 9
  PutFixed32(&b, 0);
  PutFixed32(&b, 1);
  refused(b, "entry past the block");
  b.clear();
  Entry(&b, 0, "b", "1");
  Entry(&b, 0, "a", "1");
  PutFixed32(&b, 0);
  PutFixed32(&b, 1);
  refused(b, "keys out of order");
}

}  // namespace
}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
