// The format's CRC32C (table/checksum.h) against the published check value
// and against RocksDB's own implementation, at every length and alignment
// the word loop and the byte tail can meet.
#include "table/checksum.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "util/crc32c.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {
namespace {

TEST(ChecksumTest, KnownAnswer) {
  // The CRC-32C check value (RFC 3720, B.4: "123456789").
  EXPECT_EQ(Crc32c("123456789", 9), 0xe3069283u);
  EXPECT_EQ(Crc32c("", 0), 0u);
}

TEST(ChecksumTest, SameAsRocksDbAtEveryLengthAndAlignment) {
  std::mt19937 rng(3);
  std::string data(4096 + 64, '\0');
  for (char& c : data) c = static_cast<char>(rng());
  for (size_t align = 0; align < 8; ++align) {
    for (size_t n = 0; n < 80; ++n) {
      ASSERT_EQ(Crc32c(data.data() + align, n),
                crc32c::Value(data.data() + align, n))
          << "align " << align << " length " << n;
    }
  }
  EXPECT_EQ(Crc32c(data.data() + 3, 4096), crc32c::Value(data.data() + 3, 4096));
}

TEST(ChecksumTest, ExtendEqualsWhole) {
  const std::string s = "RobinHoodTable: an append log and a hash index";
  for (size_t cut = 0; cut <= s.size(); ++cut) {
    EXPECT_EQ(Crc32cExtend(Crc32c(s.data(), cut), s.data() + cut,
                           s.size() - cut),
              Crc32c(s.data(), s.size()));
  }
}

}  // namespace
}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
