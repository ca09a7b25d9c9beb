// Unit tests of a paged file's page index (page_index.h): its exact bytes
// (docs/format.md's worked example), Find and SeekPage against the keys of
// every page, and the checks that keep a crafted section from misleading
// the search.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "table/page_index.h"
#include "tests/test_util.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {
namespace {

using Pages = std::vector<std::vector<std::string>>;

std::string Build(const Pages& pages) {
  PageIndexBuilder b;
  std::string prev_last;
  for (const auto& page : pages) {
    b.AddPage(prev_last, page.front());
    prev_last = page.back();
  }
  return b.Finish(prev_last);
}

Status Open(const std::string& contents, uint64_t pages, PageIndex* index) {
  std::string buf = contents;
  const Slice in(buf);
  return index->Init(std::move(buf), in, pages, "f", 100);
}

TEST(PageIndexTest, WorkedExample) {
  // docs/format.md, "Page index".
  const Pages pages = {{"app", "apple"}, {"apricot", "b"}, {"banana"}};
  const std::string got = Build(pages);
  std::string want;
  want += "\x03";                   // 3 pages
  want += std::string("\x00", 1);   // no common prefix ("app" and "banana")
  want += "\x06" "banana";          // the last key
  // Separators "app", "apr" (one byte past "apple"), "ba" (past "b"), as
  // big-endian numbers of 4 bytes, zero padded.
  PutFixed32(&want, 0x61707000u);
  PutFixed32(&want, 0x61707200u);
  PutFixed32(&want, 0x62610000u);
  PutFixed32(&want, 3);
  PutFixed32(&want, 6);
  PutFixed32(&want, 8);
  want += "appaprba";
  EXPECT_EQ(Slice(got).ToString(true), Slice(want).ToString(true));

  PageIndex index;
  ASSERT_OK(Open(got, 3, &index));
  uint64_t page = 99;
  for (const auto& c : std::vector<std::pair<const char*, int>>{
           {"a", -1}, {"apo", -1}, {"app", 0}, {"apple", 0}, {"apq", 0},
           {"apr", 1}, {"apricot", 1}, {"b", 1}, {"b\x01", 1}, {"ba", 2},
           {"b\xff", -1},
           {"banana", 2}, {"bananas", -1}, {"c", -1}}) {
    SCOPED_TRACE(c.first);
    EXPECT_EQ(index.Find(c.first, &page), c.second >= 0);
    if (c.second >= 0) {
      EXPECT_EQ(page, static_cast<uint64_t>(c.second));
    }
  }
  EXPECT_EQ(index.SeekPage(""), 0u);
  EXPECT_EQ(index.SeekPage("a"), 0u);
  EXPECT_EQ(index.SeekPage("apq"), 0u);
  EXPECT_EQ(index.SeekPage("bananas"), 3u);
}

TEST(PageIndexTest, CommonPrefix) {
  const Pages pages = {{"user:0001", "user:0002"},
                       {"user:0100", "user:0150"},
                       {"user:0151", "user:0999"}};
  const std::string got = Build(pages);
  Slice in(got);
  uint32_t count = 0;
  Slice common;
  ASSERT_TRUE(GetVarint32(&in, &count));
  ASSERT_TRUE(GetLengthPrefixedSlice(&in, &common));
  EXPECT_EQ(common, "user:0");
  PageIndex index;
  ASSERT_OK(Open(got, 3, &index));
  uint64_t page = 0;
  EXPECT_FALSE(index.Find("apple", &page));
  EXPECT_FALSE(index.Find("user:", &page));
  EXPECT_FALSE(index.Find("zebra", &page));
  ASSERT_TRUE(index.Find("user:0150", &page));
  EXPECT_EQ(page, 1u);
  ASSERT_TRUE(index.Find("user:0151", &page));
  EXPECT_EQ(page, 2u);
  EXPECT_EQ(index.SeekPage("apple"), 0u);
  EXPECT_EQ(index.SeekPage("user:"), 0u);
  EXPECT_EQ(index.SeekPage("user:1"), 3u);
  EXPECT_EQ(index.SeekPage("zebra"), 3u);
}

// Random keys in random pages, alike in long prefixes (so that the 4-byte
// prefixes tie and whole separators decide), spread, or numbers in a
// slice of the key space that no power of two lines up with (as a file of
// a range-partitioned level holds; its pages fill the buckets one or two
// apiece): every key is found in its page, and every probe gets the page
// Seek needs.
// What Find must say of `key`, worked out from the separators themselves:
// the last page whose separator is not greater than the key, and where the
// key's 4 bytes past the file's common ones lie between that separator's
// and the next one's (past the last page, the last key's plus one).
struct Want {
  bool found = false;
  uint64_t page = 0;
  uint32_t share = 0;
};

Want WantOf(const PageIndex& index, const std::string& first,
            const std::string& last, const std::string& key) {
  Want w;
  size_t c = 0;
  while (c < first.size() && c < last.size() && first[c] == last[c]) ++c;
  if (key < index.Separator(0) || key > last) return w;
  uint64_t lo = 0, hi = index.pages();
  while (hi - lo > 1) {
    const uint64_t mid = lo + (hi - lo) / 2;
    (index.Separator(mid) <= key ? lo : hi) = mid;
  }
  w.found = true;
  w.page = lo;
  auto number = [&](const std::string& s) {
    return KeyPrefix(Slice(s).size() > c ? Slice(s.data() + c, s.size() - c)
                                         : Slice()) >> 32;
  };
  const uint64_t from = number(index.Separator(lo));
  const uint64_t to = lo + 1 < index.pages() ? number(index.Separator(lo + 1))
                                             : number(last) + 1;
  const uint64_t at = number(key);
  w.share = to > from && at > from
                ? static_cast<uint32_t>(
                      std::min<uint64_t>(((at - from) << 16) / (to - from),
                                         65535))
                : 0;
  return w;
}

TEST(PageIndexTest, FindsEveryKeysPage) {
  std::mt19937_64 rng(42);
  for (int round = 0; round < 80; ++round) {
    SCOPED_TRACE(round);
    std::set<std::string> keys;
    // 0: random, 1: long shared stems, 2: tiny, 3: numbers in a slice
    const int alike = round % 4;
    // Tiny keys (up to 2 bytes of 4 values) number 21.
    const size_t n = 1 + rng() % (alike == 2 ? 21 : 3000);
    while (keys.size() < n) {
      std::string k;
      // Two stems that differ in their first byte: no common prefix, and
      // every key of a stem ties with the others in its first 4 bytes.
      if (alike == 1) k = (rng() % 2 ? "A" : "B") + std::string(20, 'x');
      if (alike == 3) {
        // 0x1ae59de6.. to 0x2860efca..; some keys share their first 4
        // bytes with others and a separator.
        const uint64_t lo = 0x1ae59de600000000ull;
        const uint64_t span = 0x0d7b51e400000000ull;
        const uint64_t v = lo + (rng() % 4 == 0 ? rng() % 64 : rng() % span);
        for (int i = 7; i >= 0; --i) k.push_back(static_cast<char>(v >> (8 * i)));
        if (rng() % 2) k.push_back(static_cast<char>(rng() & 0xff));
        keys.insert(k);
        continue;
      }
      const size_t len = alike == 2 ? rng() % 3 : rng() % 12;
      for (size_t i = 0; i < len; ++i) {
        k.push_back(static_cast<char>(alike == 2 ? rng() % 4 : rng() & 0xff));
      }
      keys.insert(k);
    }
    const std::vector<std::string> sorted(keys.begin(), keys.end());
    Pages pages;
    std::vector<uint64_t> page_of;
    for (size_t i = 0; i < sorted.size(); ++i) {
      if (pages.empty() || rng() % (alike == 3 ? 2 : 7) == 0) {
        pages.emplace_back();
      }
      pages.back().push_back(sorted[i]);
      page_of.push_back(pages.size() - 1);
    }
    PageIndex index;
    ASSERT_OK(Open(Build(pages), pages.size(), &index));
    for (size_t i = 0; i < sorted.size(); ++i) {
      uint64_t page = 0;
      uint32_t share = 0;
      ASSERT_TRUE(index.Find(sorted[i], &page)) << i;
      ASSERT_EQ(page, page_of[i]) << i;
      ASSERT_TRUE(index.Find(sorted[i], &page, &share)) << i;
      ASSERT_EQ(page, page_of[i]) << i;
      ASSERT_EQ(share, WantOf(index, sorted.front(), sorted.back(), sorted[i]).share)
          << i;
    }
    for (int probe = 0; probe < 2000; ++probe) {
      std::string k = sorted[rng() % sorted.size()];
      if (rng() % 2 && !k.empty()) k.pop_back();
      k.push_back(static_cast<char>(rng() & 0xff));
      // Absent keys too: the page a key would lie in, and its share.
      const Want at = WantOf(index, sorted.front(), sorted.back(), k);
      uint64_t found_page = 0;
      uint32_t share = 0;
      ASSERT_EQ(index.Find(k, &found_page, &share), at.found) << probe;
      if (at.found) {
        ASSERT_EQ(found_page, at.page) << probe;
        ASSERT_EQ(share, at.share) << probe;
      }
      // Seek reads the page, then the next: the first key >= k must be
      // in it or begin the next, and no earlier page may hold one.
      const uint64_t p = index.SeekPage(k);
      const auto lb = std::lower_bound(sorted.begin(), sorted.end(), k);
      if (lb == sorted.end()) {
        ASSERT_TRUE(p == pages.size() || p + 1 == pages.size()) << p;
        continue;
      }
      const uint64_t want = page_of[lb - sorted.begin()];
      ASSERT_TRUE(p == want || (p + 1 == want &&
                                pages[want].front() == *lb)) << p << " " << want;
    }
  }
}

// A key's share of its page's range (past the common bytes, between its
// separator and the next, or the last key) stands for its place among the
// page's keys, so a lookup can guess where in the page its entry lies.
TEST(PageIndexTest, ShareFollowsTheKeysPlaceInItsPage) {
  std::mt19937_64 rng(11);
  for (const std::string stem : {"", "user:"}) {
    SCOPED_TRACE("stem '" + stem + "'");
    std::set<std::string> keys;
    while (keys.size() < 30000) {
      std::string k = stem;
      for (int i = 0; i < 8; ++i) k.push_back(static_cast<char>(rng()));
      keys.insert(k);
    }
    const std::vector<std::string> sorted(keys.begin(), keys.end());
    Pages pages;
    for (size_t i = 0; i < sorted.size(); ++i) {
      if (i % 30 == 0) pages.emplace_back();
      pages.back().push_back(sorted[i]);
    }
    PageIndex index;
    ASSERT_OK(Open(Build(pages), pages.size(), &index));
    double error = 0;
    for (size_t i = 0; i < sorted.size(); ++i) {
      uint64_t page = 0;
      uint32_t share = 0;
      ASSERT_TRUE(index.Find(sorted[i], &page, &share)) << i;
      ASSERT_EQ(page, i / 30) << i;
      ASSERT_LT(share, 65536u);
      const size_t in_page = pages[page].size();
      error += std::abs(share / 65536.0 - ((i % 30) + 0.5) / in_page);
    }
    // About 0.05 for 30 evenly spread keys a page; 0.25 for a share that
    // knew nothing but the page.
    EXPECT_LT(error / sorted.size(), 0.08);
  }
}

TEST(PageIndexTest, RefusesMisleadingSections) {
  const Pages pages = {{"app", "apple"}, {"apricot", "b"}, {"banana"}};
  const std::string good = Build(pages);
  PageIndex index;
  auto refused = [&](const std::string& bytes, uint64_t count,
                     const std::string& why) {
    Status s = Open(bytes, count, &index);
    EXPECT_TRUE(s.IsCorruption()) << why;
    EXPECT_NE(s.ToString().find(why), std::string::npos) << s.ToString();
    EXPECT_NE(s.ToString().find("page index"), std::string::npos);
    EXPECT_NE(s.ToString().find("at offset 100"), std::string::npos);
  };
  refused(good, 4, "page count differs");
  refused(good.substr(0, 5), 3, "truncated");
  refused(good.substr(0, good.size() - 20), 3, "truncated");
  refused(good + "x", 3, "trailing bytes");
  const size_t prefixes = 1 + 1 + 7;
  const size_t ends = prefixes + 12;
  {
    std::string bad = good;
    EncodeFixed32(&bad[ends + 4], 9);  // past the 8 separator bytes
    refused(bad, 3, "separator out of range");
    EncodeFixed32(&bad[ends + 4], 2);  // before the previous end
    refused(bad, 3, "separator out of range");
  }
  {
    std::string bad = good;
    bad[prefixes + 4 + 1] = 1;  // separator 1's prefix, not its bytes
    refused(bad, 3, "prefix of a separator");
  }
  {
    std::string bad = good;
    bad[ends + 12 + 5] = 'a';  // separator 1 becomes "apa" < "app"
    bad[prefixes + 4 + 1] = 'a';  // and its prefix with it (little-endian)
    refused(bad, 3, "separators out of order");
  }
  {
    // The last key before the last page's separator.
    refused(Build({{"a"}, {"c"}}).replace(3, 1, "b"), 2,
            "last key before the last page");
  }
  refused(std::string("\x00\x00\x00", 3), 0, "page count differs");
}

}  // namespace
}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
