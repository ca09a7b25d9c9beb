// The inline directory's codec (inline_directory.h): the builder's output
// for docs/format.md's two worked examples, byte for byte (and the bytes
// as the document prints them), the round trip through DecodeFrom and
// EncodeTo, and each refusal of DecodeFrom, by the field it names.
#include "table/inline_directory.h"

#include <gtest/gtest.h>

#include <cctype>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "tests/corruption_harness.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {
namespace {

using namespace harness;  // NOLINT: the suite is written in its terms

// "03000000 04" -> the bytes.
std::string Hex(const std::string& text) {
  std::string out;
  std::string digits;
  for (char c : text) {
    if (isxdigit(static_cast<unsigned char>(c))) digits.push_back(c);
  }
  for (size_t i = 0; i + 1 < digits.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(digits.substr(i, 2), nullptr, 16)));
  }
  return out;
}

std::string FormatDoc() {
  std::string doc;
  EXPECT_OK(ReadFileToString(Env::Default(),
                             std::string(RH_SOURCE_DIR) + "/docs/format.md",
                             &doc));
  return doc;
}

// docs/format.md's four puts, as SstFileWriter writes them.
Entries FourPuts() {
  return {{IKey("ant", 0, kTypeValue), "6"},
          {IKey("bee", 0, kTypeValue), "buzz"},
          {IKey("cat", 0, kTypeValue), "meow"},
          {IKey("dog", 0, kTypeValue), "woof"}};
}

struct Built {
  TableMeta meta;
  std::string directory;  // the section's contents
};

Built Build(TableFile* f, bool key_order) {
  RobinHoodTableOptions opts;
  opts.inline_key_order = key_order;
  EXPECT_OK(f->Build(FourPuts(), opts));
  const FileMap l = MapOf(f);
  const std::string bytes = f->Bytes();
  return Built{l.meta, bytes.substr(l.meta.block_table.offset,
                                    l.meta.block_table.size)};
}

// The document's bytes, each group as it prints them in backquotes.
struct Example {
  std::vector<std::string> groups;
  std::string Bytes() const {
    std::string out;
    for (const std::string& g : groups) out += Hex(g);
    return out;
  }
};

const Example kHashOrder{{"03000000 04000000 02000000 c6010000 01000000",
                          "61be7175", "05 04 00 03"}};
const Example kKeyOrder{{"03000000 04000000 06000000 c6010000 00000000",
                         "00000000 39000000 02000000 0000000000746e61 00000000"
                         "\n03000000 05000000",
                         "1685b5f1"}};

void CheckExample(const Example& ex, bool key_order) {
  const std::string doc = FormatDoc();
  for (const std::string& g : ex.groups) {
    EXPECT_NE(doc.find("`" + g + "`"), std::string::npos)
        << "docs/format.md does not print `" << g << "`";
  }
  TableFile f(key_order ? "dir_key_order" : "dir_hash_order");
  const Built b = Build(&f, key_order);
  EXPECT_EQ(Slice(b.directory).ToString(true), Slice(ex.Bytes()).ToString(true));

  InlineDirectory dir;
  ASSERT_OK(dir.DecodeFrom(b.directory, b.meta, f.path()));
  EXPECT_EQ(dir.shape.key_width, 3u);
  EXPECT_EQ(dir.shape.value_width, 4u);
  EXPECT_FALSE(dir.shape.var_key);
  EXPECT_TRUE(dir.shape.var_value);
  EXPECT_EQ(dir.key_ordered, key_order);
  EXPECT_EQ(dir.page_slots, 454u);  // (4096 - 4) / 9
  EXPECT_EQ(dir.order_width, key_order ? 0u : 1u);
  EXPECT_EQ(dir.paging().Pages(b.meta.index_slots), 1u);
  EXPECT_EQ(dir.head_bytes, b.directory.size() - dir.order.size());
  EXPECT_EQ(dir.order.size(), key_order ? 0u : 4u);
  std::string again;
  dir.EncodeTo(&again);
  EXPECT_EQ(again, b.directory);
}

TEST(InlineDirectoryTest, HashOrderExampleByteForByte) {
  CheckExample(kHashOrder, false);
}

TEST(InlineDirectoryTest, KeyOrderExampleByteForByte) {
  CheckExample(kKeyOrder, true);
}

// A refusal: what is done to a good directory (or to the meta block it is
// checked against), the field the error must name, and a word of its
// detail.
struct Refusal {
  const char* what;
  bool key_order;  // of which example
  std::function<void(std::string*, TableMeta*)> edit;
  const char* field;
  const char* detail;
  // Whether the head's CRC is made to match the edit, so that the field's
  // own check must refuse it.
  bool reseal = true;
  // Of the version 3 golden file instead (page CRCs in the directory).
  bool v3 = false;
};

// The version 3 golden file's directory: hash order, an order array, and
// its pages' CRCs in the directory, as versions 2 to 4 keep them.
Built GoldenV3() {
  TableFile f(std::string(RH_SOURCE_DIR) + "/tests/golden/v3_inline.sst",
              /*existing=*/true);
  const FileMap l = MapOf(&f);
  EXPECT_TRUE(l.meta.is_inline());
  const std::string bytes = f.Bytes();
  return Built{l.meta, bytes.substr(l.meta.block_table.offset,
                                    l.meta.block_table.size)};
}

// Makes the CRC at the end of a directory's head (`head` bytes) match
// what precedes it.
void Reseal(std::string* d, size_t head) {
  if (d->size() < head) return;
  std::string crc;
  PutFixed32(&crc, crc32c::Mask(crc32c::Value(d->data(), head - 4)));
  d->replace(head - 4, 4, crc);
}

void Put32(std::string* d, size_t at, uint32_t v) {
  std::string b;
  PutFixed32(&b, v);
  d->replace(at, 4, b);
}

TEST(InlineDirectoryTest, EveryRefusalNamesItsField) {
  const std::vector<Refusal> refusals = {
      {"header cut short", false,
       [](std::string* d, TableMeta*) { d->resize(kInlineDirectoryHeader - 1); },
       "header", "shorter"},
      {"key width 256", false,
       [](std::string* d, TableMeta*) { Put32(d, 0, 256); }, "key_width",
       "beyond"},
      {"value width 256", false,
       [](std::string* d, TableMeta*) { Put32(d, 4, 256); }, "value_width",
       "beyond"},
      {"an unknown shape bit", false,
       [](std::string* d, TableMeta*) { Put32(d, 8, 2 | 32); }, "shape",
       "unknown bits"},
      {"an elided prefix on a hash-ordered file", false,
       [](std::string* d, TableMeta*) { Put32(d, 8, 2 | kShapeElidedPrefix); },
       "shape", "an elided prefix without key order"},
      {"an elided prefix in a version 5 file", true,
       [](std::string* d, TableMeta*) {
         Put32(d, 8, DecodeFixed32(d->data() + 8) | kShapeElidedPrefix);
       },
       "shape", "before version 11"},
      {"a digit map on a hash-ordered file", false,
       [](std::string* d, TableMeta*) { Put32(d, 8, 2 | kShapeDigitMap); },
       "shape", "a digit map without key order"},
      {"a digit map in a version 5 file", true,
       [](std::string* d, TableMeta*) {
         Put32(d, 8, DecodeFixed32(d->data() + 8) | kShapeDigitMap);
       },
       "shape", "before version 9"},
      {"key order bit on a hash-ordered file", false,
       [](std::string* d, TableMeta*) { Put32(d, 8, 2 | kShapeKeyOrdered); },
       "shape", "meta block"},
      {"key width that changes the slot width", false,
       [](std::string* d, TableMeta*) {
         Put32(d, 0, 4);
         Put32(d, 12, 409);  // (4096 - 4) / 10: the new width's pages
       },
       "shape", "section size"},
      {"max displacement beyond a distance byte", false,
       [](std::string*, TableMeta* m) { m->max_displacement = 255; },
       "max_displacement", "distance byte"},
      {"page slots not what the width gives", false,
       [](std::string* d, TableMeta*) { Put32(d, 12, 455); }, "page_slots",
       "not 454"},
      {"an order array with slots in key order", true,
       [](std::string* d, TableMeta*) { Put32(d, 16, 1); }, "order_width",
       "key order"},
      {"a key order model out of range", true,
       [](std::string* d, TableMeta*) {
         Put32(d, kInlineDirectoryHeader + 8, 1);  // one bucket
       },
       "key order model", "out of range"},
      {"no order array with more slots than a reader sorts", false,
       [](std::string* d, TableMeta* m) {
         Put32(d, 16, 0);
         m->index_slots = kInlineMaxSortedSlots + 1;
         InlineShape shape;  // the example's
         shape.key_width = 3;
         shape.value_width = 4;
         shape.var_value = true;
         m->index.size = SlotPages::Of(shape, m->format_version)
                             .SectionBytes(m->index_slots);
       },
       "order_width", "too many slots"},
      {"no head CRC", false,
       [](std::string* d, TableMeta*) { d->resize(kInlineDirectoryHeader); },
       "head", "no room"},
      {"a head that does not match its CRC", true,
       [](std::string* d, TableMeta*) {
         (*d)[kInlineDirectoryHeader + 12] ^= 1;  // the model's base
       },
       "head", "checksum mismatch", /*reseal=*/false},
      {"bytes after the head without an order array", false,
       [](std::string* d, TableMeta*) { Put32(d, 16, 0); }, "head",
       "followed by bytes"},
      {"order width not what the slots give", false,
       [](std::string* d, TableMeta*) { Put32(d, 16, 2); }, "order_width",
       "not 1"},
      {"an order entry missing", false,
       [](std::string* d, TableMeta* m) {
         d->pop_back();
         m->block_table.size--;
       },
       "order", "size disagrees"},
      {"more bytes than the section", false,
       [](std::string* d, TableMeta*) { d->push_back('\0'); }, "order",
       "past the section"},
      {"an order array for more keys than the meta block's", false,
       [](std::string*, TableMeta* m) { m->num_keys = 3; }, "order",
       "size disagrees"},
      {"a page CRC cut short", false,
       [](std::string* d, TableMeta*) {
         d->resize(kInlineDirectoryHeader + 3);
       },
       "page CRCs", "fewer than", /*reseal=*/false, /*v3=*/true},
      {"page CRCs past the section's end", false,
       [](std::string* d, TableMeta* m) {
         m->block_table.size = kInlineDirectoryHeader + 3;
         d->resize(m->block_table.size);
         d->append(4, '\0');
       },
       "head", "longer than the section", /*reseal=*/false, /*v3=*/true},
      {"bytes after the page CRCs without an order array", false,
       [](std::string* d, TableMeta*) { Put32(d, 16, 0); }, "page CRCs",
       "more than", /*reseal=*/false, /*v3=*/true},
  };
  TableFile hash_file("dir_refusal_hash");
  TableFile key_file("dir_refusal_key");
  const Built hash_order = Build(&hash_file, false);
  const Built key_order = Build(&key_file, true);
  const Built v3 = GoldenV3();
  std::set<std::string> fields;
  for (const Refusal& r : refusals) {
    SCOPED_TRACE(r.what);
    const Built& good = r.v3 ? v3 : r.key_order ? key_order : hash_order;
    std::string bytes = good.directory;
    TableMeta meta = good.meta;
    r.edit(&bytes, &meta);
    InlineDirectory parsed;
    ASSERT_OK(parsed.DecodeFrom(good.directory, good.meta, "/d/1.sst"));
    if (r.reseal) Reseal(&bytes, parsed.head_bytes);
    InlineDirectory dir;
    const Status s = dir.DecodeFrom(bytes, meta, "/d/1.sst");
    ASSERT_TRUE(s.IsCorruption()) << s.ToString();
    const CorruptionRecord* c = CorruptionFields(s);
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->part, "inline directory");
    EXPECT_EQ(c->offset, good.meta.block_table.offset);
    EXPECT_EQ(c->detail.rfind(std::string(r.field) + ": ", 0), 0u)
        << c->detail;
    EXPECT_TRUE(Contains(c->detail, r.detail)) << c->detail;
    fields.insert(r.field);
  }
  // Every field the directory holds, and the meta block's two it answers
  // for, has a refusal above.
  EXPECT_EQ(fields, (std::set<std::string>{"header", "key_width",
                                            "value_width", "shape",
                                            "max_displacement", "page_slots",
                                            "order_width", "key order model",
                                            "head", "page CRCs", "order"}));
}

// A slot's offset, computed by a multiplication for slot numbers below
// 2^32, is the division's for every slot width and page shape, at the
// edges of pages, of the 32-bit range, and past it.
TEST(InlineDirectoryTest, SlotOffsetsMatchTheDivision) {
  std::mt19937_64 rng(5);
  for (uint32_t version : {uint32_t{4}, kFormatVersionAlignedPages}) {
    for (uint32_t value_width = 0; value_width <= 500; ++value_width) {
      InlineShape shape;
      shape.key_width = 8;
      shape.value_width = value_width;
      shape.var_value = value_width % 3 == 0;
      const SlotPages pg = SlotPages::Of(shape, version);
      auto check = [&](uint64_t slot) {
        ASSERT_EQ(pg.SlotOffset(slot), slot / pg.page_slots * pg.stride +
                                           slot % pg.page_slots * pg.width)
            << "slot " << slot << ", width " << pg.width << ", version "
            << version;
      };
      for (uint64_t page : {uint64_t{0}, uint64_t{1}, uint64_t{1000},
                            uint64_t{0xffffffff} / pg.page_slots}) {
        for (int d = -1; d <= 1; ++d) {
          const uint64_t edge = page * pg.page_slots;
          if (edge == 0 && d < 0) continue;
          ASSERT_NO_FATAL_FAILURE(check(edge + static_cast<uint64_t>(d)));
        }
      }
      for (uint64_t slot : {uint64_t{0xfffffffe}, uint64_t{0xffffffff},
                            uint64_t{1} << 32, (uint64_t{1} << 40) + 7}) {
        ASSERT_NO_FATAL_FAILURE(check(slot));
      }
      for (int i = 0; i < 200; ++i) {
        ASSERT_NO_FATAL_FAILURE(check(rng() >> 32));
      }
    }
  }
}

}  // namespace
}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
