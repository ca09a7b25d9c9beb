// The corruption sweep: every byte of a small file of many small log blocks
// flipped in turn (corruption_harness.h); each damaged copy must be
// refused at open, or answer every Get (verify_checksums) and scan right or
// with Corruption, and VerifyChecksum must report the damage. Reads
// without verify_checksums may give wrong answers for raw log blocks but
// must not crash. codec_corruption_test does the same for compressed logs.
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

// Bytes of log block contents (and of inline slots) flipped: every one with
// mmap, every
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

// The file of a sweep: a log of many small blocks, with a Bloom filter, or
// an inline file (every entry a compacted put) of a few pages of slots,
// with or without an order array (without, the first iterator sorts the
// slots), or with its slots in key order (its own order; a model of the
// keys in the directory places them).
enum SweptFile {
  kLogFile,
  kInlineFile,
  kInlineFileSorted,
  kInlineKeyOrder,
  kInlineDigitMap,  // key order over decimal keys (format version 9)
  kPagedFile,
  kPagedLargePages,  // 14 entries of 1 KiB or so: two pages of 8 KiB
  kPagedLogTail      // 300 KB of pages (they stream), then a log of 30
};
const char* const kSweptFileNames[] = {
    "_log",   "_inline",   "_inline_sorted", "_inline_keyorder",
    "_inline_digitmap", "_paged", "_paged_8k", "_paged_log"};
// Pages of a file with a log tail flipped this far apart, its log's
// contents and its filter this far (times the stride): _paged and _log
// sweep them whole.
constexpr uint64_t kTailFilePageStride = 251;
constexpr uint64_t kTailFileStride = 7;

class CorruptionSweep
    : public testing::TestWithParam<std::tuple<bool, SweptFile>> {};

TEST_P(CorruptionSweep, EveryByteFlipped) {
  const bool mmap = std::get<0>(GetParam());
  const SweptFile kind = std::get<1>(GetParam());
  const bool log_tail = kind == kPagedLogTail;
  const bool paged =
      kind == kPagedFile || kind == kPagedLargePages || log_tail;
  const bool inline_layout = kind != kLogFile && !paged;
  // Slots and pages: the parts that hold the entries, each checked when a
  // read reaches it.
  const bool entry_pages = inline_layout || paged;
  const bool key_order = kind == kInlineKeyOrder || kind == kInlineDigitMap;
  Model model =
      log_tail ? MakeCompactedModel(2430, 7, false, true, 70, 2400)
      : entry_pages
          ? kind == kPagedLargePages
                ? MakeCompactedModel(14, 7, false, true, 1010)
                : MakeCompactedModel(paged ? 120 : 300, 7,
                                     kind == kInlineKeyOrder, paged)
          : MakeModel(200, 7);
  if (log_tail) {
    // Every key of the log and those of the pages' ends, and misses.
    std::vector<Query> kept;
    for (const Query& q : model.queries) {
      const int i = atoi(q.user_key.c_str() + 3) / 3;
      if (i < 40 || i >= 2360) kept.push_back(q);
    }
    model.queries.swap(kept);
  }
  TableFile file(std::string("sweep_") + (mmap ? "mmap" : "pread") +
                 kSweptFileNames[kind]);
  RobinHoodTableOptions options = SmallBlocks();
  options.inline_order_array = kind != kInlineFileSorted;
  options.inline_key_order = key_order;
  if (kind == kLogFile) options.filter_policy = "bloomfilter:10";
  const std::string original = BuildModel(&file, model, options);
  const FileMap layout = MapOf(&file);
  ASSERT_EQ(layout.meta.is_inline(), inline_layout);
  ASSERT_EQ(layout.meta.is_paged(), paged);
  ASSERT_EQ(layout.meta.has_log_tail(), log_tail);
  ASSERT_EQ(layout.meta.key_ordered(), key_order);
  // The keys of either file in key order share a prefix, which its slots
  // leave out (version 11, whatever their model).
  if (inline_layout) {
    ASSERT_EQ(layout.meta.format_version, key_order
                                              ? kFormatVersionElidedPrefix
                                              : kFormatVersionInlineFile);
  }
  if (paged) {
    ASSERT_EQ(layout.meta.page_bytes(),
              kind == kPagedLargePages ? 8192u : kEntryPageMinBytes);
  }
  if (entry_pages) {
    ASSERT_GE(layout.meta.index.size, 2 * kInlinePageBytes);
  } else {
    ASSERT_GE(layout.blocks.size(), 15u);
  }
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
    if ((part == "log block contents" || part == "inline slots" ||
         part == "pages") &&
        off % stride != 0) {
      continue;
    }
    if (log_tail &&
        ((part == "pages" && off % kTailFilePageStride != 0) ||
         ((part == "log block contents" || part == "filter") &&
          off % (kTailFileStride * stride) != 0))) {
      continue;
    }
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
        if ((off >= layout.meta.log_offset && off < layout.meta.log_end()) ||
            (entry_pages && off >= layout.meta.index.offset &&
             off < layout.meta.index.offset + layout.meta.index.size)) {
          // Every block (every page of slots: each holds entries) is read
          // by a scan, which verifies it.
          EXPECT_TRUE(r.scan_corruption) << context;
          EXPECT_EQ(checker.Unverified(t.get()).wrong, 0) << context;
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
  printf("%s%s: %zu bytes, %zu log blocks, log contents stride %d, %.1f s\n",
         mmap ? "mmap" : "pread", kSweptFileNames[kind],
         original.size(), layout.blocks.size(),
         static_cast<int>(stride), seconds);
  printf("  %-24s %7s %7s %7s %13s %13s %6s\n", "part", "flipped", "refused",
         "opened", "reads corrupt", "verify failed", "s");
  for (const auto& p : summary) {
    printf("  %-24s %7d %7d %7d %13d %13d %6.2f\n", p.first.c_str(),
           p.second.flipped, p.second.refused, p.second.opened,
           p.second.reads_corrupt, p.second.verify_failed, p.second.seconds);
  }
}

INSTANTIATE_TEST_SUITE_P(
    MmapOnOff, CorruptionSweep,
    testing::Combine(testing::Bool(),
                     testing::Values(kLogFile, kInlineFile, kInlineFileSorted,
                                     kInlineKeyOrder, kInlineDigitMap,
                                     kPagedFile,
                                     kPagedLargePages, kPagedLogTail)),
    [](const testing::TestParamInfo<std::tuple<bool, SweptFile>>& info) {
      return std::string(std::get<0>(info.param) ? "mmap" : "pread") +
             kSweptFileNames[std::get<1>(info.param)];
    });

}  // namespace
}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
