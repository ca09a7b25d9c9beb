// DB-level tests: RocksDB with RobinHoodTable as its table format, driven
// only through the public RocksDB API and our public header. Every check is
// compared against a std::map model of the database (or of the database as
// seen at a snapshot), over mmap reads on/off and two table configurations:
// the defaults, and one that forces many tiny log blocks and a dense sparse
// index (load_factor 0.5, sparse_index_interval 1, log_block_size 256).
//
// Auto compactions are off unless a test says otherwise, and tests flush
// explicitly, so the versions a test talks about really live in our SST files.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/iterator.h"
#include "rocksdb/merge_operator.h"
#include "rocksdb/metadata.h"
#include "rocksdb/options.h"
#include "rocksdb/slice.h"
#include "rocksdb/snapshot.h"
#include "rocksdb/table_properties.h"
#include "rocksdb_robinhood/robinhood_table.h"
#include "tests/test_util.h"

namespace ROCKSDB_NAMESPACE {
namespace {

// Stop the test at the first verification that fails: one failing read
// path otherwise repeats through every later check.
#define VERIFY(...) ASSERT_NO_FATAL_FAILURE(Verify(__VA_ARGS__))
#define VERIFY_BOUNDS(...) ASSERT_NO_FATAL_FAILURE(VerifyBounds(__VA_ARGS__))
#define RANDOM_WALK(...) ASSERT_NO_FATAL_FAILURE(RandomWalk(__VA_ARGS__))

using Model = std::map<std::string, std::string>;
using KVs = std::vector<std::pair<std::string, std::string>>;

// User properties every RobinHoodTable file carries (docs/format.md).
const char kOurProperty[] = "rocksdb.robinhood.format.version";
const char kFactoryProperty[] = "rocksdb.robinhood.factory";

// Printable form of a key or value for failure messages.
std::string P(const std::string& s) {
  if (s.size() > 48) {
    return "<" + std::to_string(s.size()) + " bytes: " +
           Slice(s.data(), 24).ToString(true) + "...>";
  }
  for (char c : s) {
    if (!isprint(static_cast<unsigned char>(c))) {
      return "0x" + Slice(s).ToString(true) + " (" +
             std::to_string(s.size()) + " bytes)";
    }
  }
  return "\"" + s + "\"";
}

std::string Key(int i) {
  char buf[32];
  snprintf(buf, sizeof(buf), "key%06d", i);
  return buf;
}

// A deterministic value of varying length (1..~240 bytes) for key i, version v.
std::string Value(int i, int v) {
  std::string s = "v" + std::to_string(i) + "." + std::to_string(v) + ".";
  size_t len = 1 + static_cast<size_t>((i * 7 + v * 13) % 223);
  while (s.size() < len) s.push_back(static_cast<char>('a' + (s.size() % 26)));
  return s;
}

KVs InRange(const Model& m, const std::string* lb, const std::string* ub) {
  KVs out;
  for (const auto& kv : m) {
    if (lb != nullptr && kv.first < *lb) continue;
    if (ub != nullptr && kv.first >= *ub) continue;
    out.push_back(kv);
  }
  return out;
}

struct TableConfig {
  const char* name;
  RobinHoodTableOptions options;
  CompressionType compression;
};

// The strongest codec this RocksDB build supports (snappy if none better).
CompressionType BestCodec() {
  CompressionType best = kSnappyCompression;
  for (CompressionType t : GetSupportedCompressions()) {
    if (t == kZSTD || (t == kLZ4Compression && best != kZSTD)) best = t;
  }
  return best;
}

// 0: everything default (RocksDB's default compression, Snappy).
// 1: many tiny uncompressed blocks, a sparse index entry per entry, a
//    half-empty hash index.
// 2: the same tiny blocks, compressed: small blocks often do not compress
//    enough and are stored raw, so files mix compressed and raw blocks.
TableConfig GetConfig(int i) {
  TableConfig c{"default", RobinHoodTableOptions(), Options().compression};
  if (i >= 1) {
    c.name = i == 1 ? "tinyblocks" : "tinyblocks_compressed";
    c.options.load_factor = 0.5;
    c.options.sparse_index_interval = 1;
    c.options.log_block_size = 256;
    c.compression = i == 1 ? kNoCompression : BestCodec();
  }
  return c;
}

class RobinHoodDBTest
    : public testing::TestWithParam<std::tuple<bool, int>> {
 protected:
  bool mmap() const { return std::get<0>(GetParam()); }
  TableConfig config() const { return GetConfig(std::get<1>(GetParam())); }

  void SetUp() override {
    const auto* info = testing::UnitTest::GetInstance()->current_test_info();
    std::string name =
        std::string(info->test_suite_name()) + "_" + info->name();
    for (char& c : name) {
      if (!isalnum(static_cast<unsigned char>(c))) c = '_';
    }
    std::string dir = testing::TempDir();
    if (dir.empty() || dir.back() != '/') dir.push_back('/');
    dbname_ = dir + "rh_db_test_" + std::to_string(getpid()) + "_" + name;
    options_ = BaseOptions();
    ASSERT_OK(DestroyDB(dbname_, options_));
    ASSERT_OK(Open());
  }

  void TearDown() override {
    Close();
    EXPECT_OK(DestroyDB(dbname_, options_));
  }

  Options BaseOptions() const {
    Options o;
    o.create_if_missing = true;
    o.disable_auto_compactions = true;
    o.allow_mmap_reads = mmap();
    o.merge_operator =
        std::make_shared<test_util::JoinMergeOperator>(',', "RobinHoodTestAppend");
    o.table_factory.reset(NewRobinHoodTableFactory(config().options));
    o.compression = config().compression;
    o.write_buffer_size = 64 << 20;
    return o;
  }

  Status Open() { return Open(options_); }
  Status Open(const Options& o) {
    return test_util::OpenDB(o, dbname_, &db_);
  }
  void Close() {
    if (db_ != nullptr) {
      for (const Snapshot* s : snapshots_) db_->ReleaseSnapshot(s);
      EXPECT_OK(db_->Close());
      db_.reset();
    }
    snapshots_.clear();
  }
  void Reopen() {
    Close();
    ASSERT_OK(Open());
  }

  // --- Writes, applied to the DB and to model_ ---
  void Put(const std::string& k, const std::string& v) {
    ASSERT_OK(db_->Put(WriteOptions(), k, v));
    model_[k] = v;
    keys_.insert(k);
  }
  void Delete(const std::string& k) {
    ASSERT_OK(db_->Delete(WriteOptions(), k));
    model_.erase(k);
    keys_.insert(k);
  }
  // REQUIRES: k was Put exactly once since its last (single) delete.
  void SingleDelete(const std::string& k) {
    ASSERT_OK(db_->SingleDelete(WriteOptions(), k));
    model_.erase(k);
    keys_.insert(k);
  }
  void Merge(const std::string& k, const std::string& v) {
    ASSERT_OK(db_->Merge(WriteOptions(), k, v));
    auto it = model_.find(k);
    if (it == model_.end()) {
      model_[k] = v;
    } else {
      it->second += "," + v;
    }
    keys_.insert(k);
  }
  void DeleteRange(const std::string& b, const std::string& e) {
    ASSERT_OK(db_->DeleteRange(WriteOptions(), db_->DefaultColumnFamily(), b,
                               e));
    model_.erase(model_.lower_bound(b), model_.lower_bound(e));
    keys_.insert(b);
    keys_.insert(e);
  }
  void Flush() {
    FlushOptions fo;
    fo.wait = true;
    ASSERT_OK(db_->Flush(fo));
  }
  // A full, bottommost compaction (sequence numbers go to zero where no
  // snapshot needs them).
  void Compact() {
    CompactRangeOptions cro;
    cro.bottommost_level_compaction = BottommostLevelCompaction::kForce;
    ASSERT_OK(db_->CompactRange(cro, nullptr, nullptr));
  }
  const Snapshot* TakeSnapshot() {
    const Snapshot* s = db_->GetSnapshot();
    snapshots_.push_back(s);
    return s;
  }
  void Release(const Snapshot* s) {
    snapshots_.erase(std::find(snapshots_.begin(), snapshots_.end(), s));
    db_->ReleaseSnapshot(s);
  }

  std::vector<LiveFileMetaData> Files() {
    std::vector<LiveFileMetaData> files;
    db_->GetLiveFilesMetaData(&files);
    return files;
  }
  int NumFiles() { return static_cast<int>(Files().size()); }

  // Every live SST file was written by RobinHoodTable.
  void ExpectOurTables() {
    TablePropertiesCollection props;
    ASSERT_OK(db_->GetPropertiesOfAllTables(&props));
    for (const auto& p : props) {
      const auto& user = p.second->user_collected_properties;
      EXPECT_EQ(user.count(kOurProperty), 1u)
          << p.first << " does not look like a RobinHoodTable file";
      auto f = user.find(kFactoryProperty);
      EXPECT_TRUE(f != user.end() && f->second == kRobinHoodTableName)
          << p.first << ": property " << kFactoryProperty << " is "
          << (f == user.end() ? "missing" : f->second);
    }
  }

  // Keys to probe: every key ever written, plus neighbours that may or may
  // not exist, plus the extremes.
  std::vector<std::string> Probes() const {
    std::set<std::string> p(keys_.begin(), keys_.end());
    for (const auto& k : keys_) {
      p.insert(k + std::string(1, '\0'));
      p.insert(k + "\xff");
      if (!k.empty()) p.insert(k.substr(0, k.size() - 1));
    }
    p.insert("");
    p.insert("\xff\xff\xff\xff");
    p.insert("zzzz");
    return std::vector<std::string>(p.begin(), p.end());
  }

  // Checks Get, both MultiGets, full scans both ways, Seek and SeekForPrev
  // on every probe, and a random walk of Next/Prev, all against `m` read at
  // `snap` (nullptr: latest).
  void Verify(const Model& m, const Snapshot* snap, const std::string& label,
              int walk_steps = 1500) {
    SCOPED_TRACE(label);
    ReadOptions ro;
    ro.snapshot = snap;
    ro.verify_checksums = true;
    const std::vector<std::string> probes = Probes();
    ASSERT_NO_FATAL_FAILURE(VerifyGets(ro, m, probes));
    ASSERT_NO_FATAL_FAILURE(VerifyMultiGets(ro, m, probes));
    KVs all(m.begin(), m.end());
    ASSERT_NO_FATAL_FAILURE(VerifyScans(ro, all));
    ASSERT_NO_FATAL_FAILURE(VerifySeeks(ro, all, probes));
    ASSERT_NO_FATAL_FAILURE(RandomWalk(ro, all, probes, 301, walk_steps));
  }
  void Verify(const std::string& label) { Verify(model_, nullptr, label); }

  void VerifyGets(const ReadOptions& ro, const Model& m,
                  const std::vector<std::string>& probes) {
    int errors = 0;
    for (const auto& k : probes) {
      std::string v;
      Status s = db_->Get(ro, k, &v);
      auto it = m.find(k);
      if (it == m.end()) {
        if (!s.IsNotFound()) {
          ADD_FAILURE() << "Get(" << P(k) << "): expected NotFound, got "
                        << s.ToString() << " value " << P(v);
          if (++errors >= 10) FAIL() << "stopping after 10 mismatches";
        }
      } else if (!s.ok() || v != it->second) {
        ADD_FAILURE() << "Get(" << P(k) << "): expected " << P(it->second)
                      << ", got " << s.ToString() << " value " << P(v);
        if (++errors >= 10) FAIL() << "stopping after 10 mismatches";
      }
    }
    ASSERT_EQ(errors, 0) << "Get mismatches";
  }

  void VerifyMultiGets(const ReadOptions& ro, const Model& m,
                       const std::vector<std::string>& probes) {
    int errors = 0;
    // Batched MultiGet, in batches larger than RocksDB's internal batch of 32,
    // unsorted and with a duplicate in each batch.
    const size_t kBatch = 77;
    for (size_t start = 0; start < probes.size(); start += kBatch) {
      std::vector<std::string> batch;
      for (size_t i = start; i < std::min(probes.size(), start + kBatch); i++) {
        batch.push_back(probes[i]);
      }
      batch.push_back(batch.front());
      std::reverse(batch.begin(), batch.end());
      std::vector<Slice> keys(batch.begin(), batch.end());
      std::vector<PinnableSlice> values(keys.size());
      std::vector<Status> statuses(keys.size());
      db_->MultiGet(ro, db_->DefaultColumnFamily(), keys.size(), keys.data(),
                    values.data(), statuses.data());
      for (size_t i = 0; i < batch.size(); i++) {
        auto it = m.find(batch[i]);
        if (it == m.end()) {
          if (!statuses[i].IsNotFound()) {
            ADD_FAILURE() << "MultiGet(batched) " << P(batch[i])
                          << ": expected NotFound, got "
                          << statuses[i].ToString();
            if (++errors >= 10) FAIL() << "stopping after 10 mismatches";
          }
        } else if (!statuses[i].ok() || values[i].ToString() != it->second) {
          ADD_FAILURE() << "MultiGet(batched) " << P(batch[i])
                        << ": expected " << P(it->second) << ", got "
                        << statuses[i].ToString() << " value "
                        << P(values[i].ToString());
          if (++errors >= 10) FAIL() << "stopping after 10 mismatches";
        }
      }
    }
    // The std::vector MultiGet, over everything at once.
    std::vector<Slice> keys(probes.begin(), probes.end());
    std::vector<std::string> values;
    std::vector<Status> statuses = db_->MultiGet(ro, keys, &values);
    ASSERT_EQ(statuses.size(), probes.size());
    for (size_t i = 0; i < probes.size(); i++) {
      auto it = m.find(probes[i]);
      if (it == m.end()) {
        if (!statuses[i].IsNotFound()) {
          ADD_FAILURE() << "MultiGet(vector) " << P(probes[i])
                        << ": expected NotFound, got "
                        << statuses[i].ToString();
          if (++errors >= 10) FAIL() << "stopping after 10 mismatches";
        }
      } else if (!statuses[i].ok() || values[i] != it->second) {
        ADD_FAILURE() << "MultiGet(vector) " << P(probes[i]) << ": expected "
                      << P(it->second) << ", got " << statuses[i].ToString()
                      << " value " << P(values[i]);
        if (++errors >= 10) FAIL() << "stopping after 10 mismatches";
      }
    }
    ASSERT_EQ(errors, 0) << "MultiGet mismatches";
  }

  void VerifyScans(const ReadOptions& ro, const KVs& exp) {
    std::unique_ptr<Iterator> it(db_->NewIterator(ro));
    size_t i = 0;
    std::string why;
    for (it->SeekToFirst(); it->Valid(); it->Next(), i++) {
      ASSERT_LT(i, exp.size()) << "forward scan: extra key "
                               << P(it->key().ToString());
      ASSERT_TRUE(At(it.get(), exp, static_cast<long>(i), &why))
          << "forward scan, position " << i << ": " << why;
    }
    ASSERT_OK(it->status());
    ASSERT_EQ(i, exp.size()) << "forward scan ended early";
    i = exp.size();
    for (it->SeekToLast(); it->Valid(); it->Prev()) {
      ASSERT_GT(i, 0u) << "backward scan: extra key "
                       << P(it->key().ToString());
      i--;
      ASSERT_TRUE(At(it.get(), exp, static_cast<long>(i), &why))
          << "backward scan, position " << i << ": " << why;
    }
    ASSERT_OK(it->status());
    ASSERT_EQ(i, 0u) << "backward scan ended early";
  }

  static size_t LowerBound(const KVs& exp, const std::string& t) {
    return std::lower_bound(exp.begin(), exp.end(), t,
                            [](const std::pair<std::string, std::string>& kv,
                               const std::string& k) { return kv.first < k; }) -
           exp.begin();
  }
  static size_t UpperBound(const KVs& exp, const std::string& t) {
    return std::upper_bound(exp.begin(), exp.end(), t,
                            [](const std::string& k,
                               const std::pair<std::string, std::string>& kv) {
                              return k < kv.first;
                            }) -
           exp.begin();
  }

  // Checks that `it` is at exp[pos] (pos == exp.size() or pos < 0: invalid).
  static bool At(Iterator* it, const KVs& exp, long pos, std::string* why) {
    bool want_valid = pos >= 0 && pos < static_cast<long>(exp.size());
    if (it->Valid() != want_valid) {
      *why = want_valid ? "invalid, expected " + P(exp[pos].first)
                        : "valid at " + P(it->key().ToString()) +
                              ", expected invalid (" + it->status().ToString() +
                              ")";
      if (!it->Valid() && !it->status().ok()) {
        *why += " status " + it->status().ToString();
      }
      return false;
    }
    if (!want_valid) return true;
    if (it->key() != Slice(exp[pos].first)) {
      *why = "at " + P(it->key().ToString()) + ", expected " +
             P(exp[pos].first);
      return false;
    }
    if (it->value() != Slice(exp[pos].second)) {
      *why = "key " + P(exp[pos].first) + " value " +
             P(it->value().ToString()) + ", expected " + P(exp[pos].second);
      return false;
    }
    return true;
  }

  void VerifySeeks(const ReadOptions& ro, const KVs& exp,
                   const std::vector<std::string>& probes) {
    std::unique_ptr<Iterator> it(db_->NewIterator(ro));
    int errors = 0;
    std::string why;
    for (const auto& t : probes) {
      it->Seek(t);
      long pos = static_cast<long>(LowerBound(exp, t));
      if (!At(it.get(), exp, pos, &why)) {
        ADD_FAILURE() << "Seek(" << P(t) << "): " << why;
        if (++errors >= 10) FAIL() << "stopping after 10 mismatches";
      }
      it->SeekForPrev(t);
      pos = static_cast<long>(UpperBound(exp, t)) - 1;
      if (!At(it.get(), exp, pos, &why)) {
        ADD_FAILURE() << "SeekForPrev(" << P(t) << "): " << why;
        if (++errors >= 10) FAIL() << "stopping after 10 mismatches";
      }
    }
    ASSERT_EQ(errors, 0) << "Seek/SeekForPrev mismatches";
    ASSERT_OK(it->status());
  }

  // A random mix of seeks and Next/Prev, changing direction often.
  void RandomWalk(const ReadOptions& ro, const KVs& exp,
                  const std::vector<std::string>& probes, uint32_t seed,
                  int steps) {
    std::mt19937 rng(seed);
    std::unique_ptr<Iterator> it(db_->NewIterator(ro));
    long pos = -1;
    const long n = static_cast<long>(exp.size());
    std::string why;
    std::string history;
    for (int step = 0; step < steps; step++) {
      int op = static_cast<int>(rng() % 12);
      bool valid = pos >= 0 && pos < n;
      if (!valid && op >= 4) op = static_cast<int>(rng() % 4);
      std::string t = probes[rng() % probes.size()];
      std::string desc;
      switch (op) {
        case 0:
          it->Seek(t);
          pos = static_cast<long>(LowerBound(exp, t));
          desc = "Seek(" + P(t) + ")";
          break;
        case 1:
          it->SeekForPrev(t);
          pos = static_cast<long>(UpperBound(exp, t)) - 1;
          desc = "SeekForPrev(" + P(t) + ")";
          break;
        case 2:
          it->SeekToFirst();
          pos = 0;
          desc = "SeekToFirst";
          break;
        case 3:
          it->SeekToLast();
          pos = n - 1;
          desc = "SeekToLast";
          break;
        default:
          if (op < 8) {
            it->Next();
            pos++;
            desc = "Next";
          } else {
            it->Prev();
            pos--;
            desc = "Prev";
          }
      }
      if (pos >= n) pos = n;
      if (pos < 0) pos = -1;
      history += " " + desc;
      if (history.size() > 600) history = "..." + history.substr(300);
      if (!At(it.get(), exp, pos, &why)) {
        FAIL() << "random walk seed " << seed << " step " << step
               << " after " << desc << ": " << why
               << "\n  ops so far:" << history;
      }
    }
    ASSERT_OK(it->status());
  }

  // Scans, seeks and a random walk with iterate_lower_bound and
  // iterate_upper_bound (either may be null).
  void VerifyBounds(const Model& m, const Snapshot* snap,
                    const std::string* lb, const std::string* ub) {
    SCOPED_TRACE("bounds [" + (lb ? P(*lb) : "-inf") + ", " +
                 (ub ? P(*ub) : "+inf") + ")");
    Slice lbs, ubs;
    ReadOptions ro;
    ro.snapshot = snap;
    if (lb != nullptr) {
      lbs = *lb;
      ro.iterate_lower_bound = &lbs;
    }
    if (ub != nullptr) {
      ubs = *ub;
      ro.iterate_upper_bound = &ubs;
    }
    KVs exp = InRange(m, lb, ub);
    std::vector<std::string> probes = Probes();
    ASSERT_NO_FATAL_FAILURE(VerifyScans(ro, exp));
    ASSERT_NO_FATAL_FAILURE(VerifySeeks(ro, exp, probes));
    ASSERT_NO_FATAL_FAILURE(RandomWalk(ro, exp, probes, 77, 400));
  }

  std::string dbname_;
  Options options_;
  std::unique_ptr<DB> db_;
  std::vector<const Snapshot*> snapshots_;
  Model model_;
  std::set<std::string> keys_;  // every key ever written or deleted
};

TEST_P(RobinHoodDBTest, PutGetAfterFlush) {
  VERIFY("empty db");
  for (int i = 0; i < 1000; i++) Put(Key(i * 2), Value(i * 2, 0));
  VERIFY("memtable only");
  Flush();
  ASSERT_EQ(NumFiles(), 1);
  ExpectOurTables();
  VERIFY("after flush");
  Reopen();
  VERIFY("after reopen");
  // The same files read with mmap flipped.
  Close();
  Options flipped = options_;
  flipped.allow_mmap_reads = !mmap();
  ASSERT_OK(Open(flipped));
  VERIFY("after reopen with allow_mmap_reads flipped");
}

TEST_P(RobinHoodDBTest, OverwriteThenFlushCompactReopen) {
  for (int i = 0; i < 1000; i++) Put(Key(i), Value(i, 0));
  Flush();
  for (int i = 0; i < 1000; i += 3) Put(Key(i), Value(i, 1));
  Flush();
  for (int i = 0; i < 1200; i += 5) Put(Key(i), Value(i, 2));
  Flush();
  ASSERT_EQ(NumFiles(), 3);
  ExpectOurTables();
  VERIFY("three flushed files");
  Reopen();
  VERIFY("three files after reopen");
  Compact();
  ASSERT_EQ(NumFiles(), 1);
  ExpectOurTables();
  VERIFY("after full compaction");
  Reopen();
  VERIFY("compacted, after reopen");
  // Unflushed overwrites are recovered from the WAL into a new file.
  for (int i = 0; i < 1200; i += 7) Put(Key(i), Value(i, 3));
  Reopen();
  VERIFY("after WAL recovery");
  ExpectOurTables();
  Compact();
  VERIFY("after second compaction");
}

TEST_P(RobinHoodDBTest, DeletesAndSingleDeletesSurviveFlushAndCompaction) {
  for (int i = 0; i < 1000; i++) Put(Key(i), Value(i, 0));
  Flush();
  for (int i = 0; i < 1000; i += 4) Delete(Key(i));
  for (int i = 1; i < 1000; i += 4) SingleDelete(Key(i));
  Delete(Key(5000));  // never existed
  // A put and its single delete in the same memtable.
  Put(Key(6000), "short-lived");
  SingleDelete(Key(6000));
  Flush();
  ASSERT_EQ(NumFiles(), 2);
  ExpectOurTables();
  VERIFY("tombstones in the newer file");
  // Some deleted keys come back.
  for (int i = 0; i < 1000; i += 8) Put(Key(i), Value(i, 1));
  for (int i = 1; i < 1000; i += 8) Put(Key(i), Value(i, 1));
  Flush();
  VERIFY("resurrected in a third file");
  Reopen();
  VERIFY("after reopen");
  Compact();
  ASSERT_LE(NumFiles(), 1);
  VERIFY("after compaction");
  // Single delete the resurrected ones (each has one put since its delete).
  for (int i = 1; i < 1000; i += 8) SingleDelete(Key(i));
  Flush();
  VERIFY("second single deletes flushed");
  Compact();
  VERIFY("second compaction");
  Reopen();
  VERIFY("final reopen");
}

TEST_P(RobinHoodDBTest, SingleDeleteUnderSnapshot) {
  for (int i = 0; i < 200; i++) Put(Key(i), Value(i, 0));
  Flush();
  const Snapshot* snap = TakeSnapshot();
  Model at_snap = model_;
  for (int i = 0; i < 200; i += 2) SingleDelete(Key(i));
  Flush();
  VERIFY(at_snap, snap, "snapshot before single deletes");
  VERIFY("latest");
  Compact();
  VERIFY(at_snap, snap, "snapshot after compaction");
  VERIFY("latest after compaction");
  Release(snap);
  Compact();
  VERIFY("after release and compaction");
}

TEST_P(RobinHoodDBTest, MergesAcrossFilesAndCompaction) {
  // Keys 0..299: a base value, then merges. 300..599: merges only.
  // Every 10th key is deleted in file 3 and merged again in file 4.
  for (int i = 0; i < 300; i++) Put(Key(i), "base" + std::to_string(i));
  Flush();
  const Snapshot* snap = nullptr;
  Model at_snap;
  for (int round = 0; round < 4; round++) {
    for (int i = round % 2; i < 600; i += 1 + round) {
      Merge(Key(i), "m" + std::to_string(round) + "." + std::to_string(i));
    }
    if (round == 2) {
      for (int i = 0; i < 600; i += 10) Delete(Key(i));
    }
    Flush();
    if (round == 1) {
      snap = TakeSnapshot();
      at_snap = model_;
    }
    VERIFY("after merge round " + std::to_string(round));
  }
  ASSERT_EQ(NumFiles(), 5);
  ExpectOurTables();
  VERIFY(at_snap, snap, "snapshot after round 1");
  Reopen();  // drops the snapshot
  VERIFY("after reopen");
  snap = TakeSnapshot();
  at_snap = model_;
  for (int i = 0; i < 600; i += 3) Merge(Key(i), "late");
  Flush();
  Compact();
  ExpectOurTables();
  VERIFY("after compaction");
  VERIFY(at_snap, snap, "snapshot before late merges, after compaction");
  Release(snap);
  Compact();
  VERIFY("after compaction without snapshots");
  Reopen();
  VERIFY("compacted, after reopen");
}

TEST_P(RobinHoodDBTest, SnapshotsSeeOlderVersionsInFiles) {
  std::vector<const Snapshot*> snaps;
  std::vector<Model> models;
  for (int i = 0; i < 500; i++) Put(Key(i), Value(i, 0));
  Flush();
  for (int round = 1; round <= 5; round++) {
    snaps.push_back(TakeSnapshot());
    models.push_back(model_);
    for (int i = round; i < 500; i += round + 1) Put(Key(i), Value(i, round));
    for (int i = 0; i < 500; i += 7 * round) Delete(Key(i));
    for (int i = 500 + round * 10; i < 500 + round * 20; i++) {
      Put(Key(i), Value(i, round));
    }
    Flush();
  }
  ASSERT_EQ(NumFiles(), 6);
  ExpectOurTables();
  VERIFY("latest");
  for (size_t s = 0; s < snaps.size(); s++) {
    VERIFY(models[s], snaps[s], "snapshot " + std::to_string(s));
  }
  Compact();
  ExpectOurTables();
  VERIFY("latest after compaction");
  for (size_t s = 0; s < snaps.size(); s++) {
    VERIFY(models[s], snaps[s],
           "snapshot " + std::to_string(s) + " after compaction");
  }
  // Release every other snapshot; the rest must survive another compaction.
  for (size_t s = 0; s < snaps.size(); s += 2) Release(snaps[s]);
  Compact();
  for (size_t s = 1; s < snaps.size(); s += 2) {
    VERIFY(models[s], snaps[s],
           "snapshot " + std::to_string(s) + " after second compaction");
  }
  VERIFY("latest after second compaction");
  Reopen();
  VERIFY("latest after reopen");
}

TEST_P(RobinHoodDBTest, DeleteRangeAcrossFilesAndCompaction) {
  for (int i = 0; i < 1000; i++) Put(Key(i), Value(i, 0));
  Flush();
  const Snapshot* before = TakeSnapshot();
  Model at_before = model_;
  DeleteRange(Key(100), Key(200));  // covers keys in the older file
  DeleteRange(Key(950), Key(2000));
  Flush();
  ASSERT_EQ(NumFiles(), 2);
  VERIFY("range tombstones in their own file");
  VERIFY(at_before, before, "snapshot before the range deletes");
  // Newer puts inside a deleted range are visible; overlapping tombstones.
  for (int i = 150; i < 160; i++) Put(Key(i), Value(i, 1));
  DeleteRange(Key(180), Key(300));
  Put(Key(990), Value(990, 1));
  Flush();
  const Snapshot* middle = TakeSnapshot();
  Model at_middle = model_;
  // Tombstone and covered keys in the same memtable/file.
  for (int i = 400; i < 450; i++) Put(Key(i), Value(i, 2));
  DeleteRange(Key(410), Key(420));
  DeleteRange(Key(600), Key(601));  // a single key
  Flush();
  ExpectOurTables();
  VERIFY("four files");
  VERIFY(at_middle, middle, "snapshot in the middle");
  VERIFY(at_before, before, "snapshot before, four files");
  Reopen();
  VERIFY("after reopen");
  before = TakeSnapshot();
  at_before = model_;
  DeleteRange(Key(0), Key(10));
  Flush();
  Compact();
  ExpectOurTables();
  VERIFY("after compaction");
  VERIFY(at_before, before, "snapshot, after compaction");
  std::string lb = Key(90), ub = Key(320);
  VERIFY_BOUNDS(model_, nullptr, &lb, &ub);
  Release(before);
  Compact();
  VERIFY("after compaction without snapshots");
  Reopen();
  VERIFY("compacted, after reopen");
}

TEST_P(RobinHoodDBTest, IteratorsAcrossSeveralFilesAndAfterCompaction) {
  // File f holds keys i with i % 4 == f, plus overwrites and deletes of
  // earlier files' keys, so a scan merges four of our files.
  for (int f = 0; f < 4; f++) {
    for (int i = f; i < 1600; i += 4) Put(Key(i), Value(i, f));
    if (f > 0) {
      for (int i = f - 1; i < 1600; i += 12) Put(Key(i), Value(i, 10 + f));
      for (int i = f - 1; i < 1600; i += 20) Delete(Key(i));
    }
    Flush();
  }
  ASSERT_EQ(NumFiles(), 4);
  ExpectOurTables();
  VERIFY("four files");
  KVs all(model_.begin(), model_.end());
  std::vector<std::string> probes = Probes();
  for (uint32_t seed = 1; seed <= 5; seed++) {
    RANDOM_WALK(ReadOptions(), all, probes, seed, 2000);
  }
  Compact();
  ASSERT_EQ(NumFiles(), 1);
  VERIFY("one compacted file");
  for (uint32_t seed = 11; seed <= 15; seed++) {
    RANDOM_WALK(ReadOptions(), all, probes, seed, 2000);
  }
  // Newer L0 file over the compacted one.
  for (int i = 2; i < 1600; i += 9) Put(Key(i), Value(i, 20));
  for (int i = 3; i < 1600; i += 11) Delete(Key(i));
  Flush();
  VERIFY("L0 over L1");
  Reopen();
  VERIFY("after reopen");
}

TEST_P(RobinHoodDBTest, IteratorBounds) {
  for (int f = 0; f < 3; f++) {
    for (int i = f; i < 600; i += 3) Put(Key(i * 2), Value(i * 2, f));
    Flush();
  }
  ExpectOurTables();
  const Snapshot* snap = TakeSnapshot();
  Model at_snap = model_;
  for (int i = 0; i < 1200; i += 10) Delete(Key(i));
  for (int i = 1; i < 1200; i += 50) Put(Key(i), Value(i, 9));
  Flush();
  const std::vector<std::pair<std::string, std::string>> bounds = {
      {Key(100), Key(200)},   // both present-ish keys
      {Key(101), Key(199)},   // odd: absent keys
      {Key(0), Key(1)},       // a single key
      {Key(500), Key(500)},   // empty range
      {"", Key(50)},          // from the start
      {Key(1150), "\xff"},    // to the end
      {"a", "b"},             // before all data
      {"zz", "zzz"},          // after all data
      {"key0003", "key0009"}, // prefixes of keys
  };
  for (int phase = 0; phase < 2; phase++) {
    SCOPED_TRACE(phase == 0 ? "four files" : "compacted");
    for (const auto& b : bounds) {
      VERIFY_BOUNDS(model_, nullptr, &b.first, &b.second);
      VERIFY_BOUNDS(at_snap, snap, &b.first, &b.second);
      VERIFY_BOUNDS(model_, nullptr, &b.first, nullptr);
      VERIFY_BOUNDS(model_, nullptr, nullptr, &b.second);
    }
    Compact();
  }
}

TEST_P(RobinHoodDBTest, EmptyKeysAndEmptyValues) {
  Put("", "value of the empty key");
  Put("a", "");
  Put("b", "x");
  Put(std::string(1, '\0'), "");
  Flush();
  ExpectOurTables();
  VERIFY("first file");
  Put("", "");
  Put("b", "");
  Put("c", "");
  Flush();
  VERIFY("second file");
  Compact();
  VERIFY("compacted");
  Delete("");
  Flush();
  VERIFY("empty key deleted");
  Put("", "back");
  Reopen();
  VERIFY("after reopen");
  Compact();
  VERIFY("compacted again");
}

TEST_P(RobinHoodDBTest, BinaryKeysWithZeroAndFFBytes) {
  const std::vector<std::string> special = {
      std::string(1, '\0'),
      std::string(2, '\0'),
      std::string("\0\xff", 2),
      std::string("\xff\0", 2),
      "\xff",
      "\xff\xff",
      "\xff\xff\xff\xff\xff\xff\xff\xff\xff",
      std::string("a\0b", 3),
      std::string("a\0", 2),
      "a",
      "a\xff",
      std::string("a\0\0\0", 4),
      std::string("\x01\x00\x02", 3),
      "\x7f\x80",
      "\x80\x7f",
  };
  for (size_t i = 0; i < special.size(); i++) {
    Put(special[i], "special" + std::to_string(i) + std::string(1, '\0') +
                        "\xff");
  }
  std::mt19937 rng(1234);
  for (int i = 0; i < 800; i++) {
    std::string k(1 + rng() % 20, '\0');
    for (char& c : k) {
      uint32_t r = rng() % 4;
      c = r == 0 ? '\0' : r == 1 ? '\xff' : static_cast<char>(rng());
    }
    std::string v(rng() % 50, '\0');
    for (char& c : v) c = static_cast<char>(rng());
    Put(k, v);
    if (i % 300 == 299) Flush();
  }
  Flush();
  ExpectOurTables();
  VERIFY("binary keys in several files");
  // Overwrite and delete some of them.
  int n = 0;
  for (const auto& k : std::vector<std::string>(keys_.begin(), keys_.end())) {
    if (n++ % 3 == 0) Put(k, "over" + k);
    if (n % 7 == 0) Delete(k);
  }
  Flush();
  VERIFY("overwritten");
  Compact();
  VERIFY("compacted");
  Reopen();
  VERIFY("after reopen");
}

TEST_P(RobinHoodDBTest, ManyVersionsOfOneKey) {
  // Neighbours on both sides so versions are not alone in a file.
  for (int i = 0; i < 50; i++) Put(Key(i), Value(i, 0));
  for (int i = 51; i < 100; i++) Put(Key(i), Value(i, 0));
  std::vector<const Snapshot*> snaps;
  std::vector<std::string> versions;
  const std::string k = Key(50);
  for (int v = 0; v < 400; v++) {
    // Alternate small and larger values so versions cross log blocks.
    versions.push_back(Value(50, v) + std::string(v % 3 == 0 ? 300 : 0, 'p'));
    if (v % 50 == 49) {
      Merge(k, "merged" + std::to_string(v));
      versions.back() = model_[k];
    } else if (v % 37 == 36) {
      Delete(k);
      versions.back() = "<deleted>";
    } else {
      Put(k, versions.back());
    }
    snaps.push_back(TakeSnapshot());
    if (v % 100 == 99) Flush();  // four files, each with 100 versions of k
  }
  ASSERT_EQ(NumFiles(), 4);
  ExpectOurTables();
  auto check = [&](const std::string& label) {
    SCOPED_TRACE(label);
    for (size_t v = 0; v < snaps.size(); v++) {
      ASSERT_FALSE(HasFailure()) << "stopping at the first bad version";
      ReadOptions ro;
      ro.snapshot = snaps[v];
      std::string got;
      Status s = db_->Get(ro, k, &got);
      if (versions[v] == "<deleted>") {
        EXPECT_TRUE(s.IsNotFound()) << "version " << v << ": " << s.ToString()
                                    << " " << P(got);
      } else {
        EXPECT_TRUE(s.ok() && got == versions[v])
            << "version " << v << ": " << s.ToString() << " got " << P(got)
            << " expected " << P(versions[v]);
      }
      // An iterator at the snapshot sees exactly that version.
      std::unique_ptr<Iterator> it(db_->NewIterator(ro));
      it->Seek(k);
      ASSERT_TRUE(it->Valid()) << it->status().ToString();
      if (versions[v] == "<deleted>") {
        EXPECT_EQ(it->key().ToString(), Key(51)) << "version " << v;
      } else {
        EXPECT_EQ(it->key().ToString(), k) << "version " << v;
        EXPECT_TRUE(it->value() == Slice(versions[v]))
            << "version " << v << ": got " << P(it->value().ToString())
            << " expected " << P(versions[v]);
      }
      it->SeekForPrev(k);
      ASSERT_TRUE(it->Valid()) << it->status().ToString();
      EXPECT_EQ(it->key().ToString(),
                versions[v] == "<deleted>" ? Key(49) : k)
          << "SeekForPrev, version " << v;
    }
  };
  ASSERT_NO_FATAL_FAILURE(check("four files"));
  VERIFY("latest, four files");
  Compact();
  ASSERT_EQ(NumFiles(), 1);
  ASSERT_NO_FATAL_FAILURE(check("compacted with every snapshot held"));
  VERIFY("latest, compacted");
  // Release all but every 40th snapshot, compact again.
  std::vector<const Snapshot*> kept;
  std::vector<std::string> kept_versions;
  for (size_t v = 0; v < snaps.size(); v++) {
    if (v % 40 == 0) {
      kept.push_back(snaps[v]);
      kept_versions.push_back(versions[v]);
    } else {
      Release(snaps[v]);
    }
  }
  snaps = kept;
  versions = kept_versions;
  Compact();
  ASSERT_NO_FATAL_FAILURE(check("compacted after releasing most snapshots"));
  Reopen();
  VERIFY("after reopen");
}

TEST_P(RobinHoodDBTest, LargeValues) {
  // Every iterator step here surfaces up to 3 MiB; a shorter random walk.
  const int kWalk = 150;
  std::mt19937 rng(99);
  auto big = [&](size_t n) {
    std::string s(n, '\0');
    for (char& c : s) c = static_cast<char>(rng());
    return s;
  };
  for (int i = 0; i < 6; i++) {
    Put(Key(i * 10), big((1 << 20) + i));   // ~1 MiB
    Put(Key(i * 10 + 1), Value(i, 0));      // small neighbours
  }
  Put(Key(100), big(3 << 20));
  // Compressible large values too.
  std::string text;
  while (text.size() < (1u << 20)) text += Value(static_cast<int>(text.size()), 1);
  Put(Key(200), text);
  Put(Key(201), std::string(1 << 20, 'z'));
  Flush();
  ExpectOurTables();
  VERIFY(model_, nullptr, "first file", kWalk);
  Put(Key(10), big(1 << 20));
  Put(Key(11), big(2 << 20));
  Delete(Key(20));
  Flush();
  VERIFY(model_, nullptr, "second file", kWalk);
  Compact();
  VERIFY(model_, nullptr, "compacted", kWalk);
  Reopen();
  VERIFY(model_, nullptr, "after reopen", kWalk);
}

TEST_P(RobinHoodDBTest, MultiGet) {
  // Keys spread over three files, with deletes, merges and a range delete.
  for (int f = 0; f < 3; f++) {
    for (int i = f; i < 900; i += 3) Put(Key(i), Value(i, f));
    for (int i = f; i < 900; i += 17) Merge(Key(i), "mg" + std::to_string(f));
    for (int i = f; i < 900; i += 23) Delete(Key(i));
    Flush();
  }
  const Snapshot* snap = TakeSnapshot();
  Model at_snap = model_;
  DeleteRange(Key(300), Key(350));
  for (int i = 0; i < 900; i += 5) Put(Key(i), Value(i, 7));
  Flush();
  ExpectOurTables();
  auto check = [&](const Model& m, const Snapshot* s,
                   const std::string& label) {
    SCOPED_TRACE(label);
    ReadOptions ro;
    ro.snapshot = s;
    // Sorted, unsorted, small, large, with duplicates and missing keys.
    std::vector<std::vector<std::string>> batches;
    std::vector<std::string> all;
    for (int i = 0; i < 1000; i++) all.push_back(Key(i));
    batches.push_back(all);
    std::vector<std::string> shuffled = all;
    std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(5));
    shuffled.resize(100);
    shuffled.push_back(shuffled[3]);
    shuffled.push_back(shuffled[3]);
    batches.push_back(shuffled);
    batches.push_back({Key(1)});
    batches.push_back({Key(320), Key(320), "nope", Key(0), ""});
    for (const auto& batch : batches) {
      std::vector<Slice> keys(batch.begin(), batch.end());
      std::vector<PinnableSlice> values(keys.size());
      std::vector<Status> statuses(keys.size());
      db_->MultiGet(ro, db_->DefaultColumnFamily(), keys.size(), keys.data(),
                    values.data(), statuses.data(), /*sorted_input=*/false);
      int errors = 0;
      for (size_t i = 0; i < batch.size() && errors < 10; i++) {
        auto it = m.find(batch[i]);
        if (it == m.end()) {
          if (!statuses[i].IsNotFound()) {
            errors++;
            ADD_FAILURE() << "MultiGet " << P(batch[i])
                          << " expected NotFound, got "
                          << statuses[i].ToString() << " "
                          << P(values[i].ToString());
          }
        } else if (!statuses[i].ok() || values[i].ToString() != it->second) {
          errors++;
          ADD_FAILURE() << "MultiGet " << P(batch[i]) << " expected "
                        << P(it->second) << " got " << statuses[i].ToString()
                        << " " << P(values[i].ToString());
        }
      }
      ASSERT_EQ(errors, 0) << "MultiGet mismatches in a batch of "
                           << batch.size();
    }
  };
  ASSERT_NO_FATAL_FAILURE(check(model_, nullptr, "four files"));
  ASSERT_NO_FATAL_FAILURE(check(at_snap, snap, "snapshot, four files"));
  Compact();
  ASSERT_NO_FATAL_FAILURE(check(model_, nullptr, "compacted"));
  ASSERT_NO_FATAL_FAILURE(check(at_snap, snap, "snapshot, compacted"));
  Release(snap);
  Compact();
  ASSERT_NO_FATAL_FAILURE(check(model_, nullptr, "compacted without snapshot"));
  Reopen();
  ASSERT_NO_FATAL_FAILURE(check(model_, nullptr, "after reopen"));
}

TEST_P(RobinHoodDBTest, BottommostCompactionZeroesSequenceNumbers) {
  for (int f = 0; f < 3; f++) {
    for (int i = f; i < 1500; i += 2) Put(Key(i), Value(i, f));
    Flush();
  }
  VERIFY("three files");
  Compact();
  std::vector<LiveFileMetaData> files = Files();
  ASSERT_EQ(files.size(), 1u);
  // RocksDB zeroed every sequence number: our reader must cope.
  EXPECT_EQ(files[0].largest_seqno, 0u);
  ExpectOurTables();
  VERIFY("zeroed sequence numbers");
  {
    // Snapshot reads and iterators over the zero-seqno file.
    const Snapshot* snap = TakeSnapshot();
    Model at_snap = model_;
    for (int i = 0; i < 1500; i += 3) Put(Key(i), Value(i, 5));
    for (int i = 1; i < 1500; i += 13) Delete(Key(i));
    Flush();
    VERIFY("new L0 file over the zeroed file");
    VERIFY(at_snap, snap, "snapshot of the zeroed file");
    Release(snap);
  }
  Compact();
  files = Files();
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].largest_seqno, 0u);
  VERIFY("compacted twice");
  std::string lb = Key(100), ub = Key(900);
  VERIFY_BOUNDS(model_, nullptr, &lb, &ub);
  Reopen();
  VERIFY("after reopen");
  // Merges on top of zero-seqno values, then compacted again.
  for (int i = 0; i < 1500; i += 11) Merge(Key(i), "tail");
  Flush();
  VERIFY("merges over zeroed file");
  Compact();
  VERIFY("merges compacted");
}

TEST_P(RobinHoodDBTest, RandomOpsWithAutoCompaction) {
  // Small memtables and eager compaction, so RocksDB flushes and compacts on
  // its own while we write and read.
  Close();
  options_.disable_auto_compactions = false;
  options_.write_buffer_size = 64 << 10;
  options_.level0_file_num_compaction_trigger = 2;
  options_.max_bytes_for_level_base = 256 << 10;
  options_.target_file_size_base = 64 << 10;
  ASSERT_OK(Open());
  std::mt19937 rng(4242);
  for (int op = 0; op < 12000; op++) {
    int i = static_cast<int>(rng() % 2000);
    uint32_t r = rng() % 100;
    if (r < 70) {
      Put(Key(i), Value(i, op));
    } else if (r < 80) {
      Delete(Key(i));
    } else if (r < 95) {
      Merge(Key(i), std::to_string(op));
    } else if (r < 97) {
      DeleteRange(Key(i), Key(i + 1 + static_cast<int>(rng() % 20)));
    } else {
      Put(Key(i), std::string(5000 + rng() % 5000, 'L'));
    }
    if (op % 4000 == 3999) {
      VERIFY("op " + std::to_string(op));
    }
  }
  ExpectOurTables();
  VERIFY("end of random ops");
  Reopen();
  VERIFY("after reopen");
  Compact();
  VERIFY("after full compaction");
}

// One flipped byte anywhere in one of our files: with checksums verified,
// every read must give the right answer or Corruption, never a wrong answer
// (NotFound for a key that is there, or a wrong value), also when the same
// damaged block is read again.
TEST_P(RobinHoodDBTest, FlippedByteNeverGivesAWrongAnswer) {
  for (int i = 0; i < 600; i++) Put(Key(i), Value(i, 0));
  Flush();
  std::vector<LiveFileMetaData> files = Files();
  ASSERT_EQ(files.size(), 1u);
  const std::string sst = files[0].db_path + "/" + files[0].name;
  const uint64_t size = files[0].size;
  Close();
  std::string original;
  {
    std::ifstream in(sst, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    original = ss.str();
  }
  ASSERT_EQ(original.size(), size);
  const std::vector<uint64_t> offsets = {
      3, 700, size / 4, size / 2, size * 2 / 3, size * 3 / 4, size * 7 / 8,
      size - 60, size - 30, size - 10, size - 1};
  for (uint64_t off : offsets) {
    SCOPED_TRACE("byte " + std::to_string(off) + " of " +
                 std::to_string(size) + " flipped");
    std::string damaged = original;
    damaged[off] = static_cast<char>(damaged[off] ^ 0x40);
    {
      std::ofstream out(sst, std::ios::binary | std::ios::trunc);
      out.write(damaged.data(), static_cast<std::streamsize>(damaged.size()));
    }
    Status s = Open();
    if (!s.ok()) {
      // Refusing the whole DB is a correct answer.
      EXPECT_TRUE(s.IsCorruption()) << s.ToString();
      continue;
    }
    int wrong = 0;
    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < 600 && wrong < 5; i++) {
        std::string v;
        s = db_->Get(ReadOptions(), Key(i), &v);
        if (s.IsCorruption()) continue;
        if (!s.ok() || v != model_[Key(i)]) {
          wrong++;
          ADD_FAILURE() << "round " << round << " Get(" << Key(i)
                        << "): expected " << P(model_[Key(i)]) << " or "
                        << "Corruption, got " << s.ToString() << " "
                        << P(v);
        }
      }
      for (int i = 600; i < 620; i++) {
        std::string v;
        s = db_->Get(ReadOptions(), Key(i), &v);
        EXPECT_TRUE(s.IsNotFound() || s.IsCorruption())
            << Key(i) << ": " << s.ToString();
      }
    }
    // A scan gives a correct prefix, then either ends cleanly after the
    // last key or stops with a non-ok status.
    std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions()));
    auto m = model_.begin();
    for (it->SeekToFirst(); it->Valid() && wrong < 5; it->Next(), ++m) {
      if (m == model_.end() || it->key() != Slice(m->first) ||
          it->value() != Slice(m->second)) {
        wrong++;
        ADD_FAILURE() << "scan surfaced " << P(it->key().ToString())
                      << " expected "
                      << (m == model_.end() ? "end" : P(m->first));
        break;
      }
    }
    if (wrong == 0 && !it->Valid() && it->status().ok()) {
      EXPECT_TRUE(m == model_.end())
          << "scan ended cleanly before " << P(m->first);
    }
    it.reset();
    Close();
  }
  {
    std::ofstream out(sst, std::ios::binary | std::ios::trunc);
    out.write(original.data(), static_cast<std::streamsize>(original.size()));
  }
  ASSERT_OK(Open());
  VERIFY("original bytes restored");
}

std::string ParamName(
    const testing::TestParamInfo<std::tuple<bool, int>>& info) {
  return std::string(std::get<0>(info.param) ? "mmap" : "pread") + "_" +
         GetConfig(std::get<1>(info.param)).name;
}

INSTANTIATE_TEST_SUITE_P(MmapAndConfigs, RobinHoodDBTest,
                         testing::Combine(testing::Bool(),
                                          testing::Values(0, 1, 2)),
                         ParamName);

}  // namespace
}  // namespace ROCKSDB_NAMESPACE
