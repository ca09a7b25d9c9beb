// The iterators' status contract (layout_iterator.h), the same for every
// layout: a positioning call starts afresh, so a Seek that meets damage
// reports Corruption, and a later Seek to an intact part of the file
// lands with an OK status; Next and Prev from a valid position keep going.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "tests/corruption_harness.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {
namespace {

using namespace harness;  // NOLINT: the suite is written in its terms

class IteratorStatusTest : public ::testing::TestWithParam<LayoutCase> {};

TEST_P(IteratorStatusTest, SeekStartsAfresh) {
  const LayoutCase c = GetParam();
  TableFile f(std::string("iterator_status_") + c.name);
  Model m;
  const std::string bytes = BuildLayoutCase(&f, c, 11, SmallBlocks(), &m);
  const FileMap l = MapOf(&f);
  // Damage the first unit the entries lie in: log block 0, or the first
  // page of slots or of entries.
  const uint64_t at = c.is_inline || c.paged ? l.meta.index.offset
                                             : l.blocks[0].file_offset;
  f.Write(Flipped(bytes, at + 1));

  for (bool mmap : {false, true}) {
    SCOPED_TRACE(std::string(c.name) + (mmap ? " mmap" : " pread"));
    std::unique_ptr<TableReader> t;
    ASSERT_OK(f.Open(mmap, &t));
    std::unique_ptr<InternalIterator> it(t->NewIterator(
        ReadOptions(), nullptr, nullptr, false,
        TableReaderCaller::kUncategorized));
    int good = 0, bad = 0;
    std::string last_bad, last_good;
    for (const auto& e : m.entries) {
      it->Seek(e.first);
      if (!it->Valid()) {
        ASSERT_TRUE(it->status().IsCorruption()) << it->status().ToString();
        ++bad;
        last_bad = e.first;
        continue;
      }
      // A seek that lands, after one that met the damage, says OK.
      ASSERT_OK(it->status());
      ASSERT_EQ(it->key(), Slice(e.first));
      if (!last_bad.empty()) ++good;
      last_good = e.first;
      // Next and Prev from here: each a valid entry, or an error.
      it->Next();
      if (!it->Valid()) {
        EXPECT_TRUE(it->status().ok() || it->status().IsCorruption());
      }
    }
    // The damage was met, and seeks after it landed.
    EXPECT_GT(bad, 0);
    EXPECT_GT(good, 0);
    // And the other way round: a failed seek after a good one.
    it->Seek(last_bad);
    EXPECT_FALSE(it->Valid());
    EXPECT_TRUE(it->status().IsCorruption());
    it->Seek(last_good);
    ASSERT_TRUE(it->Valid()) << it->status().ToString();
    EXPECT_OK(it->status());
    EXPECT_EQ(it->key(), Slice(last_good));
  }
}

INSTANTIATE_TEST_SUITE_P(Layouts, IteratorStatusTest,
                         ::testing::ValuesIn(AllLayouts()),
                         LayoutCaseName);

}  // namespace
}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
