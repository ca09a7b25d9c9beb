// Files of each format version, checked in (tests/golden/), read by every
// later reader: what a version wrote stays readable. The model below is
// what the files hold; it must never change for a version that has shipped.
//
// Regenerate (only when adding a format version, never for an existing
// one):   RH_WRITE_GOLDEN=1 build/golden_file_test
// which writes tests/golden/v<version>_<name>.sst of the newest version
// from the model.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "rocksdb/convenience.h"
#include "tests/corruption_harness.h"
#include "tests/test_util.h"

#ifndef RH_SOURCE_DIR
#error "RH_SOURCE_DIR must name the source tree (CMake sets it)"
#endif

namespace ROCKSDB_NAMESPACE {
namespace robinhood {
namespace {

using namespace harness;  // NOLINT: the suite is written in its terms

// Every value type a table holds, versions of one key across blocks,
// compact puts, range deletions; values that compress.
Model GoldenModel() {
  Model m;
  SequenceNumber seq = 5000;
  for (int i = 0; i < 60; ++i) {
    char k[16];
    snprintf(k, sizeof(k), "gold%04d", i);
    std::string v(10 + i % 23, static_cast<char>('a' + i % 26));
    if (i % 7 == 0) {  // three versions: merge over put over delete
      m.entries.emplace_back(IKey(k, seq--, kTypeMerge), "m" + v);
      m.entries.emplace_back(IKey(k, seq--, kTypeValue), v);
      m.entries.emplace_back(IKey(k, seq--, kTypeDeletion), "");
      // seq is now 3 below the merge: merge at seq + 3, put at seq + 2,
      // delete at seq + 1.
      m.queries.push_back(
          Query{k, kMaxSequenceNumber, GetContext::kFound, v + ",m" + v});
      m.queries.push_back(Query{k, seq + 2, GetContext::kFound, v});
      m.queries.push_back(Query{k, seq + 1, GetContext::kDeleted, ""});
      m.queries.push_back(Query{k, seq, GetContext::kNotFound, ""});
    } else if (i % 11 == 0) {
      m.entries.emplace_back(IKey(k, seq--, kTypeSingleDeletion), "");
      m.queries.push_back(
          Query{k, kMaxSequenceNumber, GetContext::kDeleted, ""});
    } else {
      m.entries.emplace_back(IKey(k, i % 2 ? 0 : seq--, kTypeValue), v);
      m.queries.push_back(Query{k, kMaxSequenceNumber, GetContext::kFound, v});
    }
    m.queries.push_back(
        Query{std::string(k) + "x", kMaxSequenceNumber, GetContext::kNotFound,
              ""});
  }
  m.tombstones.emplace_back(IKey("gold0010", 9000, kTypeRangeDeletion),
                            "gold0012");
  return m;
}

// A compacted put of `k`, the query that finds it and one for a key just
// after it that no model holds.
void AddPut(Model* m, const std::string& k, const std::string& v) {
  m->entries.emplace_back(IKey(k, 0, kTypeValue), v);
  m->queries.push_back(Query{k, kMaxSequenceNumber, GetContext::kFound, v});
  m->queries.push_back(
      Query{k + "x", kMaxSequenceNumber, GetContext::kNotFound, ""});
}

// Compacted puts of keys and values that vary in length, and a range
// deletion: an inline file (version 2 on).
Model GoldenInlineModel() {
  Model m;
  for (int i = 0; i < 90; ++i) {
    const std::string k = "in" + std::string(1 + i % 9, 'k') + std::to_string(i);
    AddPut(&m, k, std::string(i % 17, static_cast<char>('A' + i % 26)));
  }
  std::sort(m.entries.begin(), m.entries.end(),
            [](const std::pair<std::string, std::string>& a,
               const std::pair<std::string, std::string>& b) {
              return ExtractUserKey(a.first).compare(ExtractUserKey(b.first)) <
                     0;
            });
  m.tombstones.emplace_back(IKey("ink", 9000, kTypeRangeDeletion), "inkk");
  return m;
}

// Compacted puts of 6-byte keys spread evenly (a 2-byte prefix, then 4
// bytes of a multiplicative hash of the index), values of varying length,
// and a range deletion: an inline file with slots in key order (version 4).
Model GoldenKeyOrderModel() {
  Model m;
  std::vector<std::string> keys;
  for (uint32_t i = 0; i < 150; ++i) {
    const uint32_t x = i * 2654435761u;
    std::string k = "ko";
    for (int b = 3; b >= 0; --b) k.push_back(static_cast<char>(x >> (8 * b)));
    keys.push_back(k);
  }
  std::sort(keys.begin(), keys.end());
  for (size_t i = 0; i < keys.size(); ++i) {
    AddPut(&m, keys[i], std::string(i % 13, static_cast<char>('a' + i % 26)));
  }
  m.tombstones.emplace_back(IKey(keys[10], 9000, kTypeRangeDeletion),
                            keys[12]);
  return m;
}

// Compacted puts of zero-padded decimal keys and short values, and a range
// deletion: an inline file with slots in key order whose model maps the
// digits (version 9).
Model GoldenDigitMapModel() {
  Model m;
  // Misses between the keys, and past them.
  for (const char* k : {"dm/000001", "dm/500000", "dm/999999", "dm/9", "dm:"}) {
    m.queries.push_back(Query{k, kMaxSequenceNumber, GetContext::kNotFound, ""});
  }
  std::vector<std::string> keys;
  for (int i = 0; i < 200; ++i) {
    char k[24];
    snprintf(k, sizeof(k), "dm/%06d", i * 4999);
    keys.push_back(k);
  }
  for (size_t i = 0; i < keys.size(); ++i) {
    AddPut(&m, keys[i], std::string(i % 11, static_cast<char>('a' + i % 26)));
  }
  m.tombstones.emplace_back(IKey(keys[20], 9000, kTypeRangeDeletion),
                            keys[25]);
  return m;
}

// Compacted puts of keys whose first bytes past the prefix vary little (a
// region digit, a fixed word, then an 8-digit id) and short values, and a
// range deletion: an inline file with slots in key order whose model maps
// 13 positions, a long digit map (version 10).
Model GoldenLongDigitMapModel() {
  Model m;
  // Misses: a region and ids no key has, the fixed word changed, past them.
  for (const char* k : {"lm/1/user/00000000", "lm/4/user/99999999",
                        "lm/2/usex/00000100", "lm/2/user", "lm/9", "lm0"}) {
    m.queries.push_back(Query{k, kMaxSequenceNumber, GetContext::kNotFound, ""});
  }
  std::vector<std::string> keys;
  for (int i = 0; i < 240; ++i) {
    char k[32];
    snprintf(k, sizeof(k), "lm/%d/user/%08d", 2 + i / 80, (i % 80) * 7919);
    keys.push_back(k);
  }
  for (size_t i = 0; i < keys.size(); ++i) {
    AddPut(&m, keys[i], std::string(i % 9, static_cast<char>('a' + i % 26)));
  }
  m.tombstones.emplace_back(IKey(keys[30], 9000, kTypeRangeDeletion),
                            keys[33]);
  return m;
}

// Compacted puts too long for a slot (values of 70 to 250 bytes), keys
// sharing a prefix, over several pages, and a range deletion: a paged
// file (version 6).
Model GoldenPagedModel() {
  Model m;
  for (int i = 0; i < 80; ++i) {
    char k[24];
    snprintf(k, sizeof(k), "page/%05d", i * 37);
    AddPut(&m, k, std::string(70 + (i * 53) % 181,
                              static_cast<char>('a' + i % 26)));
  }
  m.queries.push_back(
      Query{"page/", kMaxSequenceNumber, GetContext::kNotFound, ""});
  m.queries.push_back(
      Query{"pagf", kMaxSequenceNumber, GetContext::kNotFound, ""});
  m.tombstones.emplace_back(IKey("page/00100", 9000, kTypeRangeDeletion),
                            "page/00200");
  return m;
}

// Compacted puts of 1,010 to 1,100-byte values, which leave a quarter of a
// 4 KiB page empty, and a range deletion: a paged file of larger pages
// (version 7).
Model GoldenLargePagesModel() {
  Model m;
  for (int i = 0; i < 48; ++i) {
    char k[24];
    snprintf(k, sizeof(k), "large/%05d", i * 11);
    std::string v(1010 + (i * 71) % 91, static_cast<char>('a' + i % 26));
    for (size_t b = 0; b < v.size(); b += 97) v[b] = static_cast<char>(i + b);
    AddPut(&m, k, v);
  }
  m.queries.push_back(
      Query{"large/", kMaxSequenceNumber, GetContext::kNotFound, ""});
  m.tombstones.emplace_back(IKey("large/00100", 9000, kTypeRangeDeletion),
                            "large/00200");
  return m;
}

// 2,200 compacted puts of 110 to 130-byte values (past the 256 KiB that
// choose the page size, so the pages are written as they fill), then keys
// with versions (merge over put over delete, a put with a sequence
// number), a hash filter and a range deletion: pages, then a log
// (version 8).
Model GoldenPagedLogModel() {
  Model m;
  for (int i = 0; i < 2200; ++i) {
    char k[24];
    snprintf(k, sizeof(k), "tail/%05d", i * 3);
    std::string v(110 + (i * 7) % 21, static_cast<char>('a' + i % 26));
    for (size_t b = 0; b < v.size(); b += 13) v[b] = static_cast<char>(i + b);
    AddPut(&m, k, v);
  }
  SequenceNumber seq = 5000;
  for (int i = 0; i < 20; ++i) {
    char k[24];
    snprintf(k, sizeof(k), "tail/%05d", 6600 + i);
    const std::string v(20 + i, static_cast<char>('A' + i));
    if (i % 4 == 0) {
      m.entries.emplace_back(IKey(k, seq--, kTypeMerge), "m" + v);
      m.entries.emplace_back(IKey(k, seq--, kTypeValue), v);
      m.entries.emplace_back(IKey(k, seq--, kTypeDeletion), "");
      m.queries.push_back(
          Query{k, kMaxSequenceNumber, GetContext::kFound, v + ",m" + v});
      m.queries.push_back(Query{k, seq + 2, GetContext::kFound, v});
      m.queries.push_back(Query{k, seq + 1, GetContext::kDeleted, ""});
    } else {
      m.entries.emplace_back(IKey(k, seq--, kTypeValue), v);
      m.queries.push_back(Query{k, kMaxSequenceNumber, GetContext::kFound, v});
    }
    m.queries.push_back(Query{std::string(k) + "x", kMaxSequenceNumber,
                              GetContext::kNotFound, ""});
  }
  m.tombstones.emplace_back(IKey("tail/00100", 9000, kTypeRangeDeletion),
                            "tail/00200");
  return m;
}

struct Golden {
  uint32_t version;
  const char* name;
  CompressionType codec;
  bool inline_model = false;  // GoldenInlineModel, not GoldenModel
  const char* filter = "";    // filter_policy (version 3 on)
  bool key_order = false;     // GoldenKeyOrderModel (version 4 on)
  bool paged = false;         // GoldenPagedModel (version 6 on)
  bool large_pages = false;   // GoldenLargePagesModel (version 7 on)
  bool log_tail = false;      // GoldenPagedLogModel (version 8 on)
  bool digit_map = false;     // GoldenDigitMapModel (version 9 on)
  bool long_map = false;      // GoldenLongDigitMapModel (version 10 on)
};

RobinHoodTableOptions GoldenOptions(const Golden& g) {
  RobinHoodTableOptions o;
  o.log_block_size = 256;
  o.sparse_index_interval = 4;
  o.filter_policy = g.filter;
  // Files of earlier versions were written before key order existed.
  o.inline_key_order = g.key_order;
  return o;
}

Model ModelOf(const Golden& g) {
  if (g.long_map) return GoldenLongDigitMapModel();
  if (g.digit_map) return GoldenDigitMapModel();
  if (g.log_tail) return GoldenPagedLogModel();
  if (g.large_pages) return GoldenLargePagesModel();
  if (g.paged) return GoldenPagedModel();
  if (g.key_order) return GoldenKeyOrderModel();
  return g.inline_model ? GoldenInlineModel() : GoldenModel();
}

std::string GoldenPath(const Golden& g) {
  return std::string(RH_SOURCE_DIR) + "/tests/golden/v" +
         std::to_string(g.version) + "_" + g.name + ".sst";
}

class GoldenFileTest : public testing::TestWithParam<Golden> {};

TEST_P(GoldenFileTest, Reads) {
  const Golden g = GetParam();
  if (g.codec != kNoCompression && !CompressionTypeSupported(g.codec)) {
    GTEST_SKIP() << "no " << g.name << " in this RocksDB";
  }
  const Model model = ModelOf(g);
  if (getenv("RH_WRITE_GOLDEN") != nullptr && g.version == kFormatVersion) {
    TableFile f("golden_" + std::string(g.name));
    const std::string bytes = BuildModel(&f, model, GoldenOptions(g), g.codec);
    ASSERT_OK(WriteStringToFile(Env::Default(), bytes, GoldenPath(g), true));
  }
  TableFile f(GoldenPath(g), /*existing=*/true);
  Checker checker(model, f.path());
  {
    FileMap l = MapOf(&f);
    EXPECT_EQ(l.meta.format_version, g.version);
    EXPECT_EQ(l.meta.is_inline(), g.inline_model);
    EXPECT_EQ(l.meta.key_ordered(), g.key_order);
    EXPECT_EQ(l.meta.is_paged(), g.paged);
    EXPECT_EQ(l.meta.has_log_tail(), g.log_tail);
    if (g.version < kFormatVersionElidedPrefix) {
      EXPECT_EQ(l.meta.format_version == kFormatVersionDigitMap, g.digit_map);
      EXPECT_EQ(l.meta.format_version == kFormatVersionLongDigitMap,
                g.long_map);
    }
    if (g.paged) {
      EXPECT_EQ(l.meta.page_bytes() > kEntryPageMinBytes, g.large_pages);
    }
    EXPECT_EQ(l.meta.filter.size != 0, *g.filter != '\0');
  }
  for (bool mmap : {false, true}) {
    SCOPED_TRACE(mmap ? "mmap" : "pread");
    std::unique_ptr<TableReader> t;
    ASSERT_OK(f.Open(mmap, &t));
    ReadReport r = checker.CheckAll(t.get());
    EXPECT_EQ(r.wrong, 0);
    EXPECT_EQ(r.corruptions, 0);
    EXPECT_OK(r.verify);
  }
}

// Today's builder still writes what it writes as the newest versions (5,
// inline files; 6 and 7, paged files; 8, pages then a log; 11, inline
// files in key order whose keys share a prefix, with a digit map, a long
// one or none) and as version 3
// (log files) byte for byte: a
// change to what it writes is a format change, which needs a new version
// (and file), or, where every reader of the version reads the new bytes
// as it read the old, a new file of the same version beside the old one
// (v3_snappy_block_records: a compressed log's sparse index records only
// each block's first entry, which v3_snappy's readers read alike).
class GoldenBuilderTest : public GoldenFileTest {};

TEST_P(GoldenBuilderTest, WritesTheSameBytes) {
  const Golden g = GetParam();
  if (g.codec != kNoCompression && !CompressionTypeSupported(g.codec)) {
    GTEST_SKIP() << "no " << g.name << " in this RocksDB";
  }
  std::string golden;
  ASSERT_OK(ReadFileToString(Env::Default(), GoldenPath(g), &golden));
  TableFile f("golden_now_" + std::string(g.name));
  const std::string now = BuildModel(&f, ModelOf(g), GoldenOptions(g),
                                     g.codec);
  // The properties hold the creation time and the DB session, and each
  // RocksDB release adds properties of its own (9.11's block is 39 bytes
  // longer than 7.8's): compare the log, the hash index and the other
  // sections before them, which are ours alone.
  const FileMap l = MapOf(&f);
  TableFile old_file(GoldenPath(g), /*existing=*/true);
  const FileMap gl = MapOf(&old_file);
  ASSERT_EQ(l.meta.properties.offset, gl.meta.properties.offset);
  EXPECT_EQ(Slice(now.data(), l.meta.properties.offset),
            Slice(golden.data(), l.meta.properties.offset));
}

std::string GoldenName(const testing::TestParamInfo<Golden>& i) {
  return "v" + std::to_string(i.param.version) + "_" + i.param.name;
}

INSTANTIATE_TEST_SUITE_P(
    Versions, GoldenFileTest,
    testing::Values(Golden{1, "raw", kNoCompression},
                    Golden{1, "snappy", kSnappyCompression},
                    Golden{2, "raw", kNoCompression},
                    Golden{2, "snappy", kSnappyCompression},
                    Golden{2, "inline", kNoCompression, true},
                    Golden{3, "raw", kNoCompression},
                    Golden{3, "snappy", kSnappyCompression},
                    Golden{3, "snappy_block_records", kSnappyCompression},
                    Golden{3, "inline", kNoCompression, true},
                    Golden{3, "bloom", kNoCompression, false, "bloomfilter:10"},
                    Golden{3, "inline_ribbon", kNoCompression, true,
                           "ribbonfilter:10"},
                    Golden{4, "inline_keyorder", kNoCompression, true, "",
                           true},
                    Golden{5, "inline", kNoCompression, true},
                    Golden{5, "inline_ribbon", kNoCompression, true,
                           "ribbonfilter:10"},
                    Golden{5, "inline_keyorder", kNoCompression, true, "",
                           true},
                    Golden{6, "paged", kNoCompression, false, "", false,
                           true},
                    Golden{6, "paged_bloom", kNoCompression, false,
                           "bloomfilter:10", false, true},
                    Golden{7, "large_pages", kNoCompression, false, "", false,
                           true, true},
                    Golden{7, "large_pages_hashbloom", kNoCompression, false,
                           "hashbloom:10", false, true, true},
                    Golden{8, "paged_log", kNoCompression, false,
                           "hashbloom:10", false, true, false, true},
                    Golden{9, "inline_digitmap", kNoCompression, true, "",
                           true, false, false, false, true},
                    Golden{10, "inline_long_digitmap", kNoCompression, true,
                           "", true, false, false, false, false, true},
                    Golden{11, "inline_keyorder", kNoCompression, true, "",
                           true},
                    Golden{11, "inline_digitmap", kNoCompression, true, "",
                           true, false, false, false, true},
                    Golden{11, "inline_long_digitmap", kNoCompression, true,
                           "", true, false, false, false, false, true}),
    GoldenName);

// The filters too: RocksDB's Bloom and Ribbon formats are persistent, and
// the builder pins the options that would size them by host (9.2 turned
// optimize_filters_for_memory on), so every host writes the same filter.
INSTANTIATE_TEST_SUITE_P(
    Newest, GoldenBuilderTest,
    testing::Values(Golden{3, "raw", kNoCompression},
                    Golden{3, "snappy_block_records", kSnappyCompression},
                    Golden{3, "bloom", kNoCompression, false,
                           "bloomfilter:10"},
                    Golden{5, "inline", kNoCompression, true},
                    Golden{5, "inline_ribbon", kNoCompression, true,
                           "ribbonfilter:10"},
                    Golden{6, "paged", kNoCompression, false, "", false,
                           true},
                    Golden{6, "paged_bloom", kNoCompression, false,
                           "bloomfilter:10", false, true},
                    Golden{7, "large_pages", kNoCompression, false, "", false,
                           true, true},
                    Golden{7, "large_pages_hashbloom", kNoCompression, false,
                           "hashbloom:10", false, true, true},
                    Golden{8, "paged_log", kNoCompression, false,
                           "hashbloom:10", false, true, false, true},
                    Golden{11, "inline_keyorder", kNoCompression, true, "",
                           true},
                    Golden{11, "inline_digitmap", kNoCompression, true, "",
                           true, false, false, false, true},
                    Golden{11, "inline_long_digitmap", kNoCompression, true,
                           "", true, false, false, false, false, true}),
    GoldenName);

}  // namespace
}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
