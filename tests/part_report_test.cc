// What a corruption report names: a byte flipped in each part of a file of
// each layout (log; inline in hash order; inline in key order; paged) must be
// reported, by open or else by VerifyChecksum (what `rh_inspect verify`
// prints), as Corruption naming that part as this layout calls it, at an
// offset inside that part. A report that names another layout's part, or
// points elsewhere, sends whoever reads it to the wrong bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "tests/corruption_harness.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {
namespace {

using namespace harness;  // NOLINT: the suite is written in its terms

// A part of an intact file: the name reports must give it, and its bytes
// [begin, end).
struct Part {
  std::string name;
  uint64_t begin;
  uint64_t end;
};

std::vector<Part> PartsOf(const FileMap& l) {
  std::vector<Part> parts;
  for (const BlockLocation& b : l.blocks) {
    parts.push_back(
        {"log block", b.file_offset, b.file_offset + b.contents_bytes + kTrailerSize});
  }
  for (const NamedSection& s : l.meta.NamedSections()) {
    parts.push_back({s.name, s.handle->offset, s.handle->end_with_trailer()});
  }
  parts.push_back({"meta block", l.meta_offset, l.footer_offset});
  parts.push_back({"footer", l.footer_offset, l.file_size});
  // In file order (a log tail's blocks follow the pages).
  std::sort(parts.begin(), parts.end(),
            [](const Part& a, const Part& b) { return a.begin < b.begin; });
  return parts;
}

// The names a user reads in reports of each layout's parts, spelled out
// here rather than taken from the code under test.
std::set<std::string> ExpectedNames(const LayoutCase& c) {
  std::set<std::string> names = {"sparse index", "range deletions", "filter",
                                 "properties",   "metaindex",       "meta block",
                                 "footer"};
  if (c.is_inline) {
    names.insert({"inline slots", "inline directory"});
  } else if (c.paged) {
    names.insert({"pages", "page index"});
    if (c.log_tail_from >= 0) {
      names.insert({"log block", "hash index", "block table"});
    }
  } else {
    names.insert({"log block", "hash index", "block table"});
  }
  return names;
}

class PartReportTest : public ::testing::TestWithParam<LayoutCase> {};

// The first byte, the middle one and the last (a trailer byte, for a
// checksummed section) of each part, each flipped alone.
TEST_P(PartReportTest, NamesThePartAndAnOffsetInIt) {
  const LayoutCase c = GetParam();
  TableFile f(std::string("part_report_") + c.name);
  RobinHoodTableOptions opts = SmallBlocks();
  opts.filter_policy = "bloomfilter:10";
  Model m;
  const std::string bytes = BuildLayoutCase(&f, c, 7, opts, &m);
  const FileMap l = MapOf(&f);
  if (c.paged) {
    ASSERT_GE(l.meta.index_slots, 2u);  // pages
  } else if (!c.is_inline) {
    ASSERT_GT(l.blocks.size(), 2u);
  }

  if (c.paged) {
    // 300 entries of 70 to 170 bytes fill 8 KiB pages best (version 7);
    // 120 of them, 4 KiB pages (version 6), as the first 256 KiB of more
    // do, with the last page not counted whole.
    ASSERT_EQ(l.meta.page_bytes(),
              c.keys == 120 || c.log_tail_from >= 0 ? 4096u : 8192u);
  }

  const std::vector<Part> parts = PartsOf(l);
  std::set<std::string> names;
  for (const Part& p : parts) names.insert(p.name);
  EXPECT_EQ(names, ExpectedNames(c));
  // The parts tile the file.
  uint64_t pos = 0;
  for (const Part& p : parts) {
    EXPECT_EQ(p.begin, pos) << p.name;
    pos = p.end;
  }
  EXPECT_EQ(pos, l.file_size);

  int checked = 0;
  for (const Part& p : parts) {
    for (uint64_t off : {p.begin, p.begin + (p.end - p.begin) / 2, p.end - 1}) {
      SCOPED_TRACE(std::string(c.name) + ": " + p.name + " [" +
                   std::to_string(p.begin) + ", " + std::to_string(p.end) +
                   "), byte " + std::to_string(off) + " flipped");
      f.Write(Flipped(bytes, off));
      for (bool mmap : {false, true}) {
        std::unique_ptr<TableReader> t;
        Status s = f.Open(mmap, &t);
        if (s.ok()) {
          s = t->VerifyChecksum(ReadOptions(),
                                TableReaderCaller::kUncategorized);
        }
        ASSERT_TRUE(s.IsCorruption()) << s.ToString();
        const CorruptionRecord* r = CorruptionFields(s);
        ASSERT_NE(r, nullptr) << s.ToString();
        EXPECT_EQ(r->part, p.name) << s.ToString();
        EXPECT_GE(r->offset, p.begin) << s.ToString();
        EXPECT_LT(r->offset, p.end) << s.ToString();
        EXPECT_TRUE(Contains(s.ToString(), f.path())) << s.ToString();
        ++checked;
      }
    }
  }
  // Every part of the layout was reached: log blocks, slots or pages,
  // their directory or index, sparse index, range deletions, filter, properties,
  // metaindex, meta block, footer.
  EXPECT_EQ(checked, static_cast<int>(parts.size()) * 3 * 2);
}

INSTANTIATE_TEST_SUITE_P(Layouts, PartReportTest,
                         ::testing::ValuesIn(AllLayouts()),
                         LayoutCaseName);
// Pages of 4 KiB (format version 6).
INSTANTIATE_TEST_SUITE_P(SmallPages, PartReportTest,
                         ::testing::Values(LayoutCase{"paged_4k", false, false,
                                                      true, 120}),
                         LayoutCaseName);

// The checked-in key-ordered file, its slots' trailer damaged: the report
// names the slots, not the other layout's hash index.
TEST(PartReportGolden, KeyOrderedSlotsTrailer) {
  std::string bytes;
  ASSERT_OK(ReadFileToString(Env::Default(),
                             std::string(RH_SOURCE_DIR) +
                                 "/tests/golden/v4_inline_keyorder.sst",
                             &bytes));
  TableFile f("part_report_golden");
  f.Write(bytes);
  const FileMap l = MapOf(&f);
  ASSERT_TRUE(l.meta.is_inline());
  const uint64_t off = 3762;
  ASSERT_GE(off, l.meta.index.offset);
  ASSERT_LT(off, l.meta.index.end_with_trailer());
  f.Write(Flipped(bytes, off));
  std::unique_ptr<TableReader> t;
  ASSERT_OK(f.Open(false, &t));
  const Status s =
      t->VerifyChecksum(ReadOptions(), TableReaderCaller::kUncategorized);
  ASSERT_TRUE(s.IsCorruption()) << s.ToString();
  const CorruptionRecord* r = CorruptionFields(s);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->part, "inline slots") << s.ToString();
  EXPECT_LT(r->offset, l.meta.index.end_with_trailer());
}

}  // namespace
}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
