// Corruption tests. The house rule: a damaged file yields Status::Corruption
// naming the file and what was wrong (and where), never a crash and never a
// wrong answer. Every answer is checked against a model of what was written.
//
//  - Targeted damage at table level (the file opened through the factory's
//    NewTableReader), mmap on and off: bad magic, bad format version,
//    truncation at several lengths, the footer, the meta block, every
//    section, log block contents and trailers, and crafted sections (with
//    checksums recomputed) whose offsets and sizes point out of range.
// The sweep of every byte is corruption_sweep_test (codec_corruption_test
// for compressed logs); damage at DB level is db_corruption_test.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "db/dbformat.h"
#include "db/range_tombstone_fragmenter.h"
#include "file/random_access_file_reader.h"
#include "file/writable_file_writer.h"
#include "options/cf_options.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/file_system.h"
#include "rocksdb/merge_operator.h"
#include "rocksdb/metadata.h"
#include "rocksdb/options.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/table_properties.h"
#include "rocksdb_robinhood/robinhood_table.h"
#include "table/block_table.h"
#include "table/get_context.h"
#include "table/log_entry.h"
#include "table/robinhood_format.h"
#include "table/robinhood_table_reader.h"
#include "table/table_builder.h"
#include "tests/corruption_harness.h"
#include "tests/test_util.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {
namespace {

using namespace harness;  // NOLINT: the suite is written in its terms


// ---------------------------------------------------------------------------
// Targeted damage, table level.

class TableCorruptionTest : public testing::TestWithParam<bool> {
 protected:
  TableCorruptionTest()
      : model_(MakeModel(300, 1)),
        file_(std::string("targeted_") + (GetParam() ? "mmap" : "pread")),
        checker_(model_, file_.path()) {}

  void SetUp() override {
    original_ = BuildModel(&file_, model_, SmallBlocks());
    layout_ = MapOf(&file_);
    ASSERT_EQ(layout_.file_size, original_.size());
    ASSERT_GE(layout_.blocks.size(), 20u);
  }

  bool mmap() const { return GetParam(); }

  // The damaged file must be refused at open with a Corruption naming the
  // file and containing `what`.
  void ExpectRefused(const std::string& bytes, const std::string& what,
                     const std::string& context,
                     uint64_t size = ~uint64_t{0}) {
    SCOPED_TRACE(context);
    file_.Write(bytes);
    std::unique_ptr<TableReader> t;
    Status s = file_.Open(mmap(), &t, size);
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    EXPECT_TRUE(Contains(s.ToString(), file_.path())) << s.ToString();
    EXPECT_TRUE(Contains(s.ToString(), what))
        << s.ToString() << " does not say " << what;
  }

  // The damaged file opens (open leaves the samples to their first use),
  // and a Seek and VerifyChecksum are refused with a Corruption naming
  // the file and containing `what`.
  void ExpectSamplesRefused(const std::string& bytes, const std::string& what,
                            const std::string& context) {
    SCOPED_TRACE(context);
    file_.Write(bytes);
    std::unique_ptr<TableReader> t;
    ASSERT_OK(file_.Open(mmap(), &t));
    std::unique_ptr<InternalIterator> it(
        t->NewIterator(ReadOptions(), nullptr, nullptr, false,
                       TableReaderCaller::kUncategorized));
    it->Seek(IKey("k", kMaxSequenceNumber, kValueTypeForSeek));
    const Status v =
        t->VerifyChecksum(ReadOptions(), TableReaderCaller::kUncategorized);
    for (const Status& s : {it->status(), v}) {
      EXPECT_TRUE(s.IsCorruption()) << s.ToString();
      EXPECT_TRUE(Contains(s.ToString(), file_.path())) << s.ToString();
      EXPECT_TRUE(Contains(s.ToString(), what))
          << s.ToString() << " does not say " << what;
    }
  }

  // The damaged file opens; every read answers right or Corruption.
  ReadReport ExpectOpensAndReads(const std::string& bytes,
                                 const std::string& context) {
    SCOPED_TRACE(context);
    checker_.set_context(context);
    file_.Write(bytes);
    std::unique_ptr<TableReader> t;
    Status s = file_.Open(mmap(), &t);
    EXPECT_OK(s);
    if (!s.ok()) return ReadReport();
    ReadReport r = checker_.CheckAll(t.get());
    EXPECT_EQ(r.wrong, 0);
    EXPECT_EQ(checker_.Unverified(t.get()).wrong, 0);
    return r;
  }

  Model model_;
  TableFile file_;
  Checker checker_;
  std::string original_;
  FileMap layout_;
};

TEST_P(TableCorruptionTest, IntactFileReadsRight) {
  ReadReport r = ExpectOpensAndReads(original_, "intact");
  EXPECT_EQ(r.corruptions, 0);
  EXPECT_OK(r.verify);
}

TEST_P(TableCorruptionTest, BadMagicNumber) {
  for (uint64_t i = 0; i < 8; ++i) {
    ExpectRefused(Flipped(original_, layout_.file_size - 8 + i), "magic",
                  "magic byte " + std::to_string(i));
  }
  // Another format's magic number, PlainTable's: refused as not ours.
  std::string other = original_;
  EncodeFixed64(&other[layout_.file_size - 8], 0x8242229663bf9564ull);
  ExpectRefused(other, "not a RobinHoodTable file", "plain-table magic");
  // BlockBasedTable's: the factory hands the file to RocksDB's reader (a DB
  // switched to RobinHoodTable still reads its old files). Our footer has
  // its layout, so that reader opens the file; what it then makes of our
  // bytes is its business (docs/reliability.md). Here: it does not crash.
  EncodeFixed64(&other[layout_.file_size - 8], 0x88e241b785f4cff7ull);
  file_.Write(other);
  std::unique_ptr<TableReader> t;
  file_.Open(mmap(), &t).PermitUncheckedError();
}

TEST_P(TableCorruptionTest, BadFormatVersion) {
  const uint64_t at = layout_.file_size - 12;  // footer: fixed32 version
  // Plain small numbers (RocksDB's versions, and our version 1's field, 1,
  // which disagrees with the version 3 meta block), tagged ones naming no
  // version or one the meta block contradicts (2: a shorter meta block;
  // 4 to 11, the newest (from 8 on the meta block is longer), and 12, newer
  // still: the meta block that says the file's own version is intact),
  // and noise.
  static_assert(kFormatVersion == 11, "update the versions below");
  static_assert(kFormatVersionLogFile == 3, "and this file's");
  static_assert(kFormatVersionInlineFile == 5, "and this file's");
  for (uint32_t v : {0u, 1u, 2u, 3u, 5u, 6u, 7u, 8u, 9u, 10u, 11u, 0x101u,
                     kFooterVersionTag,
                     kFooterVersionTag | 1, kFooterVersionTag | 2,
                     kFooterVersionTag | 3, kFooterVersionTag | 4,
                     kFooterVersionTag | 5, kFooterVersionTag | 6,
                     kFooterVersionTag | 7, kFooterVersionTag | 8,
                     kFooterVersionTag | 9, kFooterVersionTag | 10,
                     kFooterVersionTag | 11, kFooterVersionTag | 12,
                     kFooterVersionTag | 0x10002,
                     0xffffffffu}) {
    if (v == FooterVersionField(layout_.meta.format_version)) continue;
    std::string bytes = original_;
    EncodeFixed32(&bytes[at], v);
    ExpectRefused(bytes, "", "footer format version " + std::to_string(v));
  }
  // A damaged version field of the meta block.
  ExpectRefused(Flipped(original_, layout_.meta_offset, 0x02), "meta block",
                "meta format version flipped");

  // A file that really is of a newer version (footer and meta agree, the
  // checksums hold) is NotSupported, not Corruption.
  std::string footer = original_.substr(layout_.footer_offset);
  EncodeFixed32(&footer[kFooterSize - 12],
                FooterVersionField(kFormatVersion + 1));
  const std::string newer =
      WithFooter(original_, layout_, footer, [](TableMeta* m) {
        m->format_version = kFormatVersion + 1;
      });
  file_.Write(newer);
  std::unique_ptr<TableReader> t;
  Status s = file_.Open(mmap(), &t);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_TRUE(Contains(s.ToString(), file_.path())) << s.ToString();

  // Damage that only looks newer: a footer naming a newer version whose
  // meta block does not hold (a faulty read can flip a bit of each), and
  // the file's own version with one bit flipped far ahead, its meta block
  // damaged too. Neither is a newer file.
  ExpectRefused(Flipped(newer, layout_.meta_offset + 8), "footer",
                "newer version, its meta block damaged");
  std::string far = Flipped(original_, layout_.meta_offset + 8);
  EncodeFixed32(&far[at], FooterVersionField(layout_.meta.format_version) ^ 0x80);
  ExpectRefused(far, "footer", "version bit 7 flipped, meta block damaged");
  // A newer footer naming a meta block elsewhere, or one too large to read.
  TableFooter f;
  ASSERT_TRUE(DecodeFooter(Slice(newer.data() + layout_.footer_offset,
                                 kFooterSize),
                           &f));
  for (const SectionHandle& h :
       {SectionHandle{f.meta.offset - 1, f.meta.size},
        SectionHandle{0, layout_.footer_offset - kTrailerSize},
        SectionHandle{f.meta.offset + 4, f.meta.size - 4}}) {
    std::string bad = newer;
    std::string handles;
    PutVarint64(&handles, f.metaindex.offset);
    PutVarint64(&handles, f.metaindex.size);
    PutVarint64(&handles, h.offset);
    PutVarint64(&handles, h.size);
    handles.resize(TableFooter::kPaddedHandles - 1, '\0');
    bad.replace(layout_.footer_offset + 1, handles.size(), handles);
    ExpectRefused(bad, "footer",
                  "newer footer naming " + std::to_string(h.offset) + "+" +
                      std::to_string(h.size));
  }
}

TEST_P(TableCorruptionTest, Truncated) {
  const FileMap& l = layout_;
  const std::vector<std::pair<uint64_t, std::string>> cuts = {
      {1, "one byte"},
      {52, "shorter than a footer"},
      {100, "inside the first log block"},
      {l.blocks[5].file_offset + 7, "inside log block 5"},
      {l.blocks[5].file_offset + l.blocks[5].contents_bytes + 2,
       "inside a log block trailer"},
      {l.meta.log_file_bytes, "at the end of the log"},
      {l.meta.index.offset + l.meta.index.size / 2, "inside the hash index"},
      {l.meta.sparse_index.offset + 3, "inside the sparse index"},
      {l.meta.properties.offset + l.meta.properties.size / 2,
       "inside the properties"},
      {l.meta_offset + 90, "inside the meta block"},
      {l.footer_offset, "before the footer"},
      {l.footer_offset + 20, "inside the footer"},
      {l.file_size - 1, "last byte"},
  };
  for (const auto& cut : cuts) {
    const std::string prefix = original_.substr(0, cut.first);
    // The size on disk, as a tool opening the file would pass it.
    ExpectRefused(prefix, "", "cut " + cut.second);
    // The size the table cache remembers: the file is shorter.
    ExpectRefused(prefix, "", "cut " + cut.second + ", original size passed",
                  l.file_size);
  }
  // Longer than written: garbage appended.
  ExpectRefused(original_ + std::string(100, '\0'), "", "100 bytes appended");
}

TEST_P(TableCorruptionTest, Footer) {
  const uint64_t f = layout_.footer_offset;
  // Checksum type, handles, padding, version, magic: each byte.
  for (uint64_t i = 0; i < kFooterSize; ++i) {
    ExpectRefused(Flipped(original_, f + i), "",
                  "footer byte " + std::to_string(i));
  }
  // Zero padding after the handles: our decoder refuses it before the
  // footer CRC in the meta block would.
  ExpectRefused(Flipped(original_, f + 38, 0x01), "footer: does not decode",
                "footer padding");
}

TEST_P(TableCorruptionTest, MetaBlock) {
  for (uint64_t i = 0; i < TableMeta::kEncodedLength + kTrailerSize; ++i) {
    ExpectRefused(Flipped(original_, layout_.meta_offset + i, 1u << (i % 8)),
                  "meta block", "meta byte " + std::to_string(i));
  }
}

TEST_P(TableCorruptionTest, SectionsVerifiedAtOpen) {
  const std::pair<const SectionHandle*, std::string> sections[] = {
      {&layout_.meta.index, "hash index"},
      {&layout_.meta.block_table, "block table"},
      {&layout_.meta.range_dels, "range deletions"},
      {&layout_.meta.properties, "properties"}};
  for (const auto& sec : sections) {
    const SectionHandle& h = *sec.first;
    std::vector<uint64_t> offsets = {h.offset, h.offset + 1,
                                     h.offset + h.size / 3,
                                     h.offset + h.size / 2,
                                     h.offset + h.size - 1};
    for (uint64_t i = 0; i < kTrailerSize; ++i) {
      offsets.push_back(h.offset + h.size + i);  // type byte and CRC
    }
    for (uint64_t off : offsets) {
      for (uint8_t mask : {0x01, 0x80, 0xff}) {
        ExpectRefused(Flipped(original_, off, mask), sec.second,
                      sec.second + " byte " + std::to_string(off - h.offset) +
                          " ^ " + std::to_string(mask));
      }
    }
  }
}

// The samples grow with the entries and point lookups never read them, so
// open leaves them alone: damage there opens, and the first Seek,
// VerifyChecksum and every later one report it, naming the part.
TEST_P(TableCorruptionTest, SamplesVerifiedAtFirstUse) {
  const SectionHandle& h = layout_.meta.sparse_index;
  std::vector<uint64_t> offsets = {h.offset, h.offset + h.size / 2,
                                   h.offset + h.size - 1};
  for (uint64_t i = 0; i < kTrailerSize; ++i) {
    offsets.push_back(h.offset + h.size + i);
  }
  for (uint64_t off : offsets) {
    SCOPED_TRACE("sparse index byte " + std::to_string(off - h.offset));
    file_.Write(Flipped(original_, off, 0x80));
    std::unique_ptr<TableReader> t;
    ASSERT_OK(file_.Open(mmap(), &t));
    for (int round = 0; round < 2; ++round) {
      std::unique_ptr<InternalIterator> it(
          t->NewIterator(ReadOptions(), nullptr, nullptr, false,
                         TableReaderCaller::kUncategorized));
      it->Seek(IKey("k", kMaxSequenceNumber, kValueTypeForSeek));
      EXPECT_FALSE(it->Valid());
      EXPECT_TRUE(it->status().IsCorruption()) << it->status().ToString();
      EXPECT_TRUE(Contains(it->status().ToString(), "sparse index"))
          << it->status().ToString();
      const Status v =
          t->VerifyChecksum(ReadOptions(), TableReaderCaller::kUncategorized);
      EXPECT_TRUE(v.IsCorruption()) << v.ToString();
      EXPECT_TRUE(Contains(v.ToString(), file_.path())) << v.ToString();
      EXPECT_TRUE(Contains(v.ToString(), "sparse index")) << v.ToString();
    }
  }
}

// The metaindex (RocksDB's list of meta blocks, for RocksDB's tools) is not
// read by lookups: damage there leaves every answer right, and
// VerifyChecksum reports it.
TEST_P(TableCorruptionTest, Metaindex) {
  const SectionHandle& h = layout_.meta.metaindex;
  for (uint64_t off : {h.offset, h.offset + h.size / 2, h.offset + h.size,
                       h.offset + h.size + 4}) {
    file_.Write(Flipped(original_, off));
    std::unique_ptr<TableReader> t;
    Status s = file_.Open(mmap(), &t);
    if (!s.ok()) {
      EXPECT_TRUE(checker_.IsNamedCorruption(s)) << s.ToString();
      continue;
    }
    ReadReport r = checker_.CheckAll(t.get());
    EXPECT_EQ(r.wrong, 0);
    EXPECT_TRUE(r.verify.IsCorruption()) << r.verify.ToString();
    EXPECT_TRUE(Contains(r.verify.ToString(), "metaindex"))
        << r.verify.ToString();
  }
}

TEST_P(TableCorruptionTest, LogBlock) {
  const size_t b = layout_.blocks.size() / 2;
  const BlockLocation loc = layout_.blocks[b];
  const uint64_t start = loc.file_offset;
  const uint64_t trailer = start + loc.contents_bytes;
  const std::vector<std::pair<uint64_t, std::string>> targets = {
      {start, "first byte"},
      {start + 1, "second byte"},
      {start + loc.contents_bytes / 2, "middle byte"},
      {trailer - 1, "last byte"},
      {trailer, "type byte"},
      {trailer + 1, "CRC byte 0"},
      {trailer + 4, "CRC byte 3"},
  };
  for (const auto& target : targets) {
    for (uint8_t mask : {0x01, 0x20, 0xff}) {
      const std::string context = "log block " + std::to_string(b) + " " +
                                  target.second + " ^ " +
                                  std::to_string(mask);
      ReadReport r = ExpectOpensAndReads(
          Flipped(original_, target.first, mask), context);
      SCOPED_TRACE(context);
      // The reads that touch the block say so; the others answer right
      // (ExpectOpensAndReads checked every answer).
      EXPECT_GT(r.corruptions, 0);
      EXPECT_TRUE(r.scan_corruption);
      EXPECT_TRUE(r.verify.IsCorruption()) << r.verify.ToString();
      EXPECT_TRUE(Contains(r.verify.ToString(), "log block"));
      EXPECT_TRUE(Contains(r.verify.ToString(),
                           "offset " + std::to_string(loc.file_offset)))
          << r.verify.ToString();
    }
  }
  // The first and the last block too.
  for (size_t blk : {size_t{0}, layout_.blocks.size() - 1}) {
    const BlockLocation l = layout_.blocks[blk];
    ReadReport r = ExpectOpensAndReads(
        Flipped(original_, l.file_offset + l.contents_bytes / 2),
        "block " + std::to_string(blk));
    EXPECT_TRUE(r.verify.IsCorruption());
    EXPECT_TRUE(r.scan_corruption);
  }
}

// A raw block's type byte damaged (the trailer's checksum covers it): every
// read of the block says Corruption, with checksums asked for or not, on
// every path (a positioned read, a whole block, the mapping), so the paths
// cannot disagree.
TEST_P(TableCorruptionTest, RawBlockTypeByteUnverified) {
  const BlockLocation loc = layout_.blocks[layout_.blocks.size() / 2];
  ASSERT_FALSE(loc.compressed());
  for (uint8_t mask : {0x01, 0x80}) {
    file_.Write(Flipped(original_, loc.file_offset + loc.contents_bytes, mask));
    std::unique_ptr<TableReader> t;
    ASSERT_OK(file_.Open(mmap(), &t));
    checker_.set_context("type byte ^ " + std::to_string(mask));
    ReadReport r = checker_.Unverified(t.get());
    EXPECT_EQ(r.wrong, 0);
    EXPECT_GT(r.corruptions, 0);
    EXPECT_TRUE(r.scan_corruption);
    r = checker_.CheckAll(t.get());
    EXPECT_EQ(r.wrong, 0);
    EXPECT_GT(r.corruptions, 0);
  }
}

// A range-tombstone iterator may outlive its reader (RocksDB keeps them in
// range-deletion aggregators while the table cache evicts readers): it
// must not point into the reader. Under ASan (tools/test_sanitized.sh) a
// use after free here fails the test.
TEST_P(TableCorruptionTest, RangeTombstoneIteratorOutlivesReader) {
  file_.Write(original_);
  std::unique_ptr<TableReader> t;
  ASSERT_OK(file_.Open(mmap(), &t));
  std::unique_ptr<FragmentedRangeTombstoneIterator> it(
      t->NewRangeTombstoneIterator(ReadOptions()));
  ASSERT_NE(it, nullptr);
  t.reset();
  size_t n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) ++n;
  EXPECT_EQ(n, model_.tombstones.size());
  it->Seek("key00160");
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->start_key(), "key00150");
}

// Crafted meta blocks whose checksum holds but whose offsets and sizes point
// out of range or disagree with the file.
TEST_P(TableCorruptionTest, CraftedMetaOutOfRange) {
  const uint64_t size = layout_.file_size;
  struct Case {
    const char* name;
    std::function<void(TableMeta*)> edit;
    const char* what;
  };
  const Case cases[] = {
      {"index past the end", [&](TableMeta* m) { m->index.offset = size + 1000; },
       "section out of place"},
      {"block table larger than the file",
       [&](TableMeta* m) { m->block_table.size = size * 2; },
       "section out of place"},
      {"properties at 2^63",
       [](TableMeta* m) { m->properties.offset = uint64_t{1} << 63; },
       "section out of place"},
      {"metaindex size wrapping around",
       [](TableMeta* m) { m->metaindex.size = ~uint64_t{0} - 2; },
       "section out of place"},
      {"sparse index one byte longer",
       [](TableMeta* m) { m->sparse_index.size += 1; }, "meta block"},
      {"range deletions one byte later",
       [](TableMeta* m) { m->range_dels.offset += 1; }, "meta block"},
      {"log past the end", [&](TableMeta* m) { m->log_file_bytes = size + 1; },
       "log past end"},
      {"log one byte shorter", [](TableMeta* m) { m->log_file_bytes -= 1; },
       "meta block"},
      {"logical log size wrong",
       [](TableMeta* m) { m->log_logical_bytes += 1; }, "block table"},
      {"more keys than entries",
       [](TableMeta* m) { m->num_keys = m->num_entries + 1; }, "meta block"},
      {"entries disagree with the properties",
       [](TableMeta* m) { m->num_entries += 1; }, "disagree"},
      {"address bits 41", [](TableMeta* m) { m->address_bits = 41; },
       "address bits"},
      {"max displacement beyond the index",
       [](TableMeta* m) { m->max_displacement = 0xffffffffu; }, "meta block"},
      {"index capacity zero", [](TableMeta* m) { m->index_capacity = 0; },
       "index geometry"},
      {"index slots one more",
       [](TableMeta* m) { m->index_slots += 1; }, "meta block"},
      // 8 * index_slots wraps around to the real index size: the capacity
      // would send probes far past the slots.
      {"index slots wrapping around",
       [](TableMeta* m) {
         m->index_slots += uint64_t{1} << 61;
         m->index_capacity += uint64_t{1} << 61;
       },
       "meta block"},
      {"unknown flags", [](TableMeta* m) { m->flags = 2; }, "flags"},
      {"inline flag on a file with a log",
       [](TableMeta* m) { m->flags = kInlineLayout; }, "inline file with a log"},
  };
  for (const Case& c : cases) {
    ExpectRefused(WithMeta(original_, layout_, c.edit), c.what, c.name);
  }
  // A newer format version in the meta block alone: NotSupported.
  file_.Write(WithMeta(original_, layout_, [](TableMeta* m) {
    m->format_version = kFormatVersion + 1;
  }));
  std::unique_ptr<TableReader> t;
  Status s = file_.Open(mmap(), &t);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
}

// Crafted footers that the meta block vouches for.
TEST_P(TableCorruptionTest, CraftedFooterOutOfRange) {
  const SectionHandle meta{layout_.meta_offset, TableMeta::kEncodedLength};
  const SectionHandle& mi = layout_.meta.metaindex;
  ExpectRefused(WithFooter(original_, layout_,
                           EncodeFooter(SectionHandle{layout_.file_size + 10,
                                                     mi.size},
                                       meta)),
                "footer: disagrees with the meta block", "metaindex handle past the end");
  ExpectRefused(
      WithFooter(original_, layout_,
                 EncodeFooter(mi, SectionHandle{meta.offset - 1, meta.size})),
      "footer: bad fields", "meta handle one byte early");
  ExpectRefused(
      WithFooter(original_, layout_,
                 EncodeFooter(mi, SectionHandle{~uint64_t{0} >> 1, meta.size})),
      "footer: bad fields", "meta handle past the end");
}

// Crafted sections whose checksums hold but whose contents point out of
// range: refused at open, or the reads that meet them say Corruption.
TEST_P(TableCorruptionTest, CraftedSectionsOutOfRange) {
  const TableMeta& meta = layout_.meta;
  // Block table: the first block one byte longer, or no blocks.
  {
    BlockTableBuilder bt;
    for (size_t b = 0; b < layout_.blocks.size(); ++b) {
      const BlockLocation& l = layout_.blocks[b];
      bt.Add(l.contents_bytes + kTrailerSize + (b == 0 ? 1 : 0),
             l.logical_bytes);
    }
    std::string contents = bt.Finish();
    if (contents.size() == meta.block_table.size) {
      ExpectRefused(WithSection(original_, meta.block_table.offset, contents),
                    "block table", "block 0 one byte longer");
    }
    std::string none(meta.block_table.size, '\0');  // count 0, then junk
    ExpectRefused(WithSection(original_, meta.block_table.offset, none),
                  "block table", "no blocks, trailing zeros");
    // A block count of 2^63: must not size an allocation.
    const std::string huge = WithCount(
        original_.substr(meta.block_table.offset, meta.block_table.size),
        uint64_t{1} << 63);
    ExpectRefused(WithSection(original_, meta.block_table.offset, huge),
                  "block table", "block count 2^63");
  }
  // Sparse index: a record count of 2^62, and the last record's address
  // past the log.
  {
    std::string contents = original_.substr(meta.sparse_index.offset,
                                            meta.sparse_index.size);
    const std::string huge = WithCount(contents, uint64_t{1} << 62);
    ExpectSamplesRefused(WithSection(original_, meta.sparse_index.offset, huge),
                  "sparse index", "record count 2^62");
    // The first record's address must be 0: make it 1. And a later
    // record's two-byte address delta made 16383, past the log.
    Slice in(contents);
    uint64_t n = 0;
    ASSERT_TRUE(GetVarint64(&in, &n));
    std::vector<size_t> delta_at;  // where each record's delta starts
    for (uint64_t i = 0; i < n; ++i) {
      uint32_t klen = 0;
      uint64_t delta = 0;
      ASSERT_TRUE(GetVarint32(&in, &klen));
      in.remove_prefix(klen);
      delta_at.push_back(contents.size() - in.size());
      ASSERT_TRUE(GetVarint64(&in, &delta));
    }
    ASSERT_TRUE(in.empty());
    std::string first = contents;
    first[delta_at[0]] = 1;
    ExpectSamplesRefused(WithSection(original_, meta.sparse_index.offset, first),
                  "sparse index", "first address 1");
    bool two_bytes = false;
    for (size_t i = n / 2; i < n && !two_bytes; ++i) {
      const size_t at = delta_at[i];
      if (static_cast<uint8_t>(contents[at]) < 0x80) continue;
      two_bytes = true;
      ASSERT_LT(meta.log_logical_bytes, 16383u);
      std::string past = contents;
      past[at] = static_cast<char>(0xff);
      past[at + 1] = static_cast<char>(0x7f);
      ExpectSamplesRefused(WithSection(original_, meta.sparse_index.offset, past),
                    "sparse index", "record " + std::to_string(i) +
                                        " address past the log");
    }
    EXPECT_TRUE(two_bytes) << "no two-byte address delta to stretch";
  }
  // Range deletions: a count that disagrees with the properties, and a
  // record that is not a range deletion.
  {
    std::string contents = original_.substr(meta.range_dels.offset,
                                            meta.range_dels.size);
    std::string more = contents;
    more[0] = static_cast<char>(more[0] + 1);
    ExpectRefused(WithSection(original_, meta.range_dels.offset, more),
                  "range deletions", "count one more");
    // First record: varint32 key length, then the key; its type byte is
    // the first byte of its last 8.
    std::string type = contents;
    const size_t klen = static_cast<uint8_t>(type[1]);
    type[2 + klen - 8] = static_cast<char>(kTypeValue);
    ExpectRefused(WithSection(original_, meta.range_dels.offset, type),
                  "range deletions", "record of type put");
    // A type byte past RocksDB's enum: ParseInternalKey asserts on it, so
    // the reader must not hand it over (this aborted the process once).
    type[2 + klen - 8] = static_cast<char>(0x7f);
    ExpectRefused(WithSection(original_, meta.range_dels.offset, type),
                  "range deletions", "record of type 0x7f");
    // A tombstone whose end sorts before its start: the fragmenter assumes
    // none does. The end key is the value after the key.
    std::string inverted = contents;
    const size_t vlen = static_cast<uint8_t>(inverted[2 + klen]);
    ASSERT_GT(vlen, 0u);
    inverted[2 + klen + 1] = '\0';
    ExpectRefused(WithSection(original_, meta.range_dels.offset, inverted),
                  "range deletions", "tombstone ending before its start");
  }
  // Properties: the block's hash-index flag set, checksum recomputed.
  // RocksDB's parser would initialise a hash index from the block's bytes
  // and assert; the reader checks the block's structure first.
  {
    std::string contents = original_.substr(meta.properties.offset,
                                            meta.properties.size);
    contents[contents.size() - 1] =
        static_cast<char>(contents[contents.size() - 1] | 0x80);
    ExpectRefused(WithSection(original_, meta.properties.offset, contents),
                  "properties", "hash index flag");
  }
  // Hash index: every used slot's address past the log. Opens (a slot's
  // address is checked when a lookup meets it); such lookups say
  // Corruption.
  {
    std::string slots = original_.substr(meta.index.offset, meta.index.size);
    const uint64_t addr_mask = (uint64_t{1} << meta.address_bits) - 1;
    uint64_t used = 0;
    for (size_t i = 0; i < slots.size(); i += 8) {
      uint64_t w = DecodeFixed64(&slots[i]);
      if (w == 0) continue;
      ++used;
      w = (w & ~addr_mask) | ((meta.log_logical_bytes + 10 + i) & addr_mask);
      EncodeFixed64(&slots[i], w);
    }
    ASSERT_EQ(used, meta.num_keys);
    ReadReport r = ExpectOpensAndReads(
        WithSection(original_, meta.index.offset, slots),
        "slot addresses past the log");
    EXPECT_GT(r.corruptions, 0);
    // Only lookups use the index: scans and VerifyChecksum are fine.
    EXPECT_OK(r.verify);
  }
}

TEST_P(TableCorruptionTest, CompressedLogBlock) {
  bool snappy = false;
  for (CompressionType c : GetSupportedCompressions()) {
    snappy |= c == kSnappyCompression;
  }
  if (!snappy) GTEST_SKIP() << "no snappy in this RocksDB";
  // Compressible values, so most blocks are stored compressed.
  Model m = model_;
  for (auto& e : m.entries) {
    for (size_t i = 0; i < e.second.size(); ++i) e.second[i] = "abab"[i % 4];
  }
  for (auto& q : m.queries) {
    for (size_t i = 0; i < q.value.size(); ++i) q.value[i] = "abab"[i % 4];
  }
  Checker checker(m, file_.path());
  const std::string bytes = BuildModel(&file_, m, SmallBlocks(), kSnappyCompression);
  FileMap l = MapOf(&file_);
  size_t compressed = 0;
  for (const auto& loc : l.blocks) compressed += loc.compressed();
  ASSERT_GT(compressed, l.blocks.size() / 2);
  for (size_t b = 0; b < l.blocks.size(); b += 3) {
    const BlockLocation& loc = l.blocks[b];
    for (uint64_t off : {loc.file_offset, loc.file_offset + 1,
                         loc.file_offset + loc.contents_bytes / 2,
                         loc.file_offset + loc.contents_bytes}) {
      const std::string context = "compressed block " + std::to_string(b) +
                                  " byte " +
                                  std::to_string(off - loc.file_offset);
      SCOPED_TRACE(context);
      checker.set_context(context);
      file_.Write(Flipped(bytes, off));
      std::unique_ptr<TableReader> t;
      ASSERT_OK(file_.Open(mmap(), &t));
      ReadReport r = checker.CheckAll(t.get());
      EXPECT_EQ(r.wrong, 0);
      EXPECT_TRUE(r.scan_corruption);
      EXPECT_TRUE(r.verify.IsCorruption());
      EXPECT_EQ(checker.Unverified(t.get()).wrong, 0);
    }
  }
}

// Every key of a file's pages sorts before every key of the log behind
// them. A log whose first key does not (its checksums intact: only a
// hostile writer makes one) reads as Corruption where an iterator crosses
// from one part to the other, either way, not as keys out of order.
TEST_P(TableCorruptionTest, LogTailKeyNotAfterThePages) {
  const LayoutCase c = AllLayouts().back();
  ASSERT_EQ(std::string(c.name), "paged_log");
  TableFile f(std::string("boundary_") + (mmap() ? "mmap" : "pread"));
  Model m;
  const std::string bytes = BuildLayoutCase(&f, c, 7, SmallBlocks(), &m);
  const FileMap l = MapOf(&f);
  ASSERT_FALSE(l.blocks.empty());
  const BlockLocation& first = l.blocks[0];
  ASSERT_FALSE(first.compressed());
  std::string contents = bytes.substr(first.file_offset, first.contents_bytes);
  LogEntry e;
  ASSERT_NE(DecodeLogEntry(contents.data(), contents.data() + contents.size(),
                           &e),
            nullptr);
  ASSERT_EQ(e.user_key[0], 'k');
  // "aey..." sorts before every key of the pages ("key...").
  contents[e.user_key.data() - contents.data()] = 'a';
  const std::string crafted = WithSection(bytes, first.file_offset, contents);

  for (const bool damaged : {false, true}) {
    f.Write(damaged ? crafted : bytes);
    std::unique_ptr<TableReader> t;
    ASSERT_OK(f.Open(mmap(), &t));
    for (const bool verify : {true, false}) {
      for (const bool forward : {true, false}) {
        SCOPED_TRACE(std::string(damaged ? "damaged" : "intact") +
                     (verify ? ", verified" : ", unverified") +
                     (forward ? ", forward" : ", backward"));
        ReadOptions ro;
        ro.verify_checksums = verify;
        std::unique_ptr<InternalIterator> it(
            t->NewIterator(ro, nullptr, nullptr, false,
                           TableReaderCaller::kUncategorized));
        size_t n = 0;
        forward ? it->SeekToFirst() : it->SeekToLast();
        for (; it->Valid(); forward ? it->Next() : it->Prev()) ++n;
        if (damaged) {
          // Stopped where it crossed: after the pages going forward, after
          // the log's entries going back.
          EXPECT_EQ(n, forward ? size_t(c.log_tail_from)
                               : size_t(c.keys - c.log_tail_from));
          EXPECT_TRUE(it->status().IsCorruption()) << it->status().ToString();
          EXPECT_TRUE(Contains(it->status().ToString(), f.path()));
          EXPECT_TRUE(Contains(it->status().ToString(),
                               "first key not after the pages' keys"))
              << it->status().ToString();
        } else {
          EXPECT_EQ(n, m.entries.size());
          EXPECT_OK(it->status());
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(MmapOnOff, TableCorruptionTest, testing::Bool(),
                         [](const testing::TestParamInfo<bool>& info) {
                           return info.param ? "mmap" : "pread";
                         });

}  // namespace
}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
