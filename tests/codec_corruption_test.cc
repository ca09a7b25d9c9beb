// Damage to compressed files, for every codec the host library has: the
// reader checksums a compressed block before any codec sees it, whatever
// ReadOptions::verify_checksums says, and decompresses with bounds-checked
// codec calls (robinhood_uncompress.h), so:
//  - a sweep flipping bytes of a log of compressed blocks gets, with
//    checksums verified or not, the right answer or Corruption from every
//    read (raw blocks read without checksums excepted: no promise there);
//  - blocks crafted with a valid checksum but a bad stream (what a hostile
//    file or a bug elsewhere could hold) give Corruption, never an abort
//    in RocksDB's decompression code;
//  - the builder keeps the compression-ratio bound the reader enforces.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "rocksdb/convenience.h"
#include "table/robinhood_compress.h"
#include "table/robinhood_uncompress.h"
#include "tests/corruption_harness.h"
#include "tests/test_util.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {
namespace {

using namespace harness;  // NOLINT: the suite is written in its terms

// `bytes` with log block `loc`'s contents replaced (same size) and its
// trailer recomputed with codec `type`: a block whose checksum holds.
std::string WithBlock(std::string bytes, const BlockLocation& loc,
                      const std::string& contents, CompressionType type) {
  std::string trailer;
  AppendTrailer(contents, type, &trailer);
  bytes.replace(loc.file_offset, contents.size(), contents);
  bytes.replace(loc.file_offset + contents.size(), kTrailerSize, trailer);
  return bytes;
}

class CodecCorruptionTest
    : public testing::TestWithParam<std::tuple<bool, CompressionType>> {
 protected:
  CodecCorruptionTest()
      : model_(CompressibleModel()),
        file_("codec_" + CodecName(codec()) + (mmap() ? "_mmap" : "_pread")),
        checker_(model_, file_.path()) {}

  void SetUp() override {
    original_ = BuildModel(&file_, model_, SmallBlocks(), codec());
    layout_ = MapOf(&file_);
    size_t compressed = 0;
    for (const auto& loc : layout_.blocks) compressed += loc.compressed();
    ASSERT_GT(compressed, layout_.blocks.size() / 2)
        << "values should compress with " << CodecName(codec());
  }

  bool mmap() const { return std::get<0>(GetParam()); }
  CompressionType codec() const { return std::get<1>(GetParam()); }

  // Which block's stored bytes (contents or trailer) hold `offset`, if any.
  const BlockLocation* BlockAt(uint64_t offset) const {
    for (const auto& loc : layout_.blocks) {
      if (offset >= loc.file_offset &&
          offset < loc.file_offset + loc.contents_bytes + kTrailerSize) {
        return &loc;
      }
    }
    return nullptr;
  }

  Model model_;
  TableFile file_;
  Checker checker_;
  std::string original_;
  FileMap layout_;
};

TEST_P(CodecCorruptionTest, IntactFileReadsRight) {
  file_.Write(original_);
  std::unique_ptr<TableReader> t;
  ASSERT_OK(file_.Open(mmap(), &t));
  ReadReport r = checker_.CheckAll(t.get());
  EXPECT_EQ(r.wrong, 0);
  EXPECT_EQ(r.corruptions, 0);
  EXPECT_OK(r.verify);
  r = checker_.Unverified(t.get());
  EXPECT_EQ(r.wrong, 0);
  EXPECT_EQ(r.corruptions, 0);
}

// Bytes of the log flipped in turn (every 7th by default, which cycles
// through all 8 bits; RH_SWEEP_STRIDE=1 for every one: the same findings,
// in minutes), read with checksums verified and then without. The rest of
// the file does not depend on the codec: corruption_test sweeps it.
TEST_P(CodecCorruptionTest, LogBytesFlipped) {
  const char* env = getenv("RH_SWEEP_STRIDE");
  const uint64_t stride = env != nullptr && atol(env) > 0 ? atol(env) : 7;
  const auto start = std::chrono::steady_clock::now();
  int refused = 0, opened = 0, checked_unverified = 0;
  for (uint64_t off = 0; off < layout_.meta.log_file_bytes; off += stride) {
    if (checker_.failures() > 40) break;
    const BlockLocation* block = BlockAt(off);
    const uint8_t mask = static_cast<uint8_t>(1u << (off % 8));
    const std::string context = CodecName(codec()) + " byte " +
                                std::to_string(off) + " (" +
                                layout_.PartOf(off) + ") ^ " +
                                std::to_string(mask);
    checker_.set_context(context);
    file_.Write(Flipped(original_, off, mask));
    std::unique_ptr<TableReader> t;
    Status s = file_.Open(mmap(), &t);
    if (!s.ok()) {
      EXPECT_TRUE(checker_.IsNamedCorruption(s)) << context << ": "
                                                 << s.ToString();
      ++refused;
      continue;
    }
    ++opened;
    ReadReport r = checker_.CheckAll(t.get());
    EXPECT_EQ(r.wrong, 0) << context;
    EXPECT_FALSE(r.verify.ok()) << context << ": VerifyChecksum missed it";
    // Without checksums too: right or Corruption, raw blocks included.
    if (block->compressed()) {
      r = checker_.Unverified(t.get());
      EXPECT_EQ(r.wrong, 0) << context;
      ++checked_unverified;
    } else {
      EXPECT_EQ(checker_.Unverified(t.get()).wrong, 0) << context;
    }
  }
  printf("%s %s: %zu bytes, %zu blocks, stride %d: %d refused at open, %d "
         "opened (%d checked without checksums), %.1f s\n",
         CodecName(codec()).c_str(), mmap() ? "mmap" : "pread",
         original_.size(), layout_.blocks.size(), static_cast<int>(stride),
         refused, opened, checked_unverified,
         std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       start)
             .count());
}

// Compressed blocks whose checksum holds but whose stream is bad: random
// bytes, or the stream's first byte (the declared length, for every codec)
// changed. Every read that needs the block says Corruption, checksums
// verified or not; none aborts (RocksDB's own decompression asserts on
// such streams). A stream whose last byte changed may still decode, to
// other bytes: that is another file, not damage a reader can see, so it is
// held only to the rule that nothing crashes or answers oddly.
TEST_P(CodecCorruptionTest, CraftedStreams) {
  std::mt19937_64 rng(17);
  int crafted = 0;
  for (size_t b = 0; b < layout_.blocks.size(); b += 2) {
    const BlockLocation& loc = layout_.blocks[b];
    if (!loc.compressed()) continue;
    const std::string stream =
        original_.substr(loc.file_offset, loc.contents_bytes);
    std::string random(stream.size(), '\0');
    for (auto& c : random) c = static_cast<char>(rng());
    std::string first = stream;
    first[0] = static_cast<char>(first[0] ^ 0x01);
    std::string last = stream;
    last.back() = static_cast<char>(last.back() ^ 0x5a);
    const struct {
      std::string bytes;
      const char* name;
      bool detectable;
    } variants[] = {{random, "random", true},
                    {first, "first byte", true},
                    {last, "last byte", false}};
    for (const auto& v : variants) {
      const std::string context = CodecName(codec()) + " block " +
                                  std::to_string(b) + " " + v.name;
      SCOPED_TRACE(context);
      checker_.set_context(context);
      file_.Write(WithBlock(original_, loc, v.bytes, codec()));
      std::unique_ptr<TableReader> t;
      ASSERT_OK(file_.Open(mmap(), &t));
      if (v.detectable) {
        ReadReport r = checker_.CheckAll(t.get());
        EXPECT_EQ(r.wrong, 0);
        EXPECT_TRUE(r.scan_corruption);
        r = checker_.Unverified(t.get());
        EXPECT_EQ(r.wrong, 0);
        EXPECT_TRUE(r.scan_corruption);
      } else {
        // A stream that still decodes under a valid checksum is other
        // valid data, which no reader can tell: no crash, no odd status.
        checker_.Unchecked(t.get());
      }
      ++crafted;
    }
  }
  EXPECT_GT(crafted, 0);
}

INSTANTIATE_TEST_SUITE_P(
    MmapAndCodecs, CodecCorruptionTest,
    testing::Combine(testing::Bool(), testing::ValuesIn(Codecs())),
    [](const testing::TestParamInfo<std::tuple<bool, CompressionType>>& i) {
      return std::string(std::get<0>(i.param) ? "mmap_" : "pread_") +
             CodecName(std::get<1>(i.param));
    });

// The builder stores a block raw rather than exceed the expansion bound the
// reader enforces: long runs of one byte compress past it with most codecs.
class CompressionBoundTest : public testing::TestWithParam<CompressionType> {
};

TEST_P(CompressionBoundTest, BuilderKeepsTheBound) {
  Model m;
  m.entries.emplace_back(IKey("big", 0, kTypeValue), std::string(200000, 'z'));
  m.entries.emplace_back(IKey("small", 0, kTypeValue), "abcabcabcabc");
  m.queries.push_back(Query{"big", kMaxSequenceNumber, GetContext::kFound,
                            m.entries[0].second});
  m.queries.push_back(Query{"small", kMaxSequenceNumber, GetContext::kFound,
                            m.entries[1].second});
  TableFile file("bound_" + CodecName(GetParam()));
  BuildModel(&file, m, RobinHoodTableOptions(), GetParam());
  const FileMap l = MapOf(&file);
  ASSERT_FALSE(l.blocks.empty());
  for (const auto& loc : l.blocks) {
    if (loc.compressed()) {
      EXPECT_LE(loc.logical_bytes, kMaxCompressionRatio * loc.contents_bytes);
    }
  }
  if (GetParam() == kZSTD) {
    // 200 KB of one byte is a few dozen bytes of zstd: far past the bound.
    EXPECT_FALSE(l.blocks[0].compressed());
  }
  Checker checker(m, file.path());
  for (bool mmap : {false, true}) {
    std::unique_ptr<TableReader> t;
    ASSERT_OK(file.Open(mmap, &t));
    ReadReport r = checker.CheckAll(t.get());
    EXPECT_EQ(r.wrong, 0);
    EXPECT_EQ(r.corruptions, 0);
  }
}

// A point lookup decodes a compressed block only up to its entry where
// the codec allows (LZ4): the bytes it gets are the block's first ones,
// at least as many as it asked for; a stream that breaks before them is
// refused; other codecs decode the whole.
TEST_P(CompressionBoundTest, PrefixIsTheBlocksStart) {
  std::string block;
  for (int i = 0; block.size() < 4096; ++i) {
    block += "entry " + std::to_string(i * 7919) + " abcabcabd ";
  }
  block.resize(4096);
  std::string stream;
  ASSERT_TRUE(Compress(GetParam(), CompressionOptions(), block, &stream));
  // One buffer for every decode, longer than the block and holding other
  // bytes, as a reader's reused buffer does: the bytes given back are the
  // block's alone.
  std::string buf(3 * block.size(), 'x');
  for (size_t prefix : {size_t{0}, size_t{1}, size_t{700}, size_t{4095},
                        size_t{4096}, SIZE_MAX}) {
    SCOPED_TRACE(prefix);
    Slice decoded;
    ASSERT_OK(UncompressPrefix(GetParam(), stream, block.size(), prefix, &buf,
                               &decoded));
    const std::string out = decoded.ToString();
    EXPECT_GE(out.size(), std::min(prefix, block.size()));
    EXPECT_EQ(out, block.substr(0, out.size()));
    const bool partial = GetParam() == kLZ4Compression ||
                         GetParam() == kLZ4HCCompression;
    if (!partial || prefix >= block.size()) {
      EXPECT_EQ(out.size(), block.size());
    }
  }
  // Cut short: the prefix it asks for lies past what the stream holds.
  Slice decoded;
  EXPECT_TRUE(UncompressPrefix(GetParam(), Slice(stream.data(), 8),
                               block.size(), 3000, &buf, &decoded)
                  .IsCorruption());
}

INSTANTIATE_TEST_SUITE_P(Codecs, CompressionBoundTest,
                         testing::ValuesIn(Codecs()),
                         [](const testing::TestParamInfo<CompressionType>& i) {
                           return CodecName(i.param);
                         });

}  // namespace
}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
