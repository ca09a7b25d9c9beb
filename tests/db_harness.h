// The DB-level harness: RobinHoodDBTest, a fixture that drives RocksDB
// with RobinHoodTable through the public API and checks every read path
// (Get, MultiGet, iterators both ways, at snapshots) against a std::map
// model, over mmap reads on/off and three table configurations. Its
// instantiation (INSTANTIATE_DB_TESTS) is in each suite that uses it.
#pragma once

#include <gtest/gtest.h>

#include "rocksdb/cache.h"
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
namespace dbtest {


// Stop the test at the first verification that fails: one failing read
// path otherwise repeats through every later check.
#define VERIFY(...) ASSERT_NO_FATAL_FAILURE(Verify(__VA_ARGS__))
#define VERIFY_BOUNDS(...) ASSERT_NO_FATAL_FAILURE(VerifyBounds(__VA_ARGS__))
#define RANDOM_WALK(...) ASSERT_NO_FATAL_FAILURE(RandomWalk(__VA_ARGS__))

using Model = std::map<std::string, std::string>;
using KVs = std::vector<std::pair<std::string, std::string>>;

// User properties every RobinHoodTable file carries.
constexpr const char* kOurProperty = RobinHoodTablePropertyNames::kFormatVersion;
constexpr const char* kFactoryProperty = RobinHoodTablePropertyNames::kFactory;

// Printable form of a key or value for failure messages.
inline std::string P(const Slice& s) { return test_util::Printable(s); }

inline std::string Key(int i) {
  char buf[32];
  snprintf(buf, sizeof(buf), "key%06d", i);
  return buf;
}

// A deterministic value of varying length (1..~240 bytes) for key i, version v.
inline std::string Value(int i, int v) {
  std::string s = "v" + std::to_string(i) + "." + std::to_string(v) + ".";
  size_t len = 1 + static_cast<size_t>((i * 7 + v * 13) % 223);
  while (s.size() < len) s.push_back(static_cast<char>('a' + (s.size() % 26)));
  return s;
}

inline KVs InRange(const Model& m, const std::string* lb, const std::string* ub) {
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

using test_util::BestCodec;

// 0: everything default (RocksDB's default compression, Snappy).
// 1: many tiny uncompressed blocks, a sparse index entry per entry, a
//    half-empty hash index.
//    A Bloom filter in every file.
// 2: the same tiny blocks, compressed: small blocks often do not compress
//    enough and are stored raw, so files mix compressed and raw blocks.
//    A Ribbon filter in every file, and a block cache of 64 KiB, which
//    evicts blocks while lookups and iterators hold others.
inline TableConfig GetConfig(int i) {
  TableConfig c{"default", RobinHoodTableOptions(), Options().compression};
  if (i >= 1) {
    c.name = i == 1 ? "tinyblocks_bloom" : "tinyblocks_compressed_ribbon";
    c.options.load_factor = 0.5;
    c.options.sparse_index_interval = 1;
    c.options.log_block_size = 256;
    c.options.filter_policy = i == 1 ? "bloomfilter:10" : "ribbonfilter:8";
    c.compression = i == 1 ? kNoCompression : BestCodec();
    if (i == 2) c.options.block_cache = NewLRUCache(64 << 10, 0);
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
    test_util::RemoveTree(dbname_);
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
  // Drops the DB and opens an empty one with `o`, the options from now on
  // (an Env a test owns must outlive them: start over with BaseOptions()
  // before it goes).
  void StartOver(const Options& o) {
    Close();
    ASSERT_OK(DestroyDB(dbname_, options_));
    options_ = o;
    ASSERT_OK(Open());
    model_.clear();
    keys_.clear();
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

inline std::string ParamName(
    const testing::TestParamInfo<std::tuple<bool, int>>& info) {
  return std::string(std::get<0>(info.param) ? "mmap" : "pread") + "_" +
         GetConfig(std::get<1>(info.param)).name;
}

#define INSTANTIATE_DB_TESTS()                                             \
  INSTANTIATE_TEST_SUITE_P(MmapAndConfigs, RobinHoodDBTest,                \
                           testing::Combine(testing::Bool(),               \
                                            testing::Values(0, 1, 2)),     \
                           ::ROCKSDB_NAMESPACE::dbtest::ParamName)

}  // namespace dbtest
}  // namespace ROCKSDB_NAMESPACE
