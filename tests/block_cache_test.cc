// The block cache (RobinHoodTableOptions::block_cache), for every codec
// the host library has and both kinds of cache RocksDB offers (LRU and
// HyperClockCache): lookups and scans answer as without it; a block
// once read, by a lookup or by a scan that fills the cache, is served from
// the cache, so later reads of it read nothing from the file; scans with
// fill_cache=false and compactions leave it alone; a full cache with a
// strict limit only costs speed; a damaged block is refused every time and
// never cached. Files without compression read with mmap leave the cache
// alone; read without it, their log blocks and pages go there too, and
// lookups then read them once. (db_test and differential_test run a small
// cache under pinned iterators.)
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "rocksdb/cache.h"
#include "tests/corruption_harness.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {
namespace {

using namespace harness;  // NOLINT: the suite is written in its terms

// Reads every entry of `t` (`entries` of them) with an iterator of `ro`
// made for `caller`.
void ScanEvery(TableReader* t, const ReadOptions& ro, TableReaderCaller caller,
               size_t entries) {
  std::unique_ptr<InternalIterator> it(
      t->NewIterator(ro, nullptr, nullptr, false, caller));
  size_t n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) ++n;
  ASSERT_OK(it->status());
  EXPECT_EQ(n, entries);
}

using test_util::CacheKind;
constexpr auto Held = &test_util::HeldBytes;

class BlockCacheTest
    : public testing::TestWithParam<std::tuple<CompressionType, CacheKind>> {
 protected:
  BlockCacheTest()
      : model_(CompressibleModel()),
        file_("block_cache_" + CodecName(codec()) + "_" +
              test_util::CacheKindName(std::get<1>(GetParam()))),
        checker_(model_, file_.path()) {}

  CompressionType codec() const { return std::get<0>(GetParam()); }
  // A cache of the case's kind; a strict one in one shard.
  std::shared_ptr<Cache> NewCache(size_t capacity, bool strict = false) {
    return test_util::NewCacheOf(std::get<1>(GetParam()), capacity,
                                 strict ? 0 : -1, strict);
  }

  // Builds the model with `cache` as the table's block cache, compressed
  // unless `codec` says otherwise, and opens it without mmap, every read
  // of the file recorded in reads_.
  void BuildAndOpen(std::shared_ptr<Cache> cache,
                    CompressionType codec) {
    RobinHoodTableOptions opts = SmallBlocks();
    opts.block_cache = std::move(cache);
    bytes_ = BuildModel(&file_, model_, opts, codec);
    layout_ = MapOf(&file_);
    file_.WrapReads([this](std::unique_ptr<FSRandomAccessFile> f) {
      return std::unique_ptr<FSRandomAccessFile>(
          new RecordingFile(std::move(f), &reads_));
    });
    ASSERT_OK(file_.Open(/*mmap=*/false, &table_));
  }

  size_t CompressedBlocks() const {
    size_t n = 0;
    for (const auto& loc : layout_.blocks) n += loc.compressed();
    return n;
  }
  uint64_t CompressedBytes() const {
    uint64_t n = 0;
    for (const auto& loc : layout_.blocks) {
      if (loc.compressed()) n += loc.logical_bytes;
    }
    return n;
  }

  void ScanAll(const ReadOptions& ro, TableReaderCaller caller) {
    ScanEvery(table_.get(), ro, caller, model_.entries.size());
  }

  // Reads since the last clear that touch a compressed block.
  size_t CompressedBlockReads() const {
    size_t n = 0;
    for (const auto& r : reads_) {
      for (const auto& loc : layout_.blocks) {
        if (loc.compressed() && r.first < loc.file_offset + loc.contents_bytes &&
            r.first + r.second > loc.file_offset) {
          ++n;
        }
      }
    }
    return n;
  }

  Model model_;
  TableFile file_;
  Checker checker_;
  std::string bytes_;
  FileMap layout_;
  RecordingFile::Reads reads_;
  std::unique_ptr<TableReader> table_;
};

TEST_P(BlockCacheTest, LookupsComeFromTheCacheOnceRead) {
  std::shared_ptr<Cache> cache = NewCache(8 << 20);
  BuildAndOpen(cache, codec());
  ASSERT_GT(CompressedBlocks(), layout_.blocks.size() / 2);
  ReadReport r;
  checker_.Gets(table_.get(), true, &r);
  EXPECT_EQ(r.wrong, 0);
  EXPECT_EQ(r.corruptions, 0);
  const size_t usage = Held(*cache);
  // Every compressed block, whole, and nothing pinned once Get returns.
  EXPECT_GE(usage, CompressedBytes());
  EXPECT_EQ(cache->GetPinnedUsage(), 0u);

  reads_.clear();
  checker_.Gets(table_.get(), true, &r);
  EXPECT_EQ(r.wrong, 0);
  EXPECT_EQ(CompressedBlockReads(), 0u)
      << "a lookup read a compressed block the cache holds";
  EXPECT_EQ(Held(*cache), usage);

  // Scans find every block there.
  reads_.clear();
  checker_.Scans(table_.get(), true, &r);
  EXPECT_EQ(r.wrong, 0);
  EXPECT_EQ(CompressedBlockReads(), 0u);
  EXPECT_EQ(Held(*cache), usage);

  // Another reader of the file keeps blocks of its own: the harness's
  // builder records no session and file number, which would key them
  // alike (db_test ReopenedReadersFindTheirBlocksInTheCache).
  std::unique_ptr<TableReader> other;
  ASSERT_OK(file_.Open(/*mmap=*/true, &other));
  checker_.Gets(other.get(), true, &r);
  EXPECT_EQ(r.wrong, 0);
  EXPECT_GT(Held(*cache), usage);
}

TEST_P(BlockCacheTest, ScansFillItUnlessTheyMayNot) {
  std::shared_ptr<Cache> cache = NewCache(8 << 20);
  BuildAndOpen(cache, codec());
  ReadOptions no_fill;
  no_fill.fill_cache = false;
  ScanAll(no_fill, TableReaderCaller::kUserIterator);
  ScanAll(ReadOptions(), TableReaderCaller::kCompaction);
  EXPECT_EQ(Held(*cache), 0u);

  ScanAll(ReadOptions(), TableReaderCaller::kUserIterator);
  EXPECT_GE(Held(*cache), CompressedBytes());
  EXPECT_EQ(cache->GetPinnedUsage(), 0u);
  reads_.clear();
  ReadReport r;
  checker_.Gets(table_.get(), true, &r);
  EXPECT_EQ(r.wrong + r.corruptions, 0);
  EXPECT_EQ(CompressedBlockReads(), 0u)
      << "a lookup read a block the scan cached";
}

TEST_P(BlockCacheTest, AFullCacheOnlyCostsSpeed) {
  // Too small for any block, and strict: every insert fails.
  std::shared_ptr<Cache> cache = NewCache(64, /*strict=*/true);
  BuildAndOpen(cache, codec());
  ReadReport r;
  checker_.Gets(table_.get(), true, &r);
  checker_.Gets(table_.get(), false, true, &r);
  checker_.Scans(table_.get(), true, &r);
  EXPECT_EQ(r.wrong, 0);
  EXPECT_EQ(r.corruptions, 0);
  EXPECT_EQ(Held(*cache), 0u);
}

TEST_P(BlockCacheTest, ADamagedBlockIsRefusedAndNeverCached) {
  // What the intact file leaves in a cache, to compare with.
  std::shared_ptr<Cache> intact = NewCache(8 << 20);
  BuildAndOpen(intact, codec());
  ReadReport r;
  checker_.Gets(table_.get(), true, &r);
  ASSERT_EQ(r.wrong + r.corruptions, 0);

  // Block 0 opens with the first key's newest entry: a lookup caches it.
  const BlockLocation first = layout_.blocks.at(0);
  ASSERT_TRUE(first.compressed());
  std::shared_ptr<Cache> cache = NewCache(8 << 20);
  BuildAndOpen(cache, codec());
  file_.Write(Flipped(bytes_, first.file_offset + first.contents_bytes / 2));
  ASSERT_OK(file_.Open(/*mmap=*/false, &table_));
  for (int pass = 0; pass < 2; ++pass) {
    SCOPED_TRACE(pass);
    ReadReport damaged;
    checker_.Gets(table_.get(), pass == 0, true, &damaged);
    EXPECT_EQ(damaged.wrong, 0);
    EXPECT_GT(damaged.corruptions, 0) << "the damaged block answered";
  }
  EXPECT_LE(Held(*cache) + first.logical_bytes, Held(*intact));
}

TEST_P(BlockCacheTest, LookupsThatMayNotFillLeaveItAlone) {
  std::shared_ptr<Cache> cache = NewCache(8 << 20);
  BuildAndOpen(cache, codec());
  ReadOptions no_fill;
  no_fill.fill_cache = false;
  ReadReport r;
  checker_.Gets(table_.get(), no_fill, true, &r);
  EXPECT_EQ(r.wrong + r.corruptions + r.incomplete, 0);
  EXPECT_EQ(Held(*cache), 0u);
  EXPECT_GT(CompressedBlockReads(), 0u);

  // What is there, they use.
  checker_.Gets(table_.get(), true, &r);
  const size_t usage = Held(*cache);
  EXPECT_GE(usage, CompressedBytes());
  reads_.clear();
  checker_.Gets(table_.get(), no_fill, true, &r);
  EXPECT_EQ(r.wrong + r.corruptions + r.incomplete, 0);
  EXPECT_EQ(CompressedBlockReads(), 0u);
  EXPECT_EQ(Held(*cache), usage);
}

// Either cache kind a user may give.
const std::vector<CacheKind> kCacheKinds = {CacheKind::kLru,
                                            CacheKind::kHyperClock};

INSTANTIATE_TEST_SUITE_P(
    Codecs, BlockCacheTest,
    testing::Combine(testing::ValuesIn(Codecs()),
                     testing::ValuesIn(kCacheKinds)),
    [](const testing::TestParamInfo<BlockCacheTest::ParamType>& i) {
      return CodecName(std::get<0>(i.param)) + "_" +
             test_util::CacheKindName(std::get<1>(i.param));
    });

// Uncompressed files in every layout: a log file, a paged one, and inline
// files (pages of slots) in hash and in key order.
class RawBlockCacheTest
    : public testing::TestWithParam<std::tuple<LayoutCase, CacheKind>> {
 protected:
  RawBlockCacheTest()
      : file_(std::string("raw_cache_") + layout().name + "_" +
              test_util::CacheKindName(std::get<1>(GetParam()))) {}

  const LayoutCase& layout() const { return std::get<0>(GetParam()); }
  std::shared_ptr<Cache> NewCache(size_t capacity) {
    return test_util::NewCacheOf(std::get<1>(GetParam()), capacity);
  }

  // Builds the case's file with `cache` and opens it, every read of the
  // file recorded in reads_.
  void BuildAndOpen(std::shared_ptr<Cache> cache, bool mmap) {
    RobinHoodTableOptions opts = SmallBlocks();
    opts.block_cache = std::move(cache);
    bytes_ = BuildLayoutCase(&file_, layout(), 7, opts, &model_);
    layout_ = MapOf(&file_);
    Reopen(mmap);
  }
  void Reopen(bool mmap) {
    file_.WrapReads([this](std::unique_ptr<FSRandomAccessFile> f) {
      return std::unique_ptr<FSRandomAccessFile>(
          new RecordingFile(std::move(f), &reads_));
    });
    ASSERT_OK(file_.Open(mmap, &table_));
  }
  // Where the blocks or pages lie: from offset 0 to here.
  uint64_t DataEnd() const {
    return layout_.meta.is_paged() || layout_.meta.is_inline()
               ? layout_.meta.index.offset + layout_.meta.index.size
               : layout_.meta.log_file_bytes;
  }
  // Reads since the last clear that touch a block or page.
  size_t DataReads() const {
    size_t n = 0;
    for (const auto& r : reads_) n += r.first < DataEnd();
    return n;
  }

  Model model_;
  TableFile file_;
  std::string bytes_;
  FileMap layout_;
  RecordingFile::Reads reads_;
  std::unique_ptr<TableReader> table_;
};

TEST_P(RawBlockCacheTest, LookupsWithoutMmapReadEachBlockOnce) {
  std::shared_ptr<Cache> cache = NewCache(8 << 20);
  BuildAndOpen(cache, /*mmap=*/false);
  Checker checker(model_, file_.path());
  ReadReport r;
  checker.Gets(table_.get(), true, &r);
  EXPECT_EQ(r.wrong, 0);
  EXPECT_EQ(r.corruptions, 0);
  const size_t usage = Held(*cache);
  EXPECT_GT(usage, 0u);
  EXPECT_EQ(cache->GetPinnedUsage(), 0u);

  reads_.clear();
  checker.Gets(table_.get(), true, &r);
  EXPECT_EQ(r.wrong, 0);
  EXPECT_EQ(DataReads(), 0u) << "a lookup read a block the cache holds";
  EXPECT_EQ(Held(*cache), usage);

  // With mmap, blocks and pages are read in place.
  std::shared_ptr<Cache> mapped = NewCache(8 << 20);
  BuildAndOpen(mapped, /*mmap=*/true);
  checker.Gets(table_.get(), true, &r);
  EXPECT_EQ(r.wrong, 0);
  EXPECT_EQ(Held(*mapped), 0u);
}

TEST_P(RawBlockCacheTest, ScansFillItUnlessTheyMayNot) {
  std::shared_ptr<Cache> cache = NewCache(8 << 20);
  BuildAndOpen(cache, /*mmap=*/false);
  auto scan = [&](const ReadOptions& ro, TableReaderCaller caller) {
    ScanEvery(table_.get(), ro, caller, model_.entries.size());
  };
  ReadOptions no_fill;
  no_fill.fill_cache = false;
  scan(no_fill, TableReaderCaller::kUserIterator);
  scan(ReadOptions(), TableReaderCaller::kCompaction);
  EXPECT_EQ(Held(*cache), 0u);

  scan(ReadOptions(), TableReaderCaller::kUserIterator);
  EXPECT_GT(Held(*cache), 0u);
  EXPECT_EQ(cache->GetPinnedUsage(), 0u);
  reads_.clear();
  Checker checker(model_, file_.path());
  ReadReport r;
  checker.Gets(table_.get(), true, &r);
  EXPECT_EQ(r.wrong + r.corruptions, 0);
  EXPECT_EQ(DataReads(), 0u) << "a lookup read a block the scan cached";
  // And scans, whether or not they may fill it.
  scan(ReadOptions(), TableReaderCaller::kUserIterator);
  scan(no_fill, TableReaderCaller::kUserIterator);
  EXPECT_EQ(DataReads(), 0u) << "a scan read a block the cache holds";
}

// Scans that may not read (kBlockCacheTier) answer from the cache too:
// Incomplete, reading nothing, until a scan has filled it, then every
// entry and every seek.
TEST_P(RawBlockCacheTest, ScansThatMayNotReadAnswerFromIt) {
  std::shared_ptr<Cache> cache = NewCache(8 << 20);
  BuildAndOpen(cache, /*mmap=*/false);
  ReadOptions cache_only;
  cache_only.read_tier = kBlockCacheTier;
  auto cache_only_scan = [&]() {
    std::unique_ptr<InternalIterator> it(table_->NewIterator(
        cache_only, nullptr, nullptr, false,
        TableReaderCaller::kUserIterator));
    size_t n = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next()) ++n;
    return std::make_pair(it->status(), n);
  };
  reads_.clear();
  auto cold = cache_only_scan();
  EXPECT_TRUE(cold.first.IsIncomplete()) << cold.first.ToString();
  EXPECT_EQ(reads_.size(), 0u) << "a scan that may not read read";

  ScanEvery(table_.get(), ReadOptions(), TableReaderCaller::kUserIterator,
            model_.entries.size());
  reads_.clear();
  auto warm = cache_only_scan();
  EXPECT_EQ(reads_.size(), 0u);
  ASSERT_OK(warm.first);
  EXPECT_EQ(warm.second, model_.entries.size());
  // Seeks need the file's index of keys: a paged file's page index, read
  // when the file opened, or an inline file's key-order model, in its
  // directory; a log file's sparse index (a log tail's too: the last entry
  // is in it) or the samples of an inline file in hash order, which the
  // first seek that may read loads.
  std::unique_ptr<InternalIterator> it(table_->NewIterator(
      cache_only, nullptr, nullptr, false, TableReaderCaller::kUserIterator));
  it->Seek(model_.entries.back().first);
  EXPECT_EQ(reads_.size(), 0u);
  if ((layout().paged && layout().log_tail_from < 0) ||
      (layout().is_inline && layout().key_ordered)) {
    ASSERT_TRUE(it->Valid()) << it->status().ToString();
  } else {
    EXPECT_TRUE(it->status().IsIncomplete()) << it->status().ToString();
    std::unique_ptr<InternalIterator> loads(table_->NewIterator(
        ReadOptions(), nullptr, nullptr, false,
        TableReaderCaller::kUserIterator));
    loads->Seek(model_.entries.back().first);
    ASSERT_TRUE(loads->Valid());
  }
  reads_.clear();
  for (const auto& e : model_.entries) {
    it->Seek(e.first);
    ASSERT_TRUE(it->Valid()) << it->status().ToString();
    EXPECT_EQ(it->key(), Slice(e.first));
    EXPECT_EQ(it->value(), Slice(e.second));
  }
  EXPECT_EQ(reads_.size(), 0u);
}

// Lookups that may not read (read_tier kBlockCacheTier) answer from the
// cache what it holds and are Incomplete for the rest, reading nothing;
// lookups that may not fill it (fill_cache=false) read around it.
TEST_P(RawBlockCacheTest, LookupsThatMayNotReadAnswerFromIt) {
  std::shared_ptr<Cache> cache = NewCache(8 << 20);
  BuildAndOpen(cache, /*mmap=*/false);
  Checker checker(model_, file_.path());
  ReadOptions cache_only;
  cache_only.read_tier = kBlockCacheTier;
  ReadReport cold;
  reads_.clear();
  checker.Gets(table_.get(), cache_only, true, &cold);
  EXPECT_EQ(cold.wrong + cold.corruptions, 0);
  EXPECT_GT(cold.incomplete, 0);
  EXPECT_EQ(reads_.size(), 0u) << "a lookup that may not read read";
  EXPECT_EQ(Held(*cache), 0u);

  ReadOptions no_fill;
  no_fill.fill_cache = false;
  ReadReport r;
  checker.Gets(table_.get(), no_fill, true, &r);
  EXPECT_EQ(r.wrong + r.corruptions + r.incomplete, 0);
  EXPECT_GT(DataReads(), 0u);
  EXPECT_EQ(Held(*cache), 0u) << "a lookup that may not fill filled";

  checker.Gets(table_.get(), true, &r);
  EXPECT_GT(Held(*cache), 0u);
  reads_.clear();
  ReadReport warm;
  checker.Gets(table_.get(), cache_only, true, &warm);
  EXPECT_EQ(warm.wrong + warm.corruptions, 0);
  EXPECT_EQ(warm.incomplete, 0) << "a cached block was not used";
  EXPECT_EQ(reads_.size(), 0u);
  EXPECT_EQ(cache->GetPinnedUsage(), 0u);
}

TEST_P(RawBlockCacheTest, ADamagedBlockIsRefusedAndNeverCached) {
  std::shared_ptr<Cache> cache = NewCache(8 << 20);
  BuildAndOpen(cache, /*mmap=*/false);
  // Lookups read the first block or page (the first key's entry, or some
  // key's slot).
  const uint64_t at = layout_.meta.is_paged() || layout_.meta.is_inline()
                          ? 16
                          : layout_.blocks.at(0).file_offset +
                                layout_.blocks.at(0).contents_bytes / 2;
  file_.Write(Flipped(bytes_, at));
  Reopen(/*mmap=*/false);
  Checker checker(model_, file_.path());
  for (int pass = 0; pass < 2; ++pass) {
    SCOPED_TRACE(pass);
    ReadReport damaged;
    checker.Gets(table_.get(), true, true, &damaged);
    EXPECT_EQ(damaged.wrong, 0);
    EXPECT_GT(damaged.corruptions, 0) << "the damaged block answered";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, RawBlockCacheTest,
    testing::Combine(testing::ValuesIn(AllLayouts()),
                     testing::ValuesIn(kCacheKinds)),
    [](const testing::TestParamInfo<RawBlockCacheTest::ParamType>& i) {
      return std::string(std::get<0>(i.param).name) + "_" +
             test_util::CacheKindName(std::get<1>(i.param));
    });

}  // namespace
}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
