// Corruption tests. The house rule: a damaged file yields Status::Corruption
// naming the file and what was wrong (and where), never a crash and never a
// wrong answer. Every answer is checked against a model of what was written.
//
//  - Targeted damage at table level (the file opened through the factory's
//    NewTableReader), mmap on and off: bad magic, bad format version,
//    truncation at several lengths, the footer, the meta block, every
//    section, log block contents and trailers, and crafted sections (with
//    checksums recomputed) whose offsets and sizes point out of range.
//  - A sweep: every byte of a small file of many small log blocks flipped in
//    turn; each damaged copy must be refused at open, or answer every Get
//    (verify_checksums) and scan right or with Corruption, and
//    VerifyChecksum must report the damage. Reads without verify_checksums
//    may give wrong answers but must not crash.
//  - DB level: RocksDB with RobinHoodTable and paranoid_checks, a byte of a
//    flushed file's log damaged on disk: Get gives the right value or
//    Corruption, DB::VerifyChecksum reports Corruption.
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
    layout_ = LayoutOf(&file_);
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
    checker_.Unverified(t.get());
    return r;
  }

  Model model_;
  TableFile file_;
  Checker checker_;
  std::string original_;
  Layout layout_;
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
  // Another format's magic number: a block-based table's.
  std::string other = original_;
  EncodeFixed64(&other[layout_.file_size - 8], 0x88e241b785f4cff7ull);
  ExpectRefused(other, "not a RobinHoodTable file", "block-based magic");
}

TEST_P(TableCorruptionTest, BadFormatVersion) {
  const uint64_t at = layout_.file_size - 12;  // footer: fixed32 version
  for (uint32_t v : {0u, 2u, 3u, 5u, 6u, 0x101u, 0xffffffffu}) {
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
  EncodeFixed32(&footer[kFooterSize - 12], 2);
  file_.Write(WithFooter(original_, layout_, footer,
                         [](TableMeta* m) { m->format_version = 2; }));
  std::unique_ptr<TableReader> t;
  Status s = file_.Open(mmap(), &t);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_TRUE(Contains(s.ToString(), file_.path())) << s.ToString();
}

TEST_P(TableCorruptionTest, Truncated) {
  const Layout& l = layout_;
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
  // Zero padding after the handles: only the footer CRC sees it.
  ExpectRefused(Flipped(original_, f + 38, 0x01), "footer: checksum mismatch",
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
      {&layout_.meta.sparse_index, "sparse index"},
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

// A raw block's type byte damaged, read without checksums: the block
// table's sizes say the block is raw, and every path (a positioned read of
// one entry, a whole block, the mapping) reads it on those alone, so all
// answer right; they once disagreed (the mapping checked the byte, the
// positioned read did not). With checksums, every read of it says
// Corruption.
TEST_P(TableCorruptionTest, RawBlockTypeByteUnverified) {
  const BlockLocation loc = layout_.blocks[layout_.blocks.size() / 2];
  ASSERT_FALSE(loc.compressed());
  for (uint8_t mask : {0x01, 0x80}) {
    file_.Write(Flipped(original_, loc.file_offset + loc.contents_bytes, mask));
    std::unique_ptr<TableReader> t;
    ASSERT_OK(file_.Open(mmap(), &t));
    checker_.set_context("type byte ^ " + std::to_string(mask));
    ReadReport r = checker_.UnverifiedChecked(t.get());
    EXPECT_EQ(r.wrong, 0);
    EXPECT_EQ(r.corruptions, 0);
    EXPECT_FALSE(r.scan_corruption);
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
      {"unknown flags", [](TableMeta* m) { m->flags = 1; }, "flags"},
  };
  for (const Case& c : cases) {
    ExpectRefused(WithMeta(original_, layout_, c.edit), c.what, c.name);
  }
  // A newer format version in the meta block alone: NotSupported.
  file_.Write(WithMeta(original_, layout_,
                       [](TableMeta* m) { m->format_version = 2; }));
  std::unique_ptr<TableReader> t;
  Status s = file_.Open(mmap(), &t);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
}

// Crafted footers that the meta block vouches for.
TEST_P(TableCorruptionTest, CraftedFooterOutOfRange) {
  const SectionHandle meta{layout_.meta_offset, TableMeta::kEncodedLength};
  const SectionHandle& mi = layout_.meta.metaindex;
  ExpectRefused(WithFooter(original_, layout_,
                           BuildFooter(SectionHandle{layout_.file_size + 10,
                                                     mi.size},
                                       meta)),
                "footer: disagrees with the meta block", "metaindex handle past the end");
  ExpectRefused(
      WithFooter(original_, layout_,
                 BuildFooter(mi, SectionHandle{meta.offset - 1, meta.size})),
      "footer: bad fields", "meta handle one byte early");
  ExpectRefused(
      WithFooter(original_, layout_,
                 BuildFooter(mi, SectionHandle{~uint64_t{0} >> 1, meta.size})),
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
    ExpectRefused(WithSection(original_, meta.sparse_index.offset, huge),
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
    ExpectRefused(WithSection(original_, meta.sparse_index.offset, first),
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
      ExpectRefused(WithSection(original_, meta.sparse_index.offset, past),
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
  Layout l = LayoutOf(&file_);
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
      checker.Unverified(t.get());
    }
  }
}

INSTANTIATE_TEST_SUITE_P(MmapOnOff, TableCorruptionTest, testing::Bool(),
                         [](const testing::TestParamInfo<bool>& info) {
                           return info.param ? "mmap" : "pread";
                         });

// ---------------------------------------------------------------------------
// The sweep: every byte of a small file, flipped one at a time.

struct PartSummary {
  int flipped = 0;
  int refused = 0;        // Open said Corruption
  int opened = 0;         // opened; VerifyChecksum must then fail
  int reads_corrupt = 0;  // of the opened: some read said Corruption
  int verify_failed = 0;  // of the opened: VerifyChecksum said Corruption
  double seconds = 0;
};

// Flips bytes of a file in place.
class ByteEditor {
 public:
  explicit ByteEditor(const std::string& path)
      : fd_(open(path.c_str(), O_WRONLY)) {}
  ~ByteEditor() {
    if (fd_ >= 0) close(fd_);
  }
  bool ok() const { return fd_ >= 0; }
  bool Put(uint64_t offset, char c) {
    return pwrite(fd_, &c, 1, static_cast<off_t>(offset)) == 1;
  }

 private:
  const int fd_;
};

// Bytes of log block contents flipped: every one with mmap, every
// `stride`-th without (each read there is a system call, and the sweep
// would take four times as long); RH_SWEEP_STRIDE=1 flips every one there
// too. Every other byte of the file is always flipped. The full sweep finds
// the same as the strided one: every flip refused at open or reported by
// reads and VerifyChecksum.
uint64_t LogContentsStride(bool mmap) {
  const char* env = getenv("RH_SWEEP_STRIDE");
  const long v = env != nullptr ? atol(env) : (mmap ? 1 : 3);
  return v > 0 ? static_cast<uint64_t>(v) : 1;
}

class CorruptionSweep : public testing::TestWithParam<bool> {};

TEST_P(CorruptionSweep, EveryByteFlipped) {
  const bool mmap = GetParam();
  const Model model = MakeModel(200, 7);
  TableFile file(std::string("sweep_") + (mmap ? "mmap" : "pread"));
  const std::string original = BuildModel(&file, model, SmallBlocks());
  const Layout layout = LayoutOf(&file);
  ASSERT_GE(layout.blocks.size(), 15u);
  Checker checker(model, file.path());
  file.Write(original);
  ByteEditor editor(file.path());
  ASSERT_TRUE(editor.ok());
  const uint64_t stride = LogContentsStride(mmap);

  const auto start = std::chrono::steady_clock::now();
  std::map<std::string, PartSummary> summary;
  std::vector<uint64_t> harmless;
  for (uint64_t off = 0; off < original.size(); ++off) {
    if (checker.failures() > 40) break;  // enough to go on
    const std::string part = layout.PartOf(off);
    if (part == "log block contents" && off % stride != 0) continue;
    const auto part_start = std::chrono::steady_clock::now();
    // A different single bit for consecutive bytes (a stride of 3 cycles
    // through all 8 too): a CRC32C detects any one-bit error, so the bit hardly
    // matters to checksums, but decoders see every kind of change.
    const uint8_t mask = static_cast<uint8_t>(1u << (off % 8));
    const std::string context = "byte " + std::to_string(off) + " (" + part +
                                ") ^ " + std::to_string(mask) +
                                (mmap ? ", mmap" : ", pread");
    checker.set_context(context);
    PartSummary& sum = summary[part];
    sum.flipped++;
    ASSERT_TRUE(editor.Put(off, static_cast<char>(original[off] ^ mask)));
    {
      std::unique_ptr<TableReader> t;
      Status s = file.Open(mmap, &t);
      if (!s.ok()) {
        if (checker.IsNamedCorruption(s)) {
          sum.refused++;
        } else {
          ADD_FAILURE() << context << ": open: " << s.ToString();
        }
      } else {
        sum.opened++;
        ReadReport r = checker.CheckAll(t.get());
        if (r.corruptions > 0) sum.reads_corrupt++;
        if (r.verify.ok()) {
          harmless.push_back(off);
        } else {
          sum.verify_failed++;
        }
        if (off < layout.meta.log_file_bytes) {
          // Every block is read by a scan, which verifies it.
          EXPECT_TRUE(r.scan_corruption) << context;
          checker.Unverified(t.get());
        }
      }
    }
    ASSERT_TRUE(editor.Put(off, original[off]));
    sum.seconds += std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - part_start)
                       .count();
  }
  const double seconds = std::chrono::duration<double>(
                             std::chrono::steady_clock::now() - start)
                             .count();

  // Every byte is covered by a CRC32C: no flip goes unnoticed.
  EXPECT_TRUE(harmless.empty())
      << harmless.size() << " flipped bytes pass VerifyChecksum, first at "
      << (harmless.empty() ? 0 : harmless[0]) << " ("
      << (harmless.empty() ? "" : layout.PartOf(harmless[0])) << ")";
  printf("%s: %zu bytes, %zu log blocks, log contents stride %d, %.1f s\n",
         mmap ? "mmap" : "pread", original.size(), layout.blocks.size(),
         static_cast<int>(stride), seconds);
  printf("  %-24s %7s %7s %7s %13s %13s %6s\n", "part", "flipped", "refused",
         "opened", "reads corrupt", "verify failed", "s");
  for (const auto& p : summary) {
    printf("  %-24s %7d %7d %7d %13d %13d %6.2f\n", p.first.c_str(),
           p.second.flipped, p.second.refused, p.second.opened,
           p.second.reads_corrupt, p.second.verify_failed, p.second.seconds);
  }
}

INSTANTIATE_TEST_SUITE_P(MmapOnOff, CorruptionSweep, testing::Bool(),
                         [](const testing::TestParamInfo<bool>& info) {
                           return info.param ? "mmap" : "pread";
                         });

// ---------------------------------------------------------------------------
// DB level: RocksDB with RobinHoodTable, a flushed file damaged on disk.

std::string DBKey(int i) {
  char buf[16];
  snprintf(buf, sizeof(buf), "key%06d", i);
  return buf;
}

std::string DBValue(int i) {
  std::string v = "value" + std::to_string(i) + ":";
  v.resize(5 + (i * 37) % 90, static_cast<char>('a' + i % 26));
  return v;
}

class DBCorruptionTest
    : public testing::TestWithParam<std::tuple<bool, CompressionType>> {
 protected:
  static constexpr int kKeys = 600;

  DBCorruptionTest()
      : dbname_(test_util::TempPath(
            "corruption", std::string("db_") +
                              (std::get<0>(GetParam()) ? "mmap_" : "pread_") +
                              std::to_string(std::get<1>(GetParam())))) {
    options_.create_if_missing = true;
    options_.paranoid_checks = true;
    options_.allow_mmap_reads = std::get<0>(GetParam());
    options_.compression = std::get<1>(GetParam());
    options_.disable_auto_compactions = true;
    RobinHoodTableOptions rh;
    rh.log_block_size = 256;  // small blocks: damage costs few keys
    options_.table_factory.reset(NewRobinHoodTableFactory(rh));
    DestroyDB(dbname_, options_);
  }
  ~DBCorruptionTest() override {
    db_.reset();
    DestroyDB(dbname_, options_);
  }

  Status Open() {
    db_.reset();
    return test_util::OpenDB(options_, dbname_, &db_);
  }

  // Writes the keys and flushes them into one file; returns its path.
  std::string FillOneFile() {
    EXPECT_OK(Open());
    for (int i = 0; i < kKeys; ++i) {
      EXPECT_OK(db_->Put(WriteOptions(), DBKey(i), DBValue(i)));
    }
    EXPECT_OK(db_->Flush(FlushOptions()));
    std::vector<LiveFileMetaData> files;
    db_->GetLiveFilesMetaData(&files);
    EXPECT_EQ(files.size(), 1u);
    db_.reset();
    if (files.empty()) return "";
    file_name_ = files[0].name;  // "/000009.sst"
    if (!file_name_.empty() && file_name_[0] == '/') file_name_.erase(0, 1);
    return files[0].db_path + "/" + file_name_;
  }

  bool NamesTheFile(const Status& s) const {
    return s.IsCorruption() && Contains(s.ToString(), file_name_);
  }

  struct Answers {
    int right = 0;
    int corruptions = 0;
    bool scan_corruption = false;
  };

  // Every read answers right or Corruption naming the file.
  Answers ReadEverything() {
    Answers a;
    for (int i = 0; i < kKeys + 20; ++i) {
      std::string v;
      Status s = db_->Get(ReadOptions(), DBKey(i), &v);
      if (s.ok() && i < kKeys && v == DBValue(i)) {
        a.right++;
      } else if (s.IsNotFound() && i >= kKeys) {
        a.right++;
      } else if (NamesTheFile(s)) {
        a.corruptions++;
      } else {
        ADD_FAILURE() << "Get(" << DBKey(i) << "): " << s.ToString() << " \""
                      << v << "\"";
      }
    }
    std::vector<std::string> keys;
    for (int i = 0; i < kKeys; ++i) keys.push_back(DBKey(i));
    std::vector<Slice> slices(keys.begin(), keys.end());
    std::vector<std::string> values;
    std::vector<Status> statuses =
        db_->MultiGet(ReadOptions(), slices, &values);
    for (int i = 0; i < kKeys; ++i) {
      if (!(statuses[i].ok() && values[i] == DBValue(i)) &&
          !NamesTheFile(statuses[i])) {
        ADD_FAILURE() << "MultiGet(" << DBKey(i)
                      << "): " << statuses[i].ToString();
      }
    }
    std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions()));
    int i = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next(), ++i) {
      if (i >= kKeys || it->key() != DBKey(i) || it->value() != DBValue(i)) {
        ADD_FAILURE() << "scan: entry " << i << " is "
                      << it->key().ToString();
        break;
      }
    }
    if (!it->status().ok()) {
      a.scan_corruption = true;
      EXPECT_TRUE(NamesTheFile(it->status())) << it->status().ToString();
    } else {
      EXPECT_EQ(i, kKeys) << "scan ended cleanly early";
    }
    // Without checksums: any answer, but no crash.
    ReadOptions unverified;
    unverified.verify_checksums = false;
    for (int k = 0; k < kKeys; ++k) {
      std::string v;
      db_->Get(unverified, DBKey(k), &v).PermitUncheckedError();
    }
    std::unique_ptr<Iterator> it2(db_->NewIterator(unverified));
    for (it2->SeekToFirst(); it2->Valid(); it2->Next()) {
    }
    return a;
  }

  const std::string dbname_;
  Options options_;
  std::unique_ptr<DB> db_;
  std::string file_name_;
};

TEST_P(DBCorruptionTest, DamagedLogByte) {
  const std::string sst = FillOneFile();
  ASSERT_FALSE(sst.empty());
  std::string original;
  ASSERT_OK(ReadFileToString(Env::Default(), sst, &original));
  TableFile table(sst, /*existing=*/true);
  const Layout layout = LayoutOf(&table);
  ASSERT_GE(layout.blocks.size(), 10u);
  const BlockLocation loc = layout.blocks[layout.blocks.size() / 2];
  const std::vector<std::pair<uint64_t, std::string>> targets = {
      {loc.file_offset + loc.contents_bytes / 2, "a middle byte"},
      {loc.file_offset, "the first byte"},
      {loc.file_offset + loc.contents_bytes, "the trailer's type byte"},
      {loc.file_offset + loc.contents_bytes + 2, "a trailer CRC byte"},
  };
  for (const auto& target : targets) {
    SCOPED_TRACE("log block at " + std::to_string(loc.file_offset) + ": " +
                 target.second + " flipped");
    ASSERT_OK(WriteStringToFile(Env::Default(),
                                Flipped(original, target.first, 0x10), sst,
                                false));
    ASSERT_OK(Open());  // the log is not read at open
    for (int round = 0; round < 2; ++round) {
      Answers a = ReadEverything();
      EXPECT_GT(a.corruptions, 0);
      EXPECT_GT(a.right, kKeys / 2);
      EXPECT_TRUE(a.scan_corruption);
    }
    Status s = db_->VerifyChecksum();
    EXPECT_TRUE(NamesTheFile(s)) << s.ToString();
    EXPECT_TRUE(Contains(s.ToString(), "log block")) << s.ToString();
    db_.reset();
  }
  ASSERT_OK(WriteStringToFile(Env::Default(), original, sst, false));
  ASSERT_OK(Open());
  Answers a = ReadEverything();
  EXPECT_EQ(a.right, kKeys + 20);
  EXPECT_OK(db_->VerifyChecksum());
}

// Damage in a section verified at open: the DB refuses to open, or every
// read of the file says Corruption.
TEST_P(DBCorruptionTest, DamagedIndexOrFooter) {
  const std::string sst = FillOneFile();
  ASSERT_FALSE(sst.empty());
  std::string original;
  ASSERT_OK(ReadFileToString(Env::Default(), sst, &original));
  TableFile table(sst, /*existing=*/true);
  const Layout layout = LayoutOf(&table);
  for (uint64_t off : {layout.meta.index.offset + layout.meta.index.size / 2,
                       layout.meta.sparse_index.offset + 1,
                       layout.meta_offset + 40, layout.file_size - 3}) {
    SCOPED_TRACE("byte " + std::to_string(off) + " (" + layout.PartOf(off) +
                 ") flipped");
    ASSERT_OK(WriteStringToFile(Env::Default(), Flipped(original, off), sst,
                                false));
    Status s = Open();
    if (!s.ok()) {
      EXPECT_TRUE(NamesTheFile(s)) << s.ToString();
      continue;
    }
    Answers a = ReadEverything();
    EXPECT_EQ(a.right, 20);  // only the absent keys, found absent
    EXPECT_TRUE(NamesTheFile(db_->VerifyChecksum()));
    db_.reset();
  }
}

// Ingestion writes the global sequence number into the properties block
// after its checksum was taken: the reader accepts exactly that change, and
// damage to the written value itself still shows.
TEST_P(DBCorruptionTest, IngestedFileWithGlobalSeqno) {
  const std::string ext = dbname_ + "_ingest.sst";
  {
    SstFileWriter writer(EnvOptions(), options_);
    ASSERT_OK(writer.Open(ext));
    for (int i = 0; i < 300; ++i) ASSERT_OK(writer.Put(DBKey(i), DBValue(i)));
    ASSERT_OK(writer.Finish());
  }
  ASSERT_OK(Open());
  ASSERT_OK(db_->Put(WriteOptions(), DBKey(5), "older"));  // overlaps
  IngestExternalFileOptions ifo;
  ifo.write_global_seqno = true;
  ifo.move_files = false;
  ASSERT_OK(db_->IngestExternalFile({ext}, ifo));
  Env::Default()->DeleteFile(ext);
  // The ingested file is the one with a global seqno (the other holds the
  // flushed memtable).
  TablePropertiesCollection props;
  ASSERT_OK(db_->GetPropertiesOfAllTables(&props));
  std::string sst;
  uint64_t seqno_at = 0;
  for (const auto& p : props) {
    if (p.second->external_sst_file_global_seqno_offset > 0) {
      sst = p.first;
      seqno_at = p.second->external_sst_file_global_seqno_offset;
    }
  }
  ASSERT_FALSE(sst.empty());
  file_name_ = sst.substr(sst.rfind('/') + 1);
  for (int i = 0; i < 300; ++i) {
    std::string v;
    ASSERT_OK(db_->Get(ReadOptions(), DBKey(i), &v));
    ASSERT_EQ(v, DBValue(i));
  }
  ASSERT_OK(db_->VerifyChecksum());
  db_.reset();

  std::string original;
  ASSERT_OK(ReadFileToString(Env::Default(), sst, &original));
  ASSERT_NE(DecodeFixed64(&original[seqno_at]), 0u);  // written in place
  ASSERT_OK(Open());
  ASSERT_OK(db_->VerifyChecksum());
  db_.reset();
  // The global seqno's lowest byte, and a byte elsewhere in the block.
  for (uint64_t off : {seqno_at, seqno_at - 20}) {
    ASSERT_OK(WriteStringToFile(Env::Default(), Flipped(original, off, 0x04),
                                sst, false));
    Status s = Open();
    if (!s.ok()) {
      EXPECT_TRUE(NamesTheFile(s)) << s.ToString();
      continue;
    }
    for (int i = 0; i < 300; ++i) {
      std::string v;
      s = db_->Get(ReadOptions(), DBKey(i), &v);
      EXPECT_TRUE(NamesTheFile(s)) << DBKey(i) << ": " << s.ToString();
    }
    EXPECT_TRUE(NamesTheFile(db_->VerifyChecksum()));
    db_.reset();
  }
}

std::vector<CompressionType> Codecs() {
  std::vector<CompressionType> out = {kNoCompression};
  for (CompressionType c : GetSupportedCompressions()) {
    if (c == kSnappyCompression) out.push_back(c);
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(
    MmapAndCodecs, DBCorruptionTest,
    testing::Combine(testing::Bool(), testing::ValuesIn(Codecs())),
    [](const testing::TestParamInfo<std::tuple<bool, CompressionType>>& info) {
      return std::string(std::get<0>(info.param) ? "mmap" : "pread") +
             (std::get<1>(info.param) == kNoCompression ? "_raw" : "_snappy");
    });

}  // namespace
}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
