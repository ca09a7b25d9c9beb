// Unit tests of the fixed parts of the format (robinhood_format.h,
// table_meta.h), byte for byte: the trailer, a section handle, the meta
// block's 180 bytes and the footer, and the one shape of corruption errors.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "table/crc32c_fast.h"
#include "table/robinhood_format.h"
#include "table/table_meta.h"
#include "tests/test_util.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {
namespace {

std::string Hex(const std::string& s) { return Slice(s).ToString(true); }

TEST(FormatTest, Trailer) {
  std::string t;
  AppendTrailer("abc", kNoCompression, &t);
  ASSERT_EQ(t.size(), kTrailerSize);
  // Type byte, then the masked CRC32C of the contents and the type byte.
  const char with_type[] = {'a', 'b', 'c', 0};
  const uint32_t crc = crc32c::Mask(crc32c::Value(with_type, 4));
  std::string want(1, '\0');
  PutFixed32(&want, crc);
  EXPECT_EQ(Hex(t), Hex(want));
  EXPECT_OK(VerifyTrailer("abc", t.data(), "f", "part", 9));
  // The type byte is covered: a snappy trailer differs in all five bytes'
  // meaning, and does not verify a raw one.
  std::string snappy;
  AppendTrailer("abc", kSnappyCompression, &snappy);
  EXPECT_EQ(snappy[0], static_cast<char>(kSnappyCompression));
  t[0] = static_cast<char>(kSnappyCompression);
  Status s = VerifyTrailer("abc", t.data(), "f.sst", "log block", 9);
  EXPECT_EQ(s.ToString(),
            "Corruption: f.sst: log block: checksum mismatch at offset 9");
}

TEST(FormatTest, CorruptionShape) {
  EXPECT_EQ(CorruptionAt("/d/1.sst", "block table", "trailing bytes", 4096)
                .ToString(),
            "Corruption: /d/1.sst: block table: trailing bytes at offset 4096");
}

// Tools get a corruption error's fields from the reader, not by parsing
// its text; only for the error this thread made last.
TEST(FormatTest, CorruptionFields) {
  const Status s = CorruptionAt("/d/2.sst", "sparse index", "truncated", 77);
  const CorruptionRecord* f = CorruptionFields(s);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->file, "/d/2.sst");
  EXPECT_EQ(f->part, "sparse index");
  EXPECT_EQ(f->detail, "truncated");
  EXPECT_EQ(f->offset, 77u);
  EXPECT_EQ(f->WithoutFile(), "sparse index: truncated at offset 77");
  // Another status, or an older one, has none.
  EXPECT_EQ(CorruptionFields(Status::Corruption("elsewhere")), nullptr);
  const Status later = CorruptionAt("/d/2.sst", "footer", "bad fields", 9);
  EXPECT_EQ(CorruptionFields(s), nullptr);
  EXPECT_NE(CorruptionFields(later), nullptr);
  EXPECT_EQ(CorruptionFields(Status::OK()), nullptr);
}

TEST(FormatTest, SectionHandle) {
  SectionHandle h{0x0102030405060708ull, 0x1112131415161718ull};
  std::string enc;
  h.EncodeTo(&enc);
  EXPECT_EQ(Hex(enc), "08070605040302011817161514131211");
  Slice in(enc);
  SectionHandle back;
  ASSERT_TRUE(back.DecodeFrom(&in));
  EXPECT_TRUE(in.empty());
  EXPECT_EQ(back.offset, h.offset);
  EXPECT_EQ(back.size, h.size);
  EXPECT_EQ(back.end_with_trailer(), h.offset + h.size + kTrailerSize);
  Slice short_input(enc.data(), 15);
  EXPECT_FALSE(back.DecodeFrom(&short_input));
}

// A meta block of a small consistent file: every field at its offset.
TableMeta SampleMeta() {
  TableMeta m;
  m.hash_seed = 0x1122334455667788ull;
  m.num_entries = 3;
  m.num_keys = 2;
  m.log_file_bytes = 105;  // one raw block of 100 bytes and its trailer
  m.log_logical_bytes = 100;
  m.log_block_size = 4096;
  m.sparse_interval = 16;
  m.index_capacity = 3;
  m.index_slots = 3;
  m.address_bits = 32;
  m.max_displacement = 1;
  uint64_t pos = 105;
  for (SectionHandle* h : {&m.index, &m.block_table, &m.sparse_index,
                           &m.range_dels, &m.filter, &m.properties,
                           &m.metaindex}) {
    h->offset = pos;
    h->size = h == &m.index ? 24 : 10;
    pos = h->end_with_trailer();
  }
  m.footer_crc = 0xa1b2c3d4;
  return m;
}

TEST(FormatTest, MetaBlockBytes) {
  const TableMeta m = SampleMeta();
  std::string enc;
  m.EncodeTo(&enc);
  ASSERT_EQ(enc.size(), TableMeta::kEncodedLength);
  ASSERT_EQ(TableMeta::kEncodedLength, 196u);
  EXPECT_EQ(DecodeFixed32(&enc[0]), kFormatVersionLogFile);
  EXPECT_EQ(DecodeFixed32(&enc[4]), 0u);  // flags
  EXPECT_EQ(DecodeFixed64(&enc[8]), m.hash_seed);
  EXPECT_EQ(DecodeFixed64(&enc[16]), 3u);    // entries
  EXPECT_EQ(DecodeFixed64(&enc[24]), 2u);    // keys
  EXPECT_EQ(DecodeFixed64(&enc[32]), 105u);  // log file bytes
  EXPECT_EQ(DecodeFixed64(&enc[40]), 100u);  // log logical bytes
  EXPECT_EQ(DecodeFixed32(&enc[48]), 4096u);
  EXPECT_EQ(DecodeFixed32(&enc[52]), 16u);
  EXPECT_EQ(DecodeFixed64(&enc[56]), 3u);  // capacity
  EXPECT_EQ(DecodeFixed64(&enc[64]), 3u);  // slots
  EXPECT_EQ(DecodeFixed32(&enc[72]), 32u);
  EXPECT_EQ(DecodeFixed32(&enc[76]), 1u);
  EXPECT_EQ(DecodeFixed64(&enc[80]), 105u);  // index offset
  EXPECT_EQ(DecodeFixed64(&enc[88]), 24u);   // index size
  EXPECT_EQ(DecodeFixed64(&enc[144]), m.filter.offset);  // version 3 on
  EXPECT_EQ(DecodeFixed64(&enc[152]), 10u);
  EXPECT_EQ(DecodeFixed64(&enc[160]), m.properties.offset);
  EXPECT_EQ(DecodeFixed64(&enc[176]), m.metaindex.offset);
  EXPECT_EQ(DecodeFixed32(&enc[192]), 0xa1b2c3d4u);

  // The file it describes ends with this block, its trailer and a footer.
  const uint64_t file_size =
      m.metaindex.end_with_trailer() + 196 + kTrailerSize + kFooterSize;
  TableMeta back;
  ASSERT_OK(back.DecodeFrom(enc, file_size, "f"));
  std::string again;
  back.EncodeTo(&again);
  EXPECT_EQ(Hex(again), Hex(enc));
  EXPECT_EQ(MetaHandleOf(file_size, m.format_version).offset,
            m.metaindex.end_with_trailer());

  // Invariants DecodeFrom checks, each named with the block's offset.
  auto refused = [&](void (*edit)(TableMeta*), const char* what) {
    TableMeta bad = SampleMeta();
    edit(&bad);
    std::string b;
    bad.EncodeTo(&b);
    TableMeta out;
    Status s = out.DecodeFrom(b, file_size, "f");
    EXPECT_FALSE(s.ok()) << what;
    EXPECT_NE(s.ToString().find(what), std::string::npos) << s.ToString();
  };
  refused([](TableMeta* t) { t->flags = 2; }, "unknown flags");
  refused([](TableMeta* t) { t->flags = kInlineLayout; },
          "inline file with a log");
  refused(
      [](TableMeta* t) {
        t->format_version = 1;
        t->flags = kInlineLayout;
      },
      "unknown flags");
  refused([](TableMeta* t) { t->num_keys = 4; }, "more distinct keys");
  refused([](TableMeta* t) { t->address_bits = 41; }, "address bits");
  refused([](TableMeta* t) { t->index_slots = 2; }, "index geometry");
  refused([](TableMeta* t) { t->index.size = 16; }, "index size");
  refused([](TableMeta* t) { t->sparse_index.offset += 1; },
          "section out of place");
  refused([](TableMeta* t) { t->filter.size += 1; }, "section out of place");
  refused([](TableMeta* t) { t->format_version = kFormatVersion + 1; },
          "format version");
  refused([](TableMeta* t) { t->format_version = 0; }, "format version");
}

// A paged file's meta block: the page size is the pages' section over
// their count, a power of two from 4 KiB to 64 KiB, and 4 KiB before
// version 7.
TEST(FormatTest, PagedGeometry) {
  auto decode = [](uint32_t version, uint64_t pages, uint64_t section,
                   uint64_t entries) {
    TableMeta m;
    m.format_version = version;
    m.flags = kPagedLayout;
    m.num_entries = m.num_keys = entries;
    m.log_block_size = 0;
    m.address_bits = 0;
    m.index_capacity = m.index_slots = pages;
    uint64_t pos = 0;
    for (SectionHandle* h : {&m.index, &m.block_table, &m.sparse_index,
                             &m.range_dels, &m.filter, &m.properties,
                             &m.metaindex}) {
      h->offset = pos;
      h->size = h == &m.index ? section : 10;
      pos = h->end_with_trailer();
    }
    std::string enc;
    m.EncodeTo(&enc);
    TableMeta out;
    Status s = out.DecodeFrom(
        enc, pos + TableMeta::kEncodedLength + kTrailerSize + kFooterSize,
        "f");
    return s.ok() ? std::to_string(out.page_bytes()) : s.ToString();
  };
  EXPECT_EQ(decode(6, 3, 3 * 4096, 9), "4096");
  EXPECT_EQ(decode(7, 3, 3 * 4096, 9), "4096");
  EXPECT_EQ(decode(7, 3, 3 * 8192, 9), "8192");
  EXPECT_EQ(decode(7, 2, 2 * 65536, 2 * 13106), "65536");
  for (const std::string& refused :
       {decode(6, 3, 3 * 8192, 9), decode(7, 3, 3 * 6144, 9),
        decode(7, 3, 3 * 2048, 9), decode(7, 1, 131072, 9),
        decode(7, 3, 3 * 8192 + 1, 9), decode(7, 2, 2 * 65536, 2 * 13106 + 1),
        decode(7, 3, 3 * 4096, 2)}) {
    EXPECT_NE(refused.find("page geometry"), std::string::npos) << refused;
  }
}

// Version 8's meta block: a paged file with a log tail. 56 bytes more than
// version 3's, after its handles: the pages' entries, the log's hash index
// geometry and its two handles. The log lies between the pages and the
// log's hash index, and each part reads as a file of its layout alone.
TEST(FormatTest, LogTailMetaBlock) {
  auto sample = []() {
    TableMeta m;
    m.format_version = kFormatVersionLogTail;
    m.flags = kPagedLayout | kLogTail;
    m.hash_seed = 7;
    m.page_entries = 30;
    m.num_entries = 45;  // 15 in the log, of 10 keys
    m.num_keys = 40;
    m.log_file_bytes = 205;
    m.log_logical_bytes = 200;
    m.log_block_size = 4096;
    m.sparse_interval = 16;
    m.index_capacity = m.index_slots = 2;  // pages
    m.address_bits = 32;
    m.max_displacement = 1;
    m.tail_capacity = 12;
    m.tail_slots = 13;
    uint64_t pos = 0;
    for (SectionHandle* h :
         {&m.index, &m.tail_index, &m.tail_blocks, &m.block_table,
          &m.sparse_index, &m.range_dels, &m.filter, &m.properties,
          &m.metaindex}) {
      h->offset = pos;
      h->size = h == &m.index ? 2 * 4096 : h == &m.tail_index ? 13 * 8 : 10;
      pos = h->end_with_trailer();
      if (h == &m.index) pos += m.log_file_bytes;
    }
    m.footer_crc = 0x01020304;
    return m;
  };
  const TableMeta m = sample();
  const uint64_t file_size = m.metaindex.end_with_trailer() +
                             TableMeta::kEncodedLengthV8 + kTrailerSize +
                             kFooterSize;
  std::string enc;
  m.EncodeTo(&enc);
  ASSERT_EQ(enc.size(), 252u);
  ASSERT_EQ(TableMeta::EncodedLength(kFormatVersionLogTail), 252u);
  EXPECT_EQ(DecodeFixed32(&enc[4]), kPagedLayout | kLogTail);
  EXPECT_EQ(DecodeFixed64(&enc[80]), 0u);            // pages at 0
  EXPECT_EQ(DecodeFixed64(&enc[96]), m.block_table.offset);  // page index
  EXPECT_EQ(DecodeFixed64(&enc[192]), 30u);          // page entries
  EXPECT_EQ(DecodeFixed64(&enc[200]), 12u);          // log index capacity
  EXPECT_EQ(DecodeFixed64(&enc[208]), 13u);          // and slots
  EXPECT_EQ(DecodeFixed64(&enc[216]), m.tail_index.offset);
  EXPECT_EQ(DecodeFixed64(&enc[224]), 104u);
  EXPECT_EQ(DecodeFixed64(&enc[232]), m.tail_blocks.offset);
  EXPECT_EQ(DecodeFixed32(&enc[248]), 0x01020304u);
  EXPECT_EQ(MetaHandleOf(file_size, kFormatVersionLogTail).offset,
            m.metaindex.end_with_trailer());

  TableMeta back;
  ASSERT_OK(back.DecodeFrom(enc, file_size, "f"));
  std::string again;
  back.EncodeTo(&again);
  EXPECT_EQ(Hex(again), Hex(enc));
  EXPECT_EQ(back.log_offset, m.index.end_with_trailer());
  EXPECT_EQ(back.log_end(), m.tail_index.offset);
  const TableMeta pages = back.PagesPart();
  EXPECT_EQ(pages.flags, kPagedLayout);
  EXPECT_EQ(pages.num_entries, 30u);
  EXPECT_EQ(pages.num_keys, 30u);
  EXPECT_EQ(pages.log_file_bytes, 0u);
  EXPECT_EQ(pages.page_bytes(), 4096u);
  const TableMeta log = back.LogPart();
  EXPECT_EQ(log.flags, 0u);
  EXPECT_EQ(log.num_entries, 15u);
  EXPECT_EQ(log.num_keys, 10u);
  EXPECT_EQ(log.index.offset, m.tail_index.offset);
  EXPECT_EQ(log.block_table.offset, m.tail_blocks.offset);
  EXPECT_EQ(log.index_capacity, 12u);
  EXPECT_EQ(log.index_slots, 13u);
  EXPECT_EQ(log.log_offset, m.index.end_with_trailer());

  auto refused = [&](void (*edit)(TableMeta*), const char* what) {
    TableMeta bad = sample();
    edit(&bad);
    std::string b;
    bad.EncodeTo(&b);
    TableMeta out;
    Status st = out.DecodeFrom(b, file_size, "f");
    EXPECT_FALSE(st.ok()) << what;
    EXPECT_NE(st.ToString().find(what), std::string::npos) << st.ToString();
  };
  refused([](TableMeta* t) { t->flags = kLogTail; }, "unknown flags");
  refused([](TableMeta* t) { t->flags = kPagedLayout; },
          "log tail fields in a file without one");
  refused([](TableMeta* t) { t->page_entries = 40; }, "log tail entry counts");
  refused([](TableMeta* t) { t->num_keys = 44; }, "log tail entry counts");
  refused([](TableMeta* t) { t->address_bits = 0; }, "log tail geometry");
  refused([](TableMeta* t) { t->tail_slots = 12; }, "log tail index geometry");
  refused([](TableMeta* t) { t->tail_capacity = 0; },
          "log tail index geometry");
  refused([](TableMeta* t) { t->index_capacity = t->index_slots = 3; },
          "page geometry");
  refused([](TableMeta* t) { t->log_file_bytes = 204; },
          "section out of place");
  refused([](TableMeta* t) { t->tail_blocks.offset += 1; },
          "section out of place");
  refused([](TableMeta* t) { t->log_file_bytes = uint64_t{1} << 62; },
          "log past end of file");
  // The same fields in version 7's meta block are not there to read.
  TableMeta v7 = sample();
  v7.format_version = kFormatVersionPageSizes;
  std::string b;
  v7.EncodeTo(&b);
  EXPECT_EQ(b.size(), 196u);
  TableMeta out;
  EXPECT_FALSE(out.DecodeFrom(b, file_size - 56, "f").ok());
}

// The footer's version field: version 1 wrote a plain 1; later versions
// are tagged, and no single bit flip turns a tagged field into a number
// RocksDB's footer decoder accepts (it knows 0 to 7 as of 11.x).
TEST(FormatTest, FooterVersionField) {
  EXPECT_EQ(FooterVersionField(1), 1u);
  EXPECT_EQ(FooterVersionField(2), 0x52480002u);
  for (uint32_t v = 1; v <= kFormatVersion; ++v) {
    EXPECT_EQ(VersionOfFooterField(FooterVersionField(v)), v);
  }
  EXPECT_EQ(VersionOfFooterField(0), 0u);
  EXPECT_EQ(VersionOfFooterField(2), 0u);
  EXPECT_EQ(VersionOfFooterField(kFooterVersionTag), 0u);
  EXPECT_EQ(VersionOfFooterField(kFooterVersionTag | 1), 0u);
  EXPECT_EQ(VersionOfFooterField(0x12480002u), 0u);
  for (uint32_t v = 2; v <= kFormatVersion; ++v) {
    for (int bit = 0; bit < 32; ++bit) {
      const uint32_t flipped = FooterVersionField(v) ^ (uint32_t{1} << bit);
      EXPECT_GT(flipped, 1000u) << "bit " << bit;
    }
  }
}

// Versions 1 and 2 have no filter handle: 180 bytes, the properties'
// handle where version 3 has the filter's.
TEST(FormatTest, VersionTwoMetaBlock) {
  TableMeta m = SampleMeta();
  m.format_version = 2;
  const uint64_t filter_bytes = m.filter.end_with_trailer() - m.filter.offset;
  m.properties.offset -= filter_bytes;
  m.metaindex.offset -= filter_bytes;
  m.filter = SectionHandle();
  std::string enc;
  m.EncodeTo(&enc);
  ASSERT_EQ(enc.size(), 180u);
  EXPECT_EQ(TableMeta::EncodedLength(2), 180u);
  EXPECT_EQ(DecodeFixed64(&enc[144]), m.properties.offset);
  EXPECT_EQ(DecodeFixed64(&enc[160]), m.metaindex.offset);
  const uint64_t file_size =
      m.metaindex.end_with_trailer() + 180 + kTrailerSize + kFooterSize;
  TableMeta back;
  ASSERT_OK(back.DecodeFrom(enc, file_size, "f"));
  EXPECT_EQ(back.format_version, 2u);
  EXPECT_EQ(back.filter.size, 0u);
  EXPECT_EQ(MetaHandleOf(file_size, 2).offset,
            m.metaindex.end_with_trailer());
  // A version 2 meta block of version 3's length, or the reverse, is
  // damaged.
  TableMeta out;
  EXPECT_TRUE(out.DecodeFrom(enc + std::string(16, '\0'), file_size, "f")
                  .IsCorruption());
}

TEST(FormatTest, FooterBytes) {
  const SectionHandle metaindex{1000, 30};
  const SectionHandle meta{1035, TableMeta::kEncodedLength};
  const std::string f = EncodeFooter(metaindex, meta);
  ASSERT_EQ(f.size(), kFooterSize);
  EXPECT_EQ(f[0], static_cast<char>(kCRC32c));
  // Handles as varints: 1000 = e8 07, 30 = 1e; 1035 = 8b 08, 196 = c4 01.
  EXPECT_EQ(Hex(f.substr(1, 8)), "E8071E8B08C40100");
  // The version field: "\x03\x00HR", tagged so that RocksDB refuses it.
  EXPECT_EQ(Hex(f.substr(kFooterSize - 12, 4)), "03004852");
  EXPECT_EQ(DecodeFixed64(&f[kFooterSize - 8]), kMagicNumber);
  EXPECT_EQ(f.substr(kFooterSize - 8), "rh-table");
}

// The checksum every part of a file carries: RocksDB's CRC32C bit for bit,
// whichever way this CPU computes it, at every length and alignment, and
// continued across pieces.
TEST(FormatTest, Crc32cIsRocksDBs) {
  std::mt19937_64 rng(5);
  std::string buf(5000, '\0');
  for (char& c : buf) c = static_cast<char>(rng());
  for (size_t start = 0; start < 9; ++start) {
    for (size_t n : {0, 1, 7, 8, 9, 15, 16, 63, 64, 100, 4092, 4096, 4980}) {
      const char* p = buf.data() + start;
      ASSERT_EQ(Crc32c(p, n), crc32c::Value(p, n)) << start << " " << n;
      const uint32_t seed = static_cast<uint32_t>(rng());
      ASSERT_EQ(Crc32cExtend(seed, p, n), crc32c::Extend(seed, p, n));
      const size_t cut = n / 3;
      ASSERT_EQ(Crc32cExtend(Crc32c(p, cut), p + cut, n - cut),
                crc32c::Value(p, n));
    }
  }
  // The standard check value of "123456789".
  EXPECT_EQ(Crc32c("123456789", 9), 0xe3069283u);
  printf("CRC32C by %s\n", Crc32cIsHardware() ? "the CPU's instruction"
                                               : "RocksDB's portable code");
}

}  // namespace
}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
