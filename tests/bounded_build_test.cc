// A builder with build_memory_limit: for each layout, a file whose
// entries outgrow half the limit (so that they spill) is the same, section
// by section, as the file built without a bound; the bounded builder's
// peak stays under the limit where the unbounded one's does not; its
// temporary files are gone after Finish and after Abandon; a spill
// directory that cannot be written fails the build with an error.
#include <algorithm>
#include <functional>
#include <random>
#include <string>

#include "gtest/gtest.h"
#include "rocksdb/sst_file_reader.h"
#include "tests/table_harness.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {
namespace {

using harness::Entries;
using harness::IKey;
using harness::TableFile;

constexpr uint64_t kLimit = RobinHoodTableOptions::kMinBuildMemoryLimit;

std::string BigEndian(uint64_t x) {
  std::string s(8, '\0');
  for (int b = 0; b < 8; ++b) s[b] = static_cast<char>(x >> (56 - 8 * b));
  return s;
}

// `n` compacted puts, keys sorted: consecutive numbers (key order fits
// them) or random ones, values of `value_bytes`.
Entries Puts(int n, bool random_keys, size_t value_bytes, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> keys(n);
  for (int i = 0; i < n; ++i) keys[i] = random_keys ? rng() : uint64_t(i) * 7;
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  Entries e;
  for (uint64_t k : keys) {
    std::string v(value_bytes, '\0');
    for (auto& c : v) c = static_cast<char>('a' + rng() % 26);
    e.emplace_back(IKey(BigEndian(k), 0, kTypeValue), v);
  }
  return e;
}

// A hash that gives about 16 keys each hash: equal hashes must sort by
// address in every run alike.
uint64_t FewHashes(const Slice& key, uint64_t seed) {
  return KeyHash(key, seed) & 0xffff000000000000ull;
}

// A hash that gives about a thousand keys each hash: no inline plan
// places them within a slot's displacement.
uint64_t CrowdedHashes(const Slice& key, uint64_t seed) {
  return KeyHash(key, seed) & 0xffc0000000000000ull;
}

struct Case {
  const char* name;
  Entries entries;
  RobinHoodTableOptions opts;
  CompressionType compression;
  HashFunction hash;
  const char* layout;
  // False for a file whose builder holds little anyway (paged files stream
  // their pages): it must then stay under the limit unbounded too.
  bool needs_bound = true;
};

class BoundedBuildTest : public testing::Test {
 protected:
  void SetUp() override {
    spill_dir_ = test_util::TempPath("bounded", "spill");
    ASSERT_OK(Env::Default()->CreateDirIfMissing(spill_dir_));
  }
  void TearDown() override {
    for (const std::string& f : SpillFiles()) {
      Env::Default()->DeleteFile(spill_dir_ + "/" + f);
    }
    Env::Default()->DeleteDir(spill_dir_);
  }
  std::vector<std::string> SpillFiles() { return test_util::ListDir(spill_dir_); }
  RobinHoodTableOptions Bounded(RobinHoodTableOptions o) {
    o.build_memory_limit = kLimit;
    o.build_spill_dir = spill_dir_;
    return o;
  }

  void Check(const Case& c) {
    SCOPED_TRACE(c.name);
    TableFile plain(std::string(c.name) + "-plain");
    TableFile bounded(std::string(c.name) + "-bounded");
    size_t plain_peak = 0, bounded_peak = 0;
    ASSERT_OK(plain.Build(c.entries, c.opts, c.compression, c.hash, &plain_peak));
    ASSERT_OK(bounded.Build(c.entries, Bounded(c.opts), c.compression, c.hash,
                            &bounded_peak));
    EXPECT_TRUE(SpillFiles().empty());
    if (c.needs_bound) {
      EXPECT_GT(plain_peak, kLimit) << "the case must need more than the limit";
    } else {
      EXPECT_LE(plain_peak, kLimit / 2);
    }
    EXPECT_LE(bounded_peak, kLimit);

    std::unique_ptr<TableReader> a, b;
    ASSERT_OK(plain.Open(false, &a, ~uint64_t{0}, c.hash));
    ASSERT_OK(bounded.Open(false, &b, ~uint64_t{0}, c.hash));
    const TableMeta& ma = harness::ViewOf(a.get()).meta();
    const TableMeta& mb = harness::ViewOf(b.get()).meta();
    // Everything before the properties (which record the builder's peak)
    // is the same byte for byte.
    ASSERT_EQ(ma.properties.offset, mb.properties.offset);
    const std::string pa = plain.Bytes(), pb = bounded.Bytes();
    EXPECT_TRUE(pa.compare(0, ma.properties.offset, pb, 0,
                           mb.properties.offset) == 0);
    auto props = b->GetTableProperties();
    EXPECT_EQ(props->user_collected_properties.at(
                  RobinHoodTablePropertyNames::kLayout),
              c.layout);
    EXPECT_EQ(props->num_entries, c.entries.size());

    if (c.hash != &KeyHash) return;  // the public reader hashes as the format
    Options options;
    options.table_factory.reset(NewRobinHoodTableFactory());
    SstFileReader reader(options);
    ASSERT_OK(reader.Open(bounded.path()));
    ASSERT_OK(reader.VerifyChecksum());
    std::unique_ptr<Iterator> it(reader.NewIterator(ReadOptions()));
    size_t i = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next(), ++i) {
      ASSERT_LT(i, c.entries.size());
      ParsedInternalKey ik;
      ASSERT_OK(ParseInternalKey(c.entries[i].first, &ik, false));
      ASSERT_EQ(it->key(), ik.user_key);
      ASSERT_EQ(it->value(), c.entries[i].second);
    }
    ASSERT_OK(it->status());
    EXPECT_EQ(i, c.entries.size());
  }

  std::string spill_dir_;
};

TEST_F(BoundedBuildTest, InlineInKeyOrder) {
  Check({"inline-key", Puts(1200000, false, 8, 1), {}, kNoCompression,
         &KeyHash, "inline"});
}

TEST_F(BoundedBuildTest, InlineInHashOrderWithOrderArray) {
  RobinHoodTableOptions o;
  o.inline_key_order = false;
  Check({"inline-hash", Puts(800000, true, 8, 2), o, kNoCompression, &KeyHash,
         "inline"});
}

// Pages stream to the file as they fill: bounded or not, the builder holds
// little of them.
TEST_F(BoundedBuildTest, Paged) {
  Check({"paged", Puts(150000, true, 120, 3), {}, kNoCompression, &KeyHash,
         "paged", false});
}

// Inline entries spilled, then longer ones: the file takes pages, the
// spilled entries go to a temporary file of pages, and then to the file
// as the pages start to stream.
TEST_F(BoundedBuildTest, SpilledInlineEntriesThenPagesStream) {
  Entries e = Puts(1000000, true, 8, 12);
  for (size_t i = e.size() - 5000; i < e.size(); ++i) {
    e[i].second.assign(200, static_cast<char>('a' + i % 26));
  }
  RobinHoodTableOptions o;
  o.inline_key_order = false;
  Check({"inline-then-paged", e, o, kNoCompression, &KeyHash, "paged"});
}

// Pages wait where the layout is chosen at Finish: entries that fit inline
// slots but no inline plan places go to pages then, from the temporary
// file they spilled to.
TEST_F(BoundedBuildTest, SpilledInlineEntriesTakePages) {
  RobinHoodTableOptions o;
  o.inline_key_order = false;
  Check({"inline-to-paged", Puts(1000000, true, 8, 3), o, kNoCompression,
         &CrowdedHashes, "paged"});
}

// Entries of 65 bytes whole, 60 without the 5 bytes their keys share: in
// key order they fit the default slot limit, spilled or not.
TEST_F(BoundedBuildTest, SpilledInlineEntriesWithoutTheirPrefix) {
  Check({"inline-key-prefix", Puts(300000, false, 56, 21), {}, kNoCompression,
         &KeyHash, "inline"});
}

// The same width, keys that crowd (half of them in 1/7000th of their
// range): key order is refused, and hash order's whole keys would pass
// the limit, so the spilled entries take pages.
TEST_F(BoundedBuildTest, SpilledEntriesThatFitOnlyWithoutTheirPrefixTakePages) {
  std::vector<uint64_t> keys;
  for (uint64_t i = 0; i < 150000; ++i) keys.push_back(i);
  for (uint64_t i = 1; i <= 150000; ++i) {
    keys.push_back(i * ((uint64_t{1} << 30) / 150001));
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  std::mt19937_64 rng(22);
  Entries e;
  for (uint64_t k : keys) {
    std::string v(56, '\0');
    for (auto& c : v) c = static_cast<char>('a' + rng() % 26);
    e.emplace_back(IKey(BigEndian(k), 0, kTypeValue), v);
  }
  Check({"prefix-crowded-to-paged", e, {}, kNoCompression, &KeyHash, "paged"});
}

// A file that would take hash order past inline_hash_order_limit takes
// pages, from the temporary file its entries spilled to.
TEST_F(BoundedBuildTest, SpilledInlineEntriesPastTheHashOrderLimitTakePages) {
  RobinHoodTableOptions o;
  o.inline_key_order = false;
  o.inline_hash_order_limit = 4 << 20;
  Check({"inline-hash-past-limit", Puts(1000000, true, 8, 13), o,
         kNoCompression, &KeyHash, "paged"});
}

// The hash filter's hashes are sorted on disk and its blocks written one
// after another: the same filter, in bounded memory.
TEST_F(BoundedBuildTest, HashFilterOnEachLayout) {
  RobinHoodTableOptions o;
  o.filter_policy = "hashbloom:10";
  Check({"inline-filter", Puts(1200000, false, 8, 8), o, kNoCompression,
         &KeyHash, "inline"});
  Check({"paged-filter", Puts(150000, true, 120, 9), o, kNoCompression,
         &KeyHash, "paged", false});
  o.inline_slot_limit = 0;
  o.page_layout = false;
  Check({"log-filter", Puts(900000, true, 16, 10), o, kNoCompression,
         &KeyHash, "log"});
}

TEST_F(BoundedBuildTest, LogWithSparseIndex) {
  RobinHoodTableOptions o;
  o.inline_slot_limit = 0;
  o.page_layout = false;
  o.sparse_index_interval = 1;  // the sparse index grows as fast as the log
  Check({"log", Puts(900000, true, 16, 4), o, kNoCompression, &KeyHash,
         "log"});
}

TEST_F(BoundedBuildTest, CompressedLog) {
  RobinHoodTableOptions o;
  o.inline_slot_limit = 0;
  o.page_layout = false;
  Check({"log-lz4", Puts(1200000, true, 16, 5), o, test_util::BestCodec(),
         &KeyHash, "log"});
}

TEST_F(BoundedBuildTest, CollidingHashesInTheLog) {
  RobinHoodTableOptions o;
  o.inline_slot_limit = 0;
  o.page_layout = false;
  Check({"log-collide", Puts(1300000, true, 8, 6), o, kNoCompression,
         &FewHashes, "log"});
}

TEST_F(BoundedBuildTest, SpilledInlineEntriesFallBackToTheLog) {
  // Hashes so crowded that no entry fits its displacement: the inline plan
  // fails on spilled entries, which then go to the log from the file.
  RobinHoodTableOptions o;
  o.inline_key_order = false;
  o.page_layout = false;
  Check({"inline-to-log", Puts(1000000, true, 8, 7), o, kNoCompression,
         &CrowdedHashes, "log"});
}

// Adds `entries` to a builder of `o` writing `f`, then Finish or Abandon.
Status BuildAndEnd(TableFile* f, const RobinHoodTableOptions& o,
                   const Entries& entries, bool finish,
                   const std::function<void()>& before_end) {
  std::unique_ptr<FSWritableFile> out;
  Status s = f->ioptions().fs->NewWritableFile(f->path(), FileOptions(), &out,
                                               nullptr);
  if (!s.ok()) return s;
  WritableFileWriter writer(std::move(out), f->path(), FileOptions());
  Options opts;
  const ImmutableOptions io(opts);
  const MutableCFOptions mo(opts);
  compat::OwnedBuilderOptions owned(io, mo, f->icmp(), kNoCompression);
  RobinHoodTableBuilder b(o, owned.tbo, &writer);
  for (const auto& e : entries) b.Add(e.first, e.second);
  before_end();
  if (!finish) {
    b.Abandon();
    return b.status();
  }
  return b.Finish();
}

// Two files of one name in two directories, built at once with one spill
// directory: their temporary files must not collide.
TEST_F(BoundedBuildTest, BuildersOfOneNameShareASpillDirectory) {
  const std::string d1 = test_util::TempPath("bounded", "one");
  const std::string d2 = test_util::TempPath("bounded", "two");
  ASSERT_OK(Env::Default()->CreateDirIfMissing(d1));
  ASSERT_OK(Env::Default()->CreateDirIfMissing(d2));
  const Entries a = Puts(1200000, false, 8, 10), b = Puts(1200000, true, 8, 11);
  Options opts;
  const ImmutableOptions io(opts);
  const MutableCFOptions mo(opts);
  const InternalKeyComparator icmp(BytewiseComparator());
  compat::OwnedBuilderOptions owned(io, mo, icmp, kNoCompression);
  struct Out {
    std::string path;
    std::unique_ptr<WritableFileWriter> writer;
    std::unique_ptr<RobinHoodTableBuilder> builder;
  } out[2];
  const RobinHoodTableOptions o = Bounded({});
  for (int i = 0; i < 2; ++i) {
    out[i].path = (i == 0 ? d1 : d2) + "/same.sst";
    std::unique_ptr<FSWritableFile> f;
    ASSERT_OK(io.fs->NewWritableFile(out[i].path, FileOptions(), &f, nullptr));
    out[i].writer.reset(new WritableFileWriter(std::move(f), out[i].path, FileOptions()));
    out[i].builder.reset(new RobinHoodTableBuilder(o, owned.tbo, out[i].writer.get()));
  }
  for (size_t i = 0; i < a.size() || i < b.size(); ++i) {
    if (i < a.size()) out[0].builder->Add(a[i].first, a[i].second);
    if (i < b.size()) out[1].builder->Add(b[i].first, b[i].second);
  }
  for (int i = 0; i < 2; ++i) {
    ASSERT_OK(out[i].builder->Finish());
    ASSERT_OK(compat::Close(out[i].writer.get()));
    EXPECT_LE(out[i].builder->PeakMemoryUsage(), kLimit);
    Options ro;
    ro.table_factory.reset(NewRobinHoodTableFactory());
    SstFileReader reader(ro);
    ASSERT_OK(reader.Open(out[i].path));
    ASSERT_OK(reader.VerifyChecksum());
    std::unique_ptr<Iterator> it(reader.NewIterator(ReadOptions()));
    const Entries& want = i == 0 ? a : b;
    size_t n = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next(), ++n) {
      ASSERT_LT(n, want.size());
      ASSERT_EQ(it->value(), want[n].second);
    }
    EXPECT_EQ(n, want.size());
    Env::Default()->DeleteFile(out[i].path);
  }
  EXPECT_TRUE(SpillFiles().empty());
  Env::Default()->DeleteDir(d1);
  Env::Default()->DeleteDir(d2);
}

TEST_F(BoundedBuildTest, AbandonLeavesNoFile) {
  TableFile f("abandon");
  RobinHoodTableOptions o = Bounded({});
  o.inline_slot_limit = 0;
  o.page_layout = false;
  ASSERT_OK(BuildAndEnd(&f, o, Puts(1000000, true, 8, 8), false,
                        [&] { EXPECT_FALSE(SpillFiles().empty()); }));
  EXPECT_TRUE(SpillFiles().empty());
}

TEST_F(BoundedBuildTest, UnwritableSpillDirectoryFailsTheBuild) {
  TableFile f("nodir");
  RobinHoodTableOptions o = Bounded({});
  o.build_spill_dir = spill_dir_ + "/missing";
  Status s = BuildAndEnd(&f, o, Puts(1200000, false, 8, 9), true, [] {});
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
}

}  // namespace
}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
