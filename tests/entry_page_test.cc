// Unit tests of a paged file's page (entry_page.h): its exact bytes, the
// lookup by tag, LowerBound, and the checks that keep a page whose
// checksum was recomputed over damage from reading outside itself.
#include <gtest/gtest.h>

#include <string>

#include "table/entry_page.h"
#include "table/hash_index.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {
namespace {

constexpr uint64_t kSeed = 7;
constexpr uint32_t kPage = kEntryPageMinBytes;

std::string PageOf(const std::vector<std::pair<std::string, std::string>>& kv,
                   uint32_t page_bytes = kPage) {
  EntryPageBuilder b(page_bytes);
  for (const auto& e : kv) {
    EXPECT_TRUE(b.Fits(EntryPageEntryBytes(e.first, e.second)));
    b.Add(e.first, e.second, EntryPageTag(KeyHash(e.first, kSeed)));
  }
  std::string page;
  b.Finish(&page);
  return page;
}

// Rewrites the CRC after a change, as a hostile file would.
void Reseal(std::string* page) {
  EncodeFixed32(&(*page)[kPage - 4],
                crc32c::Mask(crc32c::Value(page->data(), kPage - 4)));
}

TEST(EntryPageTest, ExactBytes) {
  const std::string page = PageOf({{"ab", "xyz"}, {"b", ""}});
  ASSERT_EQ(page.size(), kPage);
  // Entries from 0: 02 03 "ab" "xyz", then 01 00 "b".
  EXPECT_EQ(Slice(page.data(), 10).ToString(true),
            Slice("\x02\x03" "abxyz" "\x01\x00" "b", 10).ToString(true));
  // Zeros up to the tail of 2 x 3 + 6 bytes.
  for (size_t i = 10; i < kPage - 12; ++i) {
    ASSERT_EQ(page[i], 0) << i;
  }
  const char* tail = page.data() + kPage - 12;
  EXPECT_EQ(DecodeFixed16(tail), 0u);      // offset of entry 0
  EXPECT_EQ(DecodeFixed16(tail + 2), 7u);  // offset of entry 1
  EXPECT_EQ(static_cast<uint8_t>(tail[4]),
            EntryPageTag(KeyHash("ab", kSeed)));
  EXPECT_EQ(static_cast<uint8_t>(tail[5]), EntryPageTag(KeyHash("b", kSeed)));
  EXPECT_EQ(DecodeFixed16(tail + 6), 2u);  // n
  EXPECT_TRUE(EntryPage::CrcMatches(page.data(), kPage));

  EntryPage p;
  ASSERT_TRUE(p.Parse(page.data(), kPage));
  ASSERT_EQ(p.size(), 2u);
  Slice k, v;
  ASSERT_TRUE(p.Entry(0, &k, &v));
  EXPECT_EQ(k, "ab");
  EXPECT_EQ(v, "xyz");
  ASSERT_TRUE(p.Entry(1, &k, &v));
  EXPECT_EQ(k, "b");
  EXPECT_EQ(v, "");
  const char* why = nullptr;
  EXPECT_TRUE(p.CheckAll(&KeyHash, kSeed, &why)) << why;
}

TEST(EntryPageTest, FillsToTheLastByte) {
  // The longest entry a page holds alone, and not a byte more.
  const std::string key = "k";
  std::string value(kEntryPageMaxEntryBytes - 1 - 2 - 1, 'v');
  ASSERT_EQ(EntryPageEntryBytes(key, value), kEntryPageMaxEntryBytes);
  EntryPageBuilder b;
  EXPECT_TRUE(b.Fits(kEntryPageMaxEntryBytes));
  EXPECT_FALSE(b.Fits(kEntryPageMaxEntryBytes + 1));
  const std::string page = PageOf({{key, value}});
  EntryPage p;
  ASSERT_TRUE(p.Parse(page.data(), kPage));
  Slice k, v;
  ASSERT_TRUE(p.Entry(0, &k, &v));
  EXPECT_EQ(v.size(), value.size());
  const char* why = nullptr;
  EXPECT_TRUE(p.CheckAll(&KeyHash, kSeed, &why)) << why;

  // The most entries: empty keys cannot repeat, but the count's bound is
  // what the smallest entries and their tails allow.
  EXPECT_EQ(EntryPageMaxEntries(kPage), (kPage - 6) / 5);
}

TEST(EntryPageTest, LargerPages) {
  // Every size the format allows, the largest one's offsets and count
  // filling their 16 bits as far as a page can.
  for (uint32_t bytes = kEntryPageMinBytes; bytes <= kEntryPageMaxBytes;
       bytes *= 2) {
    ASSERT_TRUE(IsEntryPageSize(bytes));
    std::vector<std::pair<std::string, std::string>> kv;
    EntryPageBuilder b(bytes);
    const std::string value(1000, 'v');
    for (int i = 0; b.Fits(EntryPageEntryBytes("key00000", value)); ++i) {
      char key[16];
      snprintf(key, sizeof(key), "key%05d", i);
      kv.emplace_back(key, value);
      b.Add(key, value, 0);
    }
    const std::string page = PageOf(kv, bytes);
    ASSERT_EQ(page.size(), bytes);
    EXPECT_TRUE(EntryPage::CrcMatches(page.data(), bytes));
    if (bytes > kPage) {
      EXPECT_FALSE(EntryPage::CrcMatches(page.data(), bytes / 2));
    }
    EntryPage p;
    ASSERT_TRUE(p.Parse(page.data(), bytes));
    EXPECT_EQ(p.size(), kv.size());
    Slice k, v;
    ASSERT_TRUE(p.Entry(p.size() - 1, &k, &v));
    EXPECT_EQ(k, kv.back().first);
    // Full to within one more entry and its tail bytes.
    const size_t used = static_cast<size_t>(v.data() + v.size() - page.data());
    EXPECT_LT(p.tail_offset() - used, 1011u + 3u);
    const char* why = nullptr;
    EXPECT_TRUE(p.CheckAll(&KeyHash, kSeed, &why)) << why;
  }
  for (uint64_t bad : {0ull, 2048ull, 4095ull, 6144ull, 131072ull}) {
    EXPECT_FALSE(IsEntryPageSize(bad)) << bad;
  }
  // A count that fits a larger page's tail but not a 4 KiB page's.
  std::string big = PageOf({{"a", "1"}}, 65536);
  EncodeFixed16(&big[65536 - 6], EntryPageMaxEntries(65536));
  EncodeFixed32(&big[65536 - 4],
                crc32c::Mask(crc32c::Value(big.data(), 65536 - 4)));
  EntryPage p;
  EXPECT_TRUE(p.Parse(big.data(), 65536));
  EncodeFixed16(&big[65536 - 6], EntryPageMaxEntries(65536) + 1);
  EXPECT_FALSE(p.Parse(big.data(), 65536));
}

TEST(EntryPageTest, LowerBound) {
  const std::string page = PageOf({{"b", "1"}, {"d", "2"}, {"f", "3"}});
  EntryPage p;
  ASSERT_TRUE(p.Parse(page.data(), kPage));
  uint32_t at = 99;
  for (const auto& c : std::vector<std::pair<const char*, uint32_t>>{
           {"", 0}, {"b", 0}, {"c", 1}, {"d", 1}, {"e", 2}, {"f", 2},
           {"g", 3}}) {
    ASSERT_TRUE(p.LowerBound(c.first, &at));
    EXPECT_EQ(at, c.second) << c.first;
  }
}

TEST(EntryPageTest, RefusesWhatWouldReadOutside) {
  const std::string good = PageOf({{"ab", "xyz"}, {"b", "q"}});
  EntryPage p;
  const char* why = nullptr;
  // n of 0, and an n whose tail would not fit the page.
  for (uint16_t n : {uint16_t{0}, uint16_t{EntryPageMaxEntries(kPage) + 1},
                     uint16_t{0xffff}}) {
    std::string bad = good;
    EncodeFixed16(&bad[kPage - 6], n);
    Reseal(&bad);
    EXPECT_FALSE(p.Parse(bad.data(), kPage)) << n;
  }
  // An entry's offset inside the tail or past it.
  {
    std::string bad = good;
    const size_t offsets = kPage - 12;
    EncodeFixed16(&bad[offsets + 2], 0xfff0);
    Reseal(&bad);
    ASSERT_TRUE(p.Parse(bad.data(), kPage));
    Slice k, v;
    EXPECT_FALSE(p.Entry(1, &k, &v));
    EXPECT_FALSE(p.CheckAll(&KeyHash, kSeed, &why));
    EXPECT_STREQ(why, "entry offsets out of order");
  }
  // A value length that runs into the tail.
  {
    std::string bad = good;
    bad[1] = static_cast<char>(0x7f);
    Reseal(&bad);
    ASSERT_TRUE(p.Parse(bad.data(), kPage));
    Slice k, v;
    ASSERT_TRUE(p.Entry(0, &k, &v));  // 127 bytes still lie before the tail
    EXPECT_FALSE(p.CheckAll(&KeyHash, kSeed, &why));
    bad[1] = static_cast<char>(0xff);  // a varint running on
    bad[2] = static_cast<char>(0xff);
    bad[3] = static_cast<char>(0x7f);
    Reseal(&bad);
    ASSERT_TRUE(p.Parse(bad.data(), kPage));
    EXPECT_FALSE(p.Entry(0, &k, &v));
  }
  // Keys out of order, a tag that is not the key's, bytes after the
  // entries.
  {
    // The builder takes keys in the order given.
    std::string bad = PageOf({{"c", "1"}, {"b", "2"}});
    ASSERT_TRUE(p.Parse(bad.data(), kPage));
    EXPECT_FALSE(p.CheckAll(&KeyHash, kSeed, &why));
    EXPECT_STREQ(why, "keys out of order");
  }
  {
    std::string bad = good;
    bad[kPage - 8] ^= 1;  // tag of entry 0
    Reseal(&bad);
    ASSERT_TRUE(p.Parse(bad.data(), kPage));
    EXPECT_FALSE(p.CheckAll(&KeyHash, kSeed, &why));
    EXPECT_STREQ(why, "tag does not match its key");
  }
  {
    std::string bad = good;
    bad[100] = 1;
    Reseal(&bad);
    ASSERT_TRUE(p.Parse(bad.data(), kPage));
    EXPECT_FALSE(p.CheckAll(&KeyHash, kSeed, &why));
    EXPECT_STREQ(why, "bytes after the entries");
    EXPECT_FALSE(EntryPage::CrcMatches(std::string(good).replace(100, 1, "x").data(), kPage));
  }
}

}  // namespace
}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
