// The table-level harness of the corruption suites: a model of what a
// file holds and the answers a correct reader gives (Model), a file built
// and opened through the factory as RocksDB's table cache does (TableFile),
// where each part of an intact file lies (FileMap), reads of a possibly
// damaged file checked against the model (Checker), and edits that damage
// a file or craft one whose checksums still hold (Flipped, WithSection,
// WithMeta, WithFooter).
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "db/range_tombstone_fragmenter.h"
#include "file/random_access_file_reader.h"
#include "file/writable_file_writer.h"
#include "options/cf_options.h"
#include "rocksdb/env.h"
#include "rocksdb/file_system.h"
#include "rocksdb/merge_operator.h"
#include "rocksdb/options.h"
#include "rocksdb_robinhood/robinhood_table.h"
#include "table/block_table.h"
#include "table/get_context.h"
#include "table/inline_directory.h"
#include "table/robinhood_format.h"
#include "table/robinhood_uncompress.h"
#include "table/robinhood_table_reader.h"
#include "table/table_meta.h"
#include "table/table_builder.h"
#include "tests/table_harness.h"
#include "tests/test_util.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {
namespace harness {

inline bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// ---------------------------------------------------------------------------
// The model: what was written, and the answers a correct reader gives.

struct Query {
  std::string user_key;
  SequenceNumber snapshot;
  GetContext::GetState state;  // kFound, kDeleted or kNotFound
  std::string value;
};

struct Model {
  // Point entries in internal-key order: exactly what the log holds.
  std::vector<std::pair<std::string, std::string>> entries;
  // Range tombstones: internal start key (kTypeRangeDeletion), end user key.
  std::vector<std::pair<std::string, std::string>> tombstones;
  // Every Get the checks issue, with its answer.
  std::vector<Query> queries;
};

// `keys` user keys, a third with two or three versions (some deletions),
// half the single-version ones compact puts at sequence 0; values of 0..40
// bytes; two range tombstones.
inline Model MakeModel(int keys, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Model m;
  SequenceNumber seq = 100000;
  for (int i = 0; i < keys; ++i) {
    char buf[16];
    snprintf(buf, sizeof(buf), "key%05d", i * 3);
    const std::string uk = buf;
    const int versions = rng() % 3 == 0 ? 2 + static_cast<int>(rng() % 2) : 1;
    std::vector<SequenceNumber> seqs;
    for (int v = 0; v < versions; ++v) {
      SequenceNumber s = versions == 1 && rng() % 2 ? 0 : seq--;
      ValueType type = kTypeValue;
      if (s != 0 && v == 0 && rng() % 6 == 0) type = kTypeDeletion;
      std::string value;
      if (type == kTypeValue) {
        value.resize(rng() % 41);
        for (auto& c : value) c = static_cast<char>('a' + rng() % 26);
      }
      m.entries.emplace_back(IKey(uk, s, type), value);
      // The newest version, and (for older ones) a snapshot just below the
      // version above, which finds this one.
      Query q{uk, v == 0 ? kMaxSequenceNumber : seqs.back() - 1,
              type == kTypeValue ? GetContext::kFound : GetContext::kDeleted,
              value};
      m.queries.push_back(q);
      seqs.push_back(s);
    }
    if (i % 5 == 0) {  // a miss next to every fifth key
      m.queries.push_back(
          Query{uk + '\x01', kMaxSequenceNumber, GetContext::kNotFound, ""});
    }
    // Below the oldest version: nothing visible.
    if (seqs.back() > 1) {
      m.queries.push_back(
          Query{uk, seqs.back() - 1, GetContext::kNotFound, ""});
    }
  }
  m.tombstones.emplace_back(IKey("key00150", 200000, kTypeRangeDeletion),
                            "key00180");
  m.tombstones.emplace_back(IKey("key00600", 200001, kTypeRangeDeletion),
                            "key00630");
  return m;
}

// Compacted puts only (sequence 0, as the bottommost level holds them),
// short enough for the inline layout, a miss beside every fifth key, and
// one range deletion: an inline file.
// With `spread`, the keys are "key" and 4 bytes spread evenly over their
// range, which inline files place in key order (key_order_model.h).
// With `long_values`, values of 70 to 170 bytes, too long for a slot: a
// paged file (paged_layout.h) of several pages.
// Values of 0 to 20 bytes; with `long_values`, 70 to 170 (too long for
// an inline slot: a paged file), or from `long_min` on, 90 more at most.
inline Model MakeCompactedModel(int keys, uint64_t seed, bool spread = false,
                                bool long_values = false,
                                size_t long_min = 70, int tail_from = -1,
                                bool tenant_keys = false) {
  std::mt19937_64 rng(seed);
  Model m;
  for (int i = 0; i < keys; ++i) {
    char buf[24];
    if (tenant_keys) {
      // A tenant digit, five bytes that never change, then the row: the
      // first 8 bytes past "key" take 3 values, a long digit map's 13
      // more than the keys.
      snprintf(buf, sizeof(buf), "key%d-row-%05d", i / 100, (i % 100) * 3);
    } else {
      snprintf(buf, sizeof(buf), "key%05d", i * 3);
    }
    std::string uk = buf;
    if (spread) {
      // Increasing with i: 2^32 / keys apart, give or take a quarter.
      const uint32_t x = static_cast<uint32_t>(
          (static_cast<uint64_t>(i) << 32) / keys + rng() % ((uint64_t{1} << 30) / keys));
      uk = "key";
      for (int b = 3; b >= 0; --b) uk.push_back(static_cast<char>(x >> (8 * b)));
    }
    std::string value(
        long_values ? long_min + rng() % (long_min == 70 ? 101 : 91)
                    : rng() % 21,
        'x');
    for (auto& c : value) c = static_cast<char>('a' + rng() % 26);
    // From `tail_from` on, puts with sequence numbers: a paged file's
    // builder sends them to a log behind its pages.
    const SequenceNumber seq =
        tail_from >= 0 && i >= tail_from ? 1000 + static_cast<uint64_t>(i) : 0;
    m.entries.emplace_back(IKey(uk, seq, kTypeValue), value);
    m.queries.push_back(
        Query{uk, kMaxSequenceNumber, GetContext::kFound, value});
    if (i % 5 == 0) {
      m.queries.push_back(
          Query{uk + '\x01', kMaxSequenceNumber, GetContext::kNotFound, ""});
    }
  }
  m.tombstones.emplace_back(IKey("key00150", 200000, kTypeRangeDeletion),
                            "key00180");
  return m;
}

// Builds the model's table in `f` and returns its bytes.
inline std::string BuildModel(TableFile* f, const Model& m,
                              const RobinHoodTableOptions& opts,
                              CompressionType compression = kNoCompression) {
  Entries entries = m.entries;
  entries.insert(entries.end(), m.tombstones.begin(), m.tombstones.end());
  EXPECT_OK(f->Build(entries, opts, compression));
  return f->Bytes();
}

// Where everything lies in an intact file, read from the file itself.
struct FileMap {
  uint64_t file_size = 0;
  TableMeta meta;
  std::vector<BlockLocation> blocks;
  uint64_t meta_offset = 0;    // contents of the meta block
  uint64_t footer_offset = 0;  // the 53-byte footer

  // The part of the file `offset` lies in, for messages and the summary.
  std::string PartOf(uint64_t offset) const {
    if (offset >= meta.log_offset && offset < meta.log_end()) {
      for (const auto& b : blocks) {
        if (offset >= b.file_offset &&
            offset < b.file_offset + b.contents_bytes + kTrailerSize) {
          return offset < b.file_offset + b.contents_bytes
                     ? "log block contents"
                     : "log block trailer";
        }
      }
      return "log (no block?)";
    }
    for (const NamedSection& s : meta.NamedSections()) {
      const SectionHandle& h = *s.handle;
      if (offset >= h.offset && offset < h.end_with_trailer()) {
        return std::string(s.name) +
               (offset < h.offset + h.size ? "" : " trailer");
      }
    }
    if (offset >= footer_offset) return "footer";
    if (offset >= meta_offset + TableMeta::EncodedLength(meta.format_version)) {
      return "meta trailer";
    }
    if (offset >= meta_offset) return "meta block";
    return "between sections?";
  }
};

inline FileMap MapOf(TableFile* f) {
  FileMap l;
  std::unique_ptr<TableReader> t;
  EXPECT_OK(f->Open(false, &t));
  if (t == nullptr) return l;
  l.meta = ViewOf(t.get()).meta();
  const BlockTable& blocks = BlocksOf(t.get());
  for (size_t b = 0; b < blocks.num_blocks(); ++b) {
    l.blocks.push_back(blocks.Get(b));
  }
  EXPECT_OK(Env::Default()->GetFileSize(f->path(), &l.file_size));
  l.footer_offset = l.file_size - kFooterSize;
  l.meta_offset = l.footer_offset - kTrailerSize -
                  TableMeta::EncodedLength(l.meta.format_version);
  return l;
}

// ---------------------------------------------------------------------------
// Reads of a possibly damaged table, checked against the model.

struct ReadReport {
  int corruptions = 0;  // reads that answered Corruption
  int wrong = 0;        // wrong answers (each also a test failure)
  int incomplete = 0;   // reads that may not block and needed a read
  bool scan_corruption = false;
  Status verify;  // what VerifyChecksum said
};

// Collects a failure message and reports it when it goes out of scope.
class FailureMessage {
 public:
  FailureMessage(const std::string& context, bool quiet)
      : context_(context), quiet_(quiet) {}
  FailureMessage(FailureMessage&&) = default;
  ~FailureMessage() {
    if (!quiet_) ADD_FAILURE() << context_ << ": " << os_.str();
  }
  template <typename T>
  FailureMessage& operator<<(const T& v) {
    os_ << v;
    return *this;
  }

 private:
  std::string context_;
  bool quiet_;
  std::ostringstream os_;
};

class Checker {
 public:
  Checker(const Model& m, const std::string& fname) : m_(m), fname_(fname) {}

  // Says what was done to the file, for failure messages.
  void set_context(const std::string& context) { context_ = context; }
  int failures() const { return failures_; }

  // A failed read or open must say Corruption and name the file.
  bool IsNamedCorruption(const Status& s) const {
    return s.IsCorruption() && Contains(s.ToString(), fname_);
  }

  void AcceptError(const Status& s, const std::string& what, ReadReport* r) {
    if (IsNamedCorruption(s)) {
      r->corruptions++;
      return;
    }
    Fail(r) << what << ": expected Corruption naming the file, got "
            << s.ToString();
  }

  // `check`: every answer must be right or Corruption (with checksums, or
  // without them where the reader still promises it, as for compressed
  // blocks); otherwise only no crash and no odd status.
  void Gets(TableReader* t, bool verify, ReadReport* r) {
    Gets(t, verify, verify, r);
  }
  void Gets(TableReader* t, bool verify, bool check, ReadReport* r) {
    ReadOptions ro;
    ro.verify_checksums = verify;
    Gets(t, ro, check, r);
  }
  // With `ro` as given: a read that may not block (kBlockCacheTier) may
  // also answer Incomplete, its key marked as may exist.
  void Gets(TableReader* t, const ReadOptions& ro, bool check,
            ReadReport* r) {
    for (const Query& q : m_.queries) {
      GetContext::GetState state;
      std::string value;
      bool value_found = true;
      Status s = Get(t, q.user_key, q.snapshot, ro, &state, &value,
                     &value_found);
      if (s.IsIncomplete() && ro.read_tier == kBlockCacheTier) {
        r->incomplete++;
        if (value_found) Fail(r) << "Incomplete, but the value was found";
        continue;
      }
      if (!check) {
        // No promise about answers, only about staying up and sane.
        if (!s.ok() && !s.IsCorruption()) {
          Fail(r) << "Get without checksums: " << s.ToString();
        }
        continue;
      }
      const std::string what = "Get(" + Slice(q.user_key).ToString(true) +
                               " @" + std::to_string(q.snapshot) + ")";
      if (!s.ok()) {
        AcceptError(s, what, r);
      } else if (state != q.state ||
                 (state == GetContext::kFound && value != q.value)) {
        Fail(r) << what << ": wrong answer: state " << state << " value \""
                << Slice(value).ToString(true) << "\", expected state "
                << q.state << " value \"" << Slice(q.value).ToString(true)
                << "\"";
      }
    }
  }

  // Forward and backward scans and seeks: a correct prefix, then either the
  // end (after the last entry) or Corruption.
  void Scans(TableReader* t, bool verify, ReadReport* r) {
    Scans(t, verify, verify, r);
  }
  void Scans(TableReader* t, bool verify, bool check, ReadReport* r) {
    ReadOptions ro;
    ro.verify_checksums = verify;
    std::unique_ptr<InternalIterator> it(t->NewIterator(
        ro, nullptr, nullptr, false, TableReaderCaller::kUncategorized));
    const auto& e = m_.entries;
    size_t i = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next(), ++i) {
      if (!check) continue;
      if (i >= e.size() || it->key() != Slice(e[i].first) ||
          it->value() != Slice(e[i].second)) {
        Fail(r) << "forward scan: wrong entry " << i << ": "
                << it->key().ToString(true);
        return;
      }
    }
    if (!it->status().ok()) {
      r->scan_corruption = true;
      if (check) {
        AcceptError(it->status(), "forward scan", r);
      } else if (!it->status().IsCorruption()) {
        Fail(r) << "scan without checksums: " << it->status().ToString();
      }
    } else if (check && i != e.size()) {
      Fail(r) << "forward scan ended cleanly after " << i << " of "
              << e.size() << " entries";
    }
    if (!check) return;
    i = e.size();
    for (it->SeekToLast(); it->Valid(); it->Prev(), --i) {
      if (i == 0 || it->key() != Slice(e[i - 1].first) ||
          it->value() != Slice(e[i - 1].second)) {
        Fail(r) << "backward scan: wrong entry " << i - 1 << ": "
                << it->key().ToString(true);
        return;
      }
    }
    if (!it->status().ok()) {
      AcceptError(it->status(), "backward scan", r);
    } else if (i != 0) {
      Fail(r) << "backward scan ended cleanly with " << i << " entries left";
    }
    for (size_t j = 0; j < e.size(); j += 5) {
      it->Seek(e[j].first);
      if (!it->Valid()) {
        if (it->status().ok()) {
          Fail(r) << "Seek to entry " << j << " found nothing";
        } else {
          AcceptError(it->status(), "Seek", r);
        }
      } else if (it->key() != Slice(e[j].first) ||
                 it->value() != Slice(e[j].second)) {
        Fail(r) << "Seek to entry " << j << " landed on "
                << it->key().ToString(true);
      }
    }
  }

  // After a successful open, what open verified must read back exactly.
  void Sections(TableReader* t, ReadReport* r) {
    auto props = t->GetTableProperties();
    // num_entries counts range deletions too, as BlockBasedTable's does.
    if (props->num_entries != m_.entries.size() + m_.tombstones.size() ||
        props->num_range_deletions != m_.tombstones.size()) {
      Fail(r) << "properties: " << props->num_entries << " entries, "
              << props->num_range_deletions << " range deletions";
    }
    std::unique_ptr<FragmentedRangeTombstoneIterator> it(
        t->NewRangeTombstoneIterator(ReadOptions()));
    size_t i = 0;
    if (it != nullptr) {
      for (it->SeekToFirst(); it->Valid(); it->Next(), ++i) {
        ParsedInternalKey start;
        if (i >= m_.tombstones.size() ||
            !ParseInternalKey(m_.tombstones[i].first, &start, false).ok() ||
            it->start_key() != start.user_key ||
            it->end_key() != Slice(m_.tombstones[i].second) ||
            it->seq() != start.sequence) {
          Fail(r) << "range tombstone " << i << " differs";
          return;
        }
      }
    }
    if (i != m_.tombstones.size()) {
      Fail(r) << i << " range tombstones, expected " << m_.tombstones.size();
    }
  }

  // Everything a reader can be asked, with checksums verified; then
  // VerifyChecksum (which must fail only with a named Corruption).
  ReadReport CheckAll(TableReader* t) {
    ReadReport r;
    Sections(t, &r);
    Gets(t, true, &r);
    Scans(t, true, &r);
    // Again: a block verified (or refused) once answers the same way.
    Gets(t, true, &r);
    r.verify =
        t->VerifyChecksum(ReadOptions(), TableReaderCaller::kUncategorized);
    if (!r.verify.ok()) {
      ReadReport ignored;
      AcceptError(r.verify, "VerifyChecksum", &ignored);
      r.wrong += ignored.wrong;
    }
    return r;
  }

  // Reads without checksums: the reader checks what it reads whatever
  // verify_checksums says (kVerifyReads), so every answer is right or a
  // named Corruption here too.
  ReadReport Unverified(TableReader* t) {
    ReadReport r;
    Gets(t, false, true, &r);
    Scans(t, false, true, &r);
    return r;
  }

  // Reads of a file crafted with valid checksums over other valid data:
  // any answer (no reader can tell), but no crash and no odd status.
  void Unchecked(TableReader* t) {
    ReadReport r;
    Gets(t, false, false, &r);
    Scans(t, false, false, &r);
  }

  static Status Get(TableReader* t, const std::string& user_key,
                    SequenceNumber snapshot, bool verify,
                    GetContext::GetState* state, std::string* value) {
    ReadOptions ro;
    ro.verify_checksums = verify;
    return Get(t, user_key, snapshot, ro, state, value, nullptr);
  }
  static Status Get(TableReader* t, const std::string& user_key,
                    SequenceNumber snapshot, const ReadOptions& ro,
                    GetContext::GetState* state, std::string* value,
                    bool* value_found) {
    PinnableSlice v;
    MergeContext merge_context;
    SequenceNumber max_covering = 0;
    // A merge operator, as a DB that has merges has: damage read without
    // checksums can turn a deletion's type byte into a merge's.
    static const test_util::JoinMergeOperator append(',',
                                                     "CorruptionTestAppend");
    GetContext ctx(BytewiseComparator(), &append, nullptr, nullptr,
                   GetContext::kNotFound, user_key, &v, nullptr, value_found,
                   &merge_context, true, &max_covering,
                   SystemClock::Default().get());
    Status s = t->Get(ro, IKey(user_key, snapshot, kValueTypeForSeek), &ctx,
                      nullptr);
    *state = ctx.State();
    value->assign(v.data(), v.size());
    return s;
  }

 private:
  // Counts a wrong answer; the first few are reported in full.
  FailureMessage Fail(ReadReport* r) {
    r->wrong++;
    return FailureMessage(context_, ++failures_ > 40);
  }

  const Model& m_;
  const std::string fname_;
  std::string context_;
  int failures_ = 0;
};

// ---------------------------------------------------------------------------
// Editing files.

inline std::string Flipped(std::string bytes, uint64_t offset, uint8_t mask = 0x40) {
  bytes[offset] = static_cast<char>(bytes[offset] ^ mask);
  return bytes;
}

// The file with the section contents at `offset` replaced by `contents` (of
// the same size) and the trailer after them recomputed.
inline std::string WithSection(std::string bytes, uint64_t offset,
                        const std::string& contents) {
  std::string trailer;
  AppendTrailer(contents, kNoCompression, &trailer);
  bytes.replace(offset, contents.size(), contents);
  bytes.replace(offset + contents.size(), kTrailerSize, trailer);
  return bytes;
}

// `contents` with its leading varint (a section's count) overwritten by
// `count`'s varint, the rest left as it was.
inline std::string WithCount(std::string contents, uint64_t count) {
  std::string v;
  PutVarint64(&v, count);
  contents.replace(0, v.size(), v);
  return contents;
}

// The file with its meta block edited, and the meta trailer recomputed.
inline std::string WithMeta(const std::string& bytes, const FileMap& l,
                     const std::function<void(TableMeta*)>& edit) {
  TableMeta meta = l.meta;
  edit(&meta);
  // A version newer than this reader's keeps the file's own meta layout
  // (whatever a newer one is, its first field says its version).
  const uint32_t version = meta.format_version;
  if (version > kFormatVersion) meta.format_version = l.meta.format_version;
  std::string enc;
  meta.EncodeTo(&enc);
  if (version > kFormatVersion) EncodeFixed32(&enc[0], version);
  return WithSection(bytes, l.meta_offset, enc);
}

// The file with a new footer, the meta block's footer CRC and its trailer
// recomputed to vouch for it.
inline std::string WithFooter(const std::string& bytes, const FileMap& l,
                       const std::string& footer,
                       const std::function<void(TableMeta*)>& edit = nullptr) {
  std::string out = bytes;
  out.replace(l.footer_offset, kFooterSize, footer);
  return WithMeta(out, l, [&](TableMeta* m) {
    m->footer_crc = crc32c::Mask(crc32c::Value(footer.data(), footer.size()));
    if (edit) edit(m);
  });
}

// One file of each layout, for the suites that check every layout alike:
// a log file (many small blocks), an inline file in hash order and three
// in key order (several pages of slots each; one of binary keys, one of
// decimal ones through a digit map, one of keys whose first bytes vary
// little through a long one), a paged file, and one of pages then a log
// (enough pages to stream, then 30 entries in the log).
struct LayoutCase {
  const char* name;
  bool is_inline;
  bool key_ordered;
  bool paged = false;
  int keys = 300;
  int log_tail_from = -1;
  bool digit_map = false;
  bool long_map = false;
};
inline std::vector<LayoutCase> AllLayouts() {
  return {LayoutCase{"log", false, false},
          LayoutCase{"inline_hash_order", true, false},
          LayoutCase{"inline_key_order", true, true},
          LayoutCase{"inline_digit_map", true, true, false, 300, -1, true},
          LayoutCase{"inline_long_digit_map", true, true, false, 300, -1,
                     false, true},
          LayoutCase{"paged", false, false, true},
          LayoutCase{"paged_log", false, false, true, 2430, 2400}};
}
inline std::string LayoutCaseName(
    const ::testing::TestParamInfo<LayoutCase>& i) {
  return i.param.name;
}
// Builds `c`'s file of c.keys keys (seed `seed`) with `opts` in `f`: its
// model in `*m`, its bytes returned; checks it took the layout asked for.
inline std::string BuildLayoutCase(TableFile* f, const LayoutCase& c,
                                   uint64_t seed, RobinHoodTableOptions opts,
                                   Model* m) {
  opts.inline_key_order = c.key_ordered;
  *m = c.is_inline || c.paged
           ? MakeCompactedModel(c.keys, seed,
                                c.key_ordered && !c.digit_map && !c.long_map,
                                c.paged, 70, c.log_tail_from, c.long_map)
           : MakeModel(c.keys, seed);
  const std::string bytes = BuildModel(f, *m, opts);
  const FileMap l = MapOf(f);
  EXPECT_EQ(l.meta.is_inline(), c.is_inline);
  EXPECT_EQ(l.meta.key_ordered(), c.key_ordered);
  EXPECT_EQ(l.meta.is_paged(), c.paged);
  EXPECT_EQ(l.meta.has_log_tail(), c.log_tail_from >= 0);
  if (c.is_inline) {
    // The oldest version that describes the file: 11 where the slots leave
    // out the keys' prefix, else 10 for a long map, 9 for a short one.
    InlineDirectory dir;
    const Status s = dir.DecodeFrom(
        Slice(bytes.data() + l.meta.block_table.offset, l.meta.block_table.size),
        l.meta, "layout case");
    EXPECT_TRUE(s.ok()) << s.ToString();
    const uint32_t positions = dir.model.mapped_positions();
    EXPECT_EQ(positions != 0, c.digit_map || c.long_map);
    EXPECT_EQ(positions > kMaxShortMapPositions, c.long_map);
    EXPECT_EQ(l.meta.format_version,
              dir.shape.elided != 0 ? kFormatVersionElidedPrefix
              : c.long_map          ? kFormatVersionLongDigitMap
              : c.digit_map         ? kFormatVersionDigitMap
                                    : kFormatVersionInlineFile);
  }
  return bytes;
}

// The codecs the host library has (and the reader can undo), but none.
inline std::vector<CompressionType> Codecs() {
  std::vector<CompressionType> out;
  for (CompressionType c : GetSupportedCompressions()) {
    if (c != kNoCompression && c != robinhood::compat::kZstdNotFinal &&
        CanUncompress(c)) {
      out.push_back(c);
    }
  }
  return out;
}

inline std::string CodecName(CompressionType c) {
  switch (c) {
    case kSnappyCompression: return "snappy";
    case kZlibCompression: return "zlib";
    case kBZip2Compression: return "bzip2";
    case kLZ4Compression: return "lz4";
    case kLZ4HCCompression: return "lz4hc";
    case kZSTD: return "zstd";
    default: return "codec" + std::to_string(static_cast<int>(c));
  }
}

// Values that compress (so most blocks are stored compressed) yet differ.
inline Model CompressibleModel() {
  Model m = MakeModel(120, 3);
  auto fill = [](std::string* v) {
    for (size_t i = 0; i < v->size(); ++i) v->at(i) = "abcabd"[i % 6];
  };
  for (auto& e : m.entries) fill(&e.second);
  for (auto& q : m.queries) fill(&q.value);
  return m;
}

inline RobinHoodTableOptions SmallBlocks() {
  RobinHoodTableOptions opts;
  opts.log_block_size = 256;  // the minimum: many blocks
  opts.sparse_index_interval = 4;
  return opts;
}

}  // namespace harness
}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
