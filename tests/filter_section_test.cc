// Unit tests of the filter section (filter_section.h): what the builder
// keeps alive, that its bytes do not depend on the host's defaults, the
// alignment padding, and the reader's answers in place and from a copy.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "table/filter_section.h"
#include "tests/test_util.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {
namespace {

std::shared_ptr<const FilterPolicy> Policy(const std::string& value) {
  std::shared_ptr<const FilterPolicy> p;
  EXPECT_OK(ResolveFilterPolicy(value, &p));
  EXPECT_NE(p, nullptr) << value;
  return p;
}

std::string Key(int i) { return "key" + std::to_string(i * 7919); }

std::string Build(const std::string& value, int keys, uint64_t offset) {
  FilterSectionBuilder b(Policy(value));
  for (int i = 0; i < keys; ++i) b.AddKey(Key(i));
  std::string contents;
  EXPECT_OK(b.Finish(offset, &contents));
  return contents;
}

// From RocksDB 9.2 on, Bloom builders point at a rounding balance inside their
// policy; the table builder resolves the policy from a string and keeps no
// copy, so the section builder must. (Found on the 9.11.2 host: the policy
// freed after the table builder's constructor, its balance updated in
// freed memory at Finish, absent answers for keys the files held.)
TEST(FilterSectionTest, BuilderKeepsItsPolicyAlive) {
  for (const char* value : {"bloomfilter:10", "ribbonfilter:10"}) {
    std::shared_ptr<const FilterPolicy> p = Policy(value);
    std::weak_ptr<const FilterPolicy> watch = p;
    FilterSectionBuilder b(std::move(p));
    EXPECT_FALSE(watch.expired()) << value;
    b.AddKey("a");
    std::string contents;
    ASSERT_OK(b.Finish(0, &contents));
    EXPECT_FALSE(watch.expired()) << value;
  }
}

// The same keys make the same filter whatever the host's
// BlockBasedTableOptions defaults (optimize_filters_for_memory is on from
// 9.2, and would size the filter by malloc_usable_size): fixed sizes.
TEST(FilterSectionTest, SizeFollowsTheKeysOnly) {
  // FastLocalBloom at 10 bits a key: 10000 keys, 12500 bytes rounded up to
  // whole 64-byte lines, and 5 bytes of metadata.
  const std::string s = Build("bloomfilter:10", 10000, 0);
  const uint32_t name_len = DecodeFixed32(s.data() + s.size() - 4);
  EXPECT_EQ(s.size() - name_len - kFilterSectionTail, 12544u + 5);
  EXPECT_EQ(Build("bloomfilter:10", 10000, 0), s);
  EXPECT_EQ(Build("ribbonfilter:10", 10000, 0),
            Build("ribbonfilter:10", 10000, 0));
}

TEST(FilterSectionTest, PaddingAlignsTheFilterAndReadsBack) {
  for (uint64_t offset : {0, 1, 63, 64, 1000}) {
    SCOPED_TRACE(offset);
    const std::string s = Build("bloomfilter:10", 500, offset);
    const uint32_t pad = DecodeFixed32(s.data() + s.size() - 8);
    EXPECT_EQ((offset + pad) % kFilterAlignment, 0u);
    for (bool in_place : {false, true}) {
      FilterSection f;
      ASSERT_OK(f.Init(s, offset, in_place, "t.sst"));
      ASSERT_TRUE(f.usable());
      int passed = 0;
      for (int i = 0; i < 500; ++i) ASSERT_TRUE(f.KeyMayMatch(Key(i))) << i;
      for (int i = 500; i < 10500; ++i) passed += f.KeyMayMatch(Key(i));
      EXPECT_LT(passed, 300);  // about 1% at 10 bits a key
    }
  }
}

}  // namespace
}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
