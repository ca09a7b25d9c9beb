// Fault injection: a RobinHoodTable database on a file system (fault_fs.h)
// that fails appends, syncs, closes and reads of chosen files at chosen
// calls, or returns short or bit-flipped reads. Scenarios: a failing flush
// (foreground and background), a failing compaction (its output, and every
// read of its input, one at a time), a failing SstFileWriter, a failing
// WAL, and damaged reads under Get, MultiGet and iterators.
//
// What must hold: every injected fault surfaces as a non-OK Status (from the
// call, or as a background error the next write or GetProperty shows) and
// nothing crashes; after the faults are cleared the database reopens and
// holds every acknowledged write (a std::map model; writes that failed may
// or may not have happened); a damaged read gives Corruption (or IOError)
// or the right answer, never a wrong one.
//
// Random faults print their seed as RH_SEED=<n>; set RH_SEED to replay.
// RH_FAULT_VERBOSE=1 prints every injected fault.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/iterator.h"
#include "rocksdb/options.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/table_properties.h"
#include "rocksdb_robinhood/robinhood_table.h"
#include "tests/fault_fs.h"
#include "tests/test_util.h"

namespace ROCKSDB_NAMESPACE {
namespace {

uint64_t Seed() {
  static const uint64_t seed = [] {
    const char* e = getenv("RH_SEED");
    if (e != nullptr && *e != '\0') return std::strtoull(e, nullptr, 0);
    return static_cast<uint64_t>(
               std::chrono::steady_clock::now().time_since_epoch().count() ^
               getpid()) %
           1000000000ULL;
  }();
  return seed;
}

std::string Key(int i) {
  char buf[16];
  snprintf(buf, sizeof(buf), "key%06d", i);
  return buf;
}

// Values of 20..1500 bytes, so some entries are longer than the 512 bytes
// a point lookup without mmap reads first.
std::string Value(int i, int version) {
  std::string v = "v" + std::to_string(version) + "." + std::to_string(i) + ".";
  const size_t len = 20 + static_cast<size_t>((i * 131 + version * 977) % 1481);
  while (v.size() < len) v.push_back(static_cast<char>('a' + v.size() % 26));
  return v;
}

// Where two values first differ, for messages about near misses.
std::string FirstDifference(const std::string& a, const std::string& b) {
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) i++;
  if (i == a.size() && i == b.size()) return "identical";
  std::string out = "first difference at byte " + std::to_string(i);
  if (i < a.size() && i < b.size()) {
    char buf[64];
    snprintf(buf, sizeof(buf), " (0x%02x instead of 0x%02x)",
             static_cast<unsigned char>(a[i]), static_cast<unsigned char>(b[i]));
    out += buf;
  } else {
    out += " (lengths " + std::to_string(a.size()) + " and " +
           std::to_string(b.size()) + ")";
  }
  return out;
}

std::string Short(const std::string& v) {
  return v.size() <= 40 ? v : v.substr(0, 30) + "...(" +
                                  std::to_string(v.size()) + " bytes)";
}

const char* OpName(FaultFS::Op op) {
  switch (op) {
    case FaultFS::kAppend: return "append";
    case FaultFS::kSync: return "sync";
    case FaultFS::kClose: return "close";
    default: return "read";
  }
}

// Base of the scenarios: the database, its file system, and the model of
// what it must hold.
class FaultTestBase : public testing::Test {
 protected:
  void Init(bool mmap, const std::string& name) {
    mmap_ = mmap;
    fs_ = std::make_shared<FaultFS>(FileSystem::Default());
    fs_->Verbose(getenv("RH_FAULT_VERBOSE") != nullptr);
    env_ = NewFaultEnv(fs_);
    path_ = test_util::TempPath("fault", name + (mmap ? "_mmap" : "_pread"));
    options_ = Options();
    options_.env = env_.get();
    options_.create_if_missing = true;
    options_.disable_auto_compactions = true;
    options_.allow_mmap_reads = mmap;
    options_.write_buffer_size = 64 << 20;
    RobinHoodTableOptions rh;
    rh.log_block_size = 2048;
    options_.table_factory.reset(NewRobinHoodTableFactory(rh));
    // Nothing here crashes the machine, so syncs buy nothing but time;
    // a sync fault is still injected before the skipped sync.
    fs_->SkipSyncs(true);
    ASSERT_OK(DestroyDB(path_, options_));
  }

  void TearDown() override {
    if (fs_ == nullptr) return;
    fs_->Clear();
    CloseDB();
    EXPECT_OK(DestroyDB(path_, options_));
  }

  Status Open() { return test_util::OpenDB(options_, path_, &db_); }
  // Closing a database with a background error returns that error, so
  // the status is not checked here; what survived is checked by reopening.
  void CloseDB() {
    if (db_ != nullptr) db_->Close().PermitUncheckedError();
    db_.reset();
  }
  void Reopen() {
    CloseDB();
    ASSERT_OK(Open());
  }

  // A write the database acknowledged must be there; one it refused may or
  // may not be.
  Status Put(const std::string& k, const std::string& v,
             const WriteOptions& wo = WriteOptions()) {
    Status s = db_->Put(wo, k, v);
    Note(s, k, v, true);
    return s;
  }
  Status Delete(const std::string& k) {
    Status s = db_->Delete(WriteOptions(), k);
    Note(s, k, "", false);
    return s;
  }
  void Note(const Status& s, const std::string& k, const std::string& v,
            bool present) {
    if (s.ok()) {
      if (present) {
        model_[k] = v;
      } else {
        model_.erase(k);
      }
      maybe_.erase(k);
    } else {
      maybe_[k].insert(present ? "+" + v : "-");
    }
  }

  // Writes keys [first, last) with `version` (every seventh deleted).
  void WriteRange(int first, int last, int version) {
    for (int i = first; i < last; i++) {
      if ((i + version) % 7 == 0) {
        ASSERT_OK(Delete(Key(i)));
      } else {
        ASSERT_OK(Put(Key(i), Value(i, version)));
      }
    }
  }

  bool Allowed(const std::string& k, bool found, const std::string& v) const {
    auto m = model_.find(k);
    if (m == model_.end() ? !found : found && m->second == v) return true;
    auto u = maybe_.find(k);
    return u != maybe_.end() && u->second.count(found ? "+" + v : "-") > 0;
  }

  // The database holds the model: a full scan and a Get of every key.
  // With `errors_allowed`, reads may fail with Corruption or IOError (an
  // open mmap reader keeps the damaged bytes it was given) but never give a
  // wrong answer.
  void Verify(const char* when, bool errors_allowed = false) {
    std::set<std::string> keys;
    for (const auto& kv : model_) keys.insert(kv.first);
    for (const auto& kv : maybe_) keys.insert(kv.first);
    std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions()));
    std::set<std::string> seen;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      const std::string k = it->key().ToString();
      seen.insert(k);
      ASSERT_TRUE(Allowed(k, true, it->value().ToString()))
          << when << ": scan found " << k << "=" << Short(it->value().ToString())
          << ", model has "
          << (model_.count(k) ? Short(model_.at(k)) : std::string("nothing"));
    }
    const bool scan_failed = !it->status().ok();
    if (scan_failed && errors_allowed) {
      ASSERT_TRUE(it->status().IsCorruption() || it->status().IsIOError())
          << it->status().ToString();
    } else {
      ASSERT_OK(it->status());
    }
    for (const std::string& k : keys) {
      std::string v;
      Status s = db_->Get(ReadOptions(), k, &v);
      if (errors_allowed && (s.IsCorruption() || s.IsIOError())) continue;
      ASSERT_TRUE(s.ok() || s.IsNotFound()) << when << ": Get " << k << ": "
                                            << s.ToString();
      ASSERT_TRUE(Allowed(k, s.ok(), v))
          << when << ": Get " << k << " gave "
          << (s.ok() ? Short(v) : std::string("NotFound")) << ", model has "
          << (model_.count(k) ? Short(model_.at(k)) : std::string("nothing"));
      if (scan_failed) continue;
      ASSERT_EQ(s.ok(), seen.count(k) > 0)
          << when << ": Get and scan disagree on " << k;
    }
  }

  // After faults: clear them, reopen, check, and check once more after a
  // flush and a full compaction, which read back every file.
  void ClearReopenVerify() {
    fs_->Clear();
    ASSERT_NO_FATAL_FAILURE(Reopen());
    ASSERT_NO_FATAL_FAILURE(Verify("after reopen"));
    ASSERT_OK(db_->Flush(FlushOptions()));
    CompactRangeOptions cro;
    cro.bottommost_level_compaction = BottommostLevelCompaction::kForce;
    ASSERT_OK(db_->CompactRange(cro, nullptr, nullptr));
    ASSERT_NO_FATAL_FAILURE(Verify("after reopen and compaction"));
    ASSERT_OK(db_->VerifyChecksum());
  }

  // After a failed flush or compaction the database refuses writes until
  // it is resumed; a failure the call did not return must show here.
  void ExpectBackgroundError(const char* what) {
    std::string bg;
    ASSERT_TRUE(db_->GetProperty("rocksdb.background-errors", &bg));
    Status w = db_->Put(WriteOptions(), "zz-after-fault", "x");
    Note(w, "zz-after-fault", "x", true);
    EXPECT_TRUE(bg != "0" || !w.ok())
        << what << ": no background error and the next write succeeded";
  }

  bool mmap_ = false;
  std::shared_ptr<FaultFS> fs_;
  std::unique_ptr<Env> env_;
  std::string path_;
  Options options_;
  std::unique_ptr<DB> db_;
  std::map<std::string, std::string> model_;
  std::map<std::string, std::set<std::string>> maybe_;  // "+value" or "-"
};

// ---------------------------------------------------------------- writes

// A write fault (op) on table files, with mmap reads or not. Values are
// stored uncompressed so that a table file takes several appends of
// RocksDB's 1 MiB write buffer.
class WriteFaultTest
    : public FaultTestBase,
      public testing::WithParamInterface<std::tuple<FaultFS::Op, bool>> {
 protected:
  FaultFS::Op op() const { return std::get<0>(GetParam()); }
  void SetUp() override {
    Init(std::get<1>(GetParam()), OpName(op()));
    if (HasFatalFailure()) return;
    options_.compression = kNoCompression;
    ASSERT_OK(Open());
  }
  FaultFS::Rule SstRule(uint64_t nth = 1) const {
    FaultFS::Rule r;
    r.op = op();
    r.name_contains = ".sst";
    r.nth = nth;
    return r;
  }
};

// About 3 MB of values.
constexpr int kKeys = 4000;

// The flush's first call fails; for appends also its second, in the middle
// of the file.
TEST_P(WriteFaultTest, Flush) {
  for (uint64_t nth = 1; nth <= (op() == FaultFS::kAppend ? 2u : 1u); nth++) {
    SCOPED_TRACE("fault at call " + std::to_string(nth));
    WriteRange(0, kKeys, static_cast<int>(nth));
    const uint64_t before = fs_->fired();
    fs_->Arm(SstRule(nth));
    Status s = db_->Flush(FlushOptions());
    ASSERT_EQ(fs_->fired(), before + 1);
    ASSERT_FALSE(s.ok()) << "flush succeeded though its " << OpName(op())
                         << " failed";
    ASSERT_NO_FATAL_FAILURE(ExpectBackgroundError("flush"));
    // RocksDB 7.8.3 does not resume after a plain IOError in a flush (it
    // counts it as worse than a hard error) and wants a reopen; when it
    // does resume, the data must be right.
    fs_->Clear();
    if (db_->Resume().ok()) {
      ASSERT_NO_FATAL_FAILURE(Verify("after Resume"));
    }
    ASSERT_NO_FATAL_FAILURE(ClearReopenVerify());
  }
}

// The compaction writes several output files (512 KiB targets); its first
// call fails, or its third (for appends, inside the second file; for syncs
// and closes, the third file, after two were written whole).
TEST_P(WriteFaultTest, Compaction) {
  options_.target_file_size_base = 512 << 10;
  for (uint64_t nth : {1, 3}) {
    SCOPED_TRACE("fault in output file " + std::to_string(nth));
    CloseDB();
    ASSERT_OK(DestroyDB(path_, options_));
    model_.clear();
    maybe_.clear();
    ASSERT_OK(Open());
    for (int f = 0; f < 4; f++) {
      WriteRange(f * 500, f * 500 + kKeys / 2, f + 1);
      ASSERT_OK(db_->Flush(FlushOptions()));
    }
    const uint64_t before = fs_->fired();
    fs_->Arm(SstRule(nth));
    CompactRangeOptions cro;
    cro.bottommost_level_compaction = BottommostLevelCompaction::kForce;
    Status s = db_->CompactRange(cro, nullptr, nullptr);
    ASSERT_EQ(fs_->fired(), before + 1);
    ASSERT_FALSE(s.ok()) << "compaction succeeded though its " << OpName(op())
                         << " failed";
    ASSERT_NO_FATAL_FAILURE(ExpectBackgroundError("compaction"));
    ASSERT_NO_FATAL_FAILURE(ClearReopenVerify());
  }
}

// Background flushes (small memtables) under a device that stays broken:
// the failure has no caller to return to, so it must stop later writes.
TEST_P(WriteFaultTest, BackgroundFlush) {
  CloseDB();
  options_.write_buffer_size = 256 << 10;
  ASSERT_OK(Open());
  FaultFS::Rule r = SstRule();
  r.sticky = true;
  fs_->Arm(r);
  bool refused = false;
  for (int i = 0; i < 20000 && !refused; i++) {
    refused = !Put(Key(i % kKeys), Value(i, i / kKeys + 1)).ok();
  }
  std::string bg;
  ASSERT_TRUE(db_->GetProperty("rocksdb.background-errors", &bg));
  ASSERT_GT(fs_->fired(), 0u);
  EXPECT_TRUE(refused) << "writes never stopped (background errors: " << bg
                       << ")";
  EXPECT_NE(bg, "0");
  ASSERT_NO_FATAL_FAILURE(ClearReopenVerify());
}

// SstFileWriter: the fault is armed after the last Put (so it meets Finish)
// or before the first (today's builder writes the file at Finish too, but
// one that wrote earlier would have to fail a Put). The file is then
// offered for ingestion: it must be refused unless it is whole, and the
// database must stay right.
TEST_P(WriteFaultTest, SstFileWriter) {
  WriteRange(0, kKeys / 2, 1);
  ASSERT_OK(db_->Flush(FlushOptions()));
  for (bool during_puts : {false, true}) {
    SCOPED_TRACE(during_puts ? "fault while adding" : "fault in Finish");
    const std::string file = path_ + "_ext" + (during_puts ? "_puts" : "_fin");
    FaultFS::Rule r = SstRule();
    r.name_contains = "_ext_";
    const uint64_t before = fs_->fired();
    {
      SstFileWriter writer(EnvOptions(), options_);
      Status s = writer.Open(file);
      ASSERT_OK(s);
      if (during_puts) fs_->Arm(r);
      for (int i = 0; i < kKeys && s.ok(); i++) {
        s = writer.Put(Key(i), Value(i, 7));
      }
      if (!during_puts) {
        ASSERT_OK(s);
        fs_->Arm(r);
      }
      if (s.ok()) s = writer.Finish();
      ASSERT_EQ(fs_->fired(), before + 1);
      ASSERT_FALSE(s.ok()) << "SstFileWriter succeeded though its "
                           << OpName(op()) << " failed";
    }
    fs_->Clear();
    const bool failed = fs_->fired() > before;
    Status s = db_->IngestExternalFile({file}, IngestExternalFileOptions());
    if (s.ok()) {
      for (int i = 0; i < kKeys; i++) model_[Key(i)] = Value(i, 7);
      // Only a file the fault spared whole may go in; a close failing
      // after every byte was written leaves such a file.
      EXPECT_TRUE(!failed || op() == FaultFS::kClose || op() == FaultFS::kSync)
          << "a file whose " << OpName(op()) << " failed was ingested";
    }
    ASSERT_NO_FATAL_FAILURE(Verify("after ingesting"));
    env_->DeleteFile(file).PermitUncheckedError();
    ASSERT_NO_FATAL_FAILURE(ClearReopenVerify());
  }
}

std::string WriteFaultName(
    const testing::TestParamInfo<std::tuple<FaultFS::Op, bool>>& i) {
  return std::string(OpName(std::get<0>(i.param))) +
         (std::get<1>(i.param) ? "_mmap" : "_pread");
}

INSTANTIATE_TEST_SUITE_P(
    Faults, WriteFaultTest,
    testing::Combine(testing::Values(FaultFS::kAppend, FaultFS::kSync,
                                     FaultFS::kClose),
                     testing::Bool()),
    WriteFaultName);

// The write-ahead log fails: the write is refused, later ones too, and
// every acknowledged write survives a reopen.
class WalFaultTest : public FaultTestBase,
                     public testing::WithParamInterface<FaultFS::Op> {
 protected:
  void SetUp() override {
    Init(false, std::string("wal_") + OpName(GetParam()));
    if (HasFatalFailure()) return;
    ASSERT_OK(Open());
  }
};

TEST_P(WalFaultTest, WriteRefused) {
  WriteOptions wo;
  wo.sync = true;  // so a sync fault is met by the write itself
  for (int i = 0; i < 300; i++) ASSERT_OK(Put(Key(i), Value(i, 1), wo));
  FaultFS::Rule r;
  r.op = GetParam();
  r.name_contains = ".log";
  r.nth = 2;
  fs_->Arm(r);
  int refused = 0;
  for (int i = 0; i < 300; i++) {
    if (!Put(Key(i), Value(i, 2), wo).ok()) refused++;
  }
  ASSERT_GT(fs_->fired(), 0u);
  EXPECT_GT(refused, 0) << "the log's " << OpName(GetParam())
                        << " failed and every write succeeded";
  ASSERT_NO_FATAL_FAILURE(ClearReopenVerify());
}

INSTANTIATE_TEST_SUITE_P(Faults, WalFaultTest,
                         testing::Values(FaultFS::kAppend, FaultFS::kSync),
                         [](const testing::TestParamInfo<FaultFS::Op>& i) {
                           return std::string(OpName(i.param));
                         });

// ----------------------------------------------------------------- reads

// Damaged reads of our table files: (effect, mmap, compression).
class ReadFaultTest
    : public FaultTestBase,
      public testing::WithParamInterface<
          std::tuple<FaultFS::Effect, bool, CompressionType>> {
 protected:
  FaultFS::Effect effect() const { return std::get<0>(GetParam()); }

  void SetUp() override {
    Init(std::get<1>(GetParam()), "read");
    if (HasFatalFailure()) return;
    options_.compression = std::get<2>(GetParam());
    // Ten table readers for more files than that: readers are reopened
    // (through the faulty reads) as well as reused.
    options_.max_open_files = 20;
    options_.table_cache_numshardbits = 0;
    ASSERT_OK(Open());
    // Sixteen files, each overwriting part of the last, so a lookup that
    // wrongly misses in a newer file finds an older value.
    for (int f = 0; f < 16; f++) {
      WriteRange(f * 100, f * 100 + 1500, f + 1);
      ASSERT_OK(db_->Flush(FlushOptions()));
    }
    ASSERT_NO_FATAL_FAILURE(Reopen());
  }

  // A read's outcome: right, or an error; counted by kind.
  bool Judge(const std::string& what, const std::string& k, const Status& s,
             const std::string& v) {
    if (s.ok() || s.IsNotFound()) {
      if (Allowed(k, s.ok(), v)) {
        right_++;
        return true;
      }
      ADD_FAILURE() << what << " " << k << " under "
                    << (effect() == FaultFS::kFlipBit ? "bit flips" : "faults")
                    << " gave " << (s.ok() ? Short(v) : std::string("NotFound"))
                    << " with status OK; the right answer is "
                    << (model_.count(k) ? Short(model_.at(k))
                                        : std::string("NotFound"))
                    << (s.ok() && model_.count(k)
                            ? "; " + FirstDifference(v, model_.at(k))
                            : std::string())
                    << " (RH_SEED=" << Seed() << ", faults so far "
                    << fs_->fired() << ")";
      return false;
    }
    if (!(s.IsCorruption() || s.IsIOError())) {
      ADD_FAILURE() << what << " " << k << ": unexpected status "
                    << s.ToString();
      return false;
    }
    errors_++;
    return true;
  }

  // Every read path over the whole key space, several rounds.
  void ReadEverything() {
    const uint64_t seed = Seed();
    std::cout << "RH_SEED=" << seed << std::endl;
    FaultFS::Rule r;
    r.op = FaultFS::kRead;
    r.name_contains = ".sst";
    r.nth = 0;
    r.probability = 0.02;
    r.seed = seed;
    r.effect = effect();
    fs_->Arm(r);
    std::mt19937_64 rng(seed);
    const int n = 16 * 100 + 1500;
    for (int round = 0; round < 6; round++) {
      for (int i = 0; i < n; i++) {
        std::string v;
        Status s = db_->Get(ReadOptions(), Key(i), &v);
        if (!Judge("Get", Key(i), s, v)) return;
      }
      for (int i = 0; i < n; i += 32) {
        std::vector<std::string> keys;
        for (int j = i; j < std::min(n, i + 32); j++) keys.push_back(Key(j));
        std::vector<Slice> slices(keys.begin(), keys.end());
        std::vector<std::string> values;
        std::vector<Status> st = db_->MultiGet(ReadOptions(), slices, &values);
        for (size_t j = 0; j < keys.size(); j++) {
          if (!Judge("MultiGet", keys[j], st[j], values[j])) return;
        }
      }
      if (!ScanMatches(true) || !ScanMatches(false)) return;
    }
  }

  // A scan shows the model's entries in order up to where it stops; it
  // may stop early only with an error.
  bool ScanMatches(bool forward) {
    std::vector<std::pair<std::string, std::string>> expected(model_.begin(),
                                                              model_.end());
    if (!forward) std::reverse(expected.begin(), expected.end());
    std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions()));
    size_t i = 0;
    for (forward ? it->SeekToFirst() : it->SeekToLast(); it->Valid();
         forward ? it->Next() : it->Prev(), i++) {
      if (i >= expected.size() || it->key() != expected[i].first ||
          it->value() != expected[i].second) {
        ADD_FAILURE() << (forward ? "forward" : "backward") << " scan entry "
                      << i << " is " << it->key().ToString() << "="
                      << Short(it->value().ToString()) << ", expected "
                      << (i < expected.size()
                              ? expected[i].first + "=" +
                                    Short(expected[i].second)
                              : std::string("the end"))
                      << " (RH_SEED=" << Seed() << ")";
        return false;
      }
    }
    if (!it->status().ok()) {
      return Judge("scan", "", it->status(), "");
    }
    if (i != expected.size()) {
      ADD_FAILURE() << "scan ended after " << i << " of " << expected.size()
                    << " entries with status OK";
      return false;
    }
    right_++;
    return true;
  }

  void Report() {
    std::cout << "faults injected " << fs_->fired() << ", right answers "
              << right_ << ", errors " << errors_ << std::endl;
    EXPECT_GT(fs_->fired(), 0u);
  }

  uint64_t right_ = 0, errors_ = 0;
};

TEST_P(ReadFaultTest, GetMultiGetScan) {
  ASSERT_NO_FATAL_FAILURE(ReadEverything());
  Report();
  ASSERT_NO_FATAL_FAILURE(ClearReopenVerify());
}

std::string ReadFaultName(
    const testing::TestParamInfo<
        std::tuple<FaultFS::Effect, bool, CompressionType>>& i) {
  const FaultFS::Effect e = std::get<0>(i.param);
  return std::string(e == FaultFS::kError       ? "error"
                     : e == FaultFS::kShortRead ? "short"
                                                : "flip") +
         (std::get<1>(i.param) ? "_mmap" : "_pread") +
         (std::get<2>(i.param) == kNoCompression ? "_raw" : "_snappy");
}

INSTANTIATE_TEST_SUITE_P(
    Faults, ReadFaultTest,
    testing::Combine(testing::Values(FaultFS::kError, FaultFS::kShortRead,
                                     FaultFS::kFlipBit),
                     testing::Bool(),
                     testing::Values(kNoCompression, kSnappyCompression)),
    ReadFaultName);

// Compaction reading its inputs: the nth read of a table file fails (or is
// short, or flipped), for n = 1, 2, ... (every read of the first input
// opened, then a sample: the later inputs repeat the pattern) until the
// compaction makes fewer reads. The compaction fails or writes the right
// data, never wrong data. Raw blocks: no decompression stands between a
// damaged block and the output. (effect, mmap)
class CompactionReadFaultTest
    : public FaultTestBase,
      public testing::WithParamInterface<std::tuple<FaultFS::Effect, bool>> {
 protected:
  void SetUp() override {
    Init(std::get<1>(GetParam()), "compaction_read");
    if (HasFatalFailure()) return;
    options_.compression = kNoCompression;
    options_.max_open_files = 20;
    options_.table_cache_numshardbits = 0;
  }
};

TEST_P(CompactionReadFaultTest, Input) {
  int last_fired = 0, failed = 0, runs = 0;
  for (uint64_t nth = 1; nth < 1000; nth += nth < 10 ? 1 : nth / 3) {
    SCOPED_TRACE("fault at read " + std::to_string(nth));
    FaultFS::Rule r;
    r.op = FaultFS::kRead;
    r.name_contains = ".sst";
    r.nth = nth;
    r.effect = std::get<0>(GetParam());
    r.seed = Seed() + nth;
    // A fresh database each time: the last compaction rewrote the files.
    CloseDB();
    ASSERT_OK(DestroyDB(path_, options_));
    model_.clear();
    maybe_.clear();
    ASSERT_OK(Open());
    // Six inputs: a reopen loads the readers of only two of them (RocksDB
    // loads up to a quarter of the table cache), so the compaction opens
    // the other four itself, through the faults.
    for (int f = 0; f < 6; f++) {
      WriteRange(f * 60, f * 60 + 200, f + 1);
      ASSERT_OK(db_->Flush(FlushOptions()));
    }
    ASSERT_NO_FATAL_FAILURE(Reopen());
    const uint64_t before = fs_->fired();
    fs_->Arm(r);
    CompactRangeOptions cro;
    cro.bottommost_level_compaction = BottommostLevelCompaction::kForce;
    Status s = db_->CompactRange(cro, nullptr, nullptr);
    const bool fired = fs_->fired() > before;
    fs_->Clear();
    if (!fired) break;
    fs_->Log("compaction with a fault at read " + std::to_string(nth) + ": " +
             s.ToString());
    last_fired = static_cast<int>(nth);
    runs++;
    if (!s.ok()) {
      ASSERT_TRUE(s.IsCorruption() || s.IsIOError()) << s.ToString();
      failed++;
    }
    ASSERT_NO_FATAL_FAILURE(Verify("after the compaction", true));
    ASSERT_NO_FATAL_FAILURE(ClearReopenVerify());
  }
  std::cout << runs << " compactions with a fault at one of their first "
            << last_fired << " reads: " << failed
            << " failed, the rest were right" << std::endl;
  EXPECT_GT(runs, 0);
}

INSTANTIATE_TEST_SUITE_P(
    Faults, CompactionReadFaultTest,
    testing::Combine(testing::Values(FaultFS::kError, FaultFS::kShortRead,
                                     FaultFS::kFlipBit),
                     testing::Bool()),
    [](const testing::TestParamInfo<std::tuple<FaultFS::Effect, bool>>& i) {
      const FaultFS::Effect e = std::get<0>(i.param);
      return std::string(e == FaultFS::kError       ? "error"
                         : e == FaultFS::kShortRead ? "short"
                                                    : "flip") +
             (std::get<1>(i.param) ? "_mmap" : "_pread");
    });

// A bit flipped in transit when a point lookup without mmap reads an entry
// of a raw (uncompressed) log block the reader has verified before. The
// reader then reads only the entry, not the block and its checksum
// (RobinHoodTableReader::Lookup), so nothing notices the damage: a flip in
// the value comes back as the value, a flip in the key makes the lookup
// miss this file and return the key's older version from an older one.
// The right outcome is Corruption (or IOError), or the right value.
class FlippedEntryReadTest : public FaultTestBase {
 protected:
  void SetUp() override {
    Init(/*mmap=*/false, "flipped_entry");
    if (HasFatalFailure()) return;
    options_.compression = kNoCompression;
    ASSERT_OK(Open());
    ASSERT_OK(Put("target-key", "old-value"));
    ASSERT_OK(db_->Flush(FlushOptions()));
    ASSERT_OK(Put("target-key", "new-value-" + std::string(200, 'x')));
    ASSERT_OK(db_->Flush(FlushOptions()));
    // The first lookup reads the whole block and verifies its checksum.
    std::string v;
    ASSERT_OK(db_->Get(ReadOptions(), "target-key", &v));
    ASSERT_EQ(v, model_["target-key"]);
  }

  // Flips a bit where `where` first occurs in the next read of a table
  // file, then looks the key up.
  void GetWithFlip(const std::string& where) {
    FaultFS::Rule r;
    r.op = FaultFS::kRead;
    r.name_contains = ".sst";
    r.nth = 1;
    r.effect = FaultFS::kFlipBit;
    r.flip_where = where;
    fs_->Arm(r);
    std::string v;
    Status s = db_->Get(ReadOptions(), "target-key", &v);
    ASSERT_EQ(fs_->fired(), 1u);
    fs_->Clear();
    EXPECT_TRUE(s.IsCorruption() || s.IsIOError() ||
                (s.ok() && v == model_["target-key"]))
        << "Get after a bit flip in \"" << where << "\" returned "
        << s.ToString() << " "
        << (s.ok() ? "\"" + Short(v) + "\"; " +
                         FirstDifference(v, model_["target-key"])
                   : std::string())
        << "; the right value is \"" << Short(model_["target-key"]) << "\"";
    ASSERT_NO_FATAL_FAILURE(ClearReopenVerify());
  }
};

TEST_F(FlippedEntryReadTest, InValue) { GetWithFlip("new-value"); }

TEST_F(FlippedEntryReadTest, InKey) { GetWithFlip("target-key"); }

// A bit flipped in transit in a read of the properties block while a table
// is opened. RocksDB's ReadTablePropertiesHelper checks a checksum only for
// footers whose magic number it knows, so had it read the block again
// itself, damage in that read would be parsed as the file's (the comparator
// name and our factory name would come back wrong through
// GetPropertiesOfAllTables); the parser reads the bytes the reader checked.
// Each read of the bytes, the first, second and third, is flipped in turn:
// the table's properties must come back as written, or the open fail.
class FlippedPropertiesReadTest : public FaultTestBase,
                                  public testing::WithParamInterface<bool> {
 protected:
  void SetUp() override {
    Init(GetParam(), "flipped_properties");
    if (HasFatalFailure()) return;
    ASSERT_OK(Open());
    WriteRange(0, 100, 1);
    ASSERT_OK(db_->Flush(FlushOptions()));
    written_ = Properties();
    ASSERT_FALSE(written_.empty());
  }

  // The one table's properties as text, "" if they cannot be read.
  std::string Properties() {
    TablePropertiesCollection props;
    Status s = db_->GetPropertiesOfAllTables(&props);
    if (!s.ok() || props.size() != 1) return "";
    const TableProperties& p = *props.begin()->second;
    std::string out = p.ToString() + "; column family=" + p.column_family_name;
    for (const auto& kv : p.user_collected_properties) {
      out += "; " + kv.first + "=" + Slice(kv.second).ToString(true);
    }
    return out;
  }

  // Reopens with a bit flipped in the nth read that contains `where`;
  // false if there was no such read.
  bool ReopenWithFlip(const std::string& where, int nth) {
    CloseDB();
    FaultFS::Rule r;
    r.op = FaultFS::kRead;
    r.name_contains = ".sst";
    r.nth = nth;
    r.effect = FaultFS::kFlipBit;
    r.flip_where = where;
    fs_->Arm(r);
    Status s = Open();  // loads every table reader (max_open_files -1)
    const bool fired = fs_->fired() == 1;
    fs_->Clear();
    if (!s.ok()) {
      EXPECT_TRUE(s.IsCorruption() || s.IsIOError()) << s.ToString();
      return fired;
    }
    const std::string got = Properties();
    std::string changed;
    if (!got.empty()) {
      const auto before = Split(written_), after = Split(got);
      for (size_t i = 0; i < after.size(); i++) {
        if (i >= before.size() || after[i] != before[i]) {
          changed += "\n  " + after[i] + "  (was " +
                     (i < before.size() ? before[i] : "absent") + ")";
        }
      }
    }
    EXPECT_TRUE(got.empty() || got == written_)
        << "after a bit flip in read " << nth << " of \"" << where
        << "\" the table opened and these properties read back wrong:"
        << changed;
    return fired;
  }

  void FlipEachRead(const std::string& where) {
    for (int nth = 1; nth <= 3; nth++) {
      SCOPED_TRACE("read " + std::to_string(nth));
      const bool fired = ReopenWithFlip(where, nth);
      if (nth == 1) {
        EXPECT_TRUE(fired) << "no read of \"" << where << "\"";
      }
      if (HasFailure() || !fired) return;
    }
  }

  static std::vector<std::string> Split(const std::string& s) {
    std::vector<std::string> out;
    size_t start = 0, end;
    while ((end = s.find("; ", start)) != std::string::npos) {
      out.push_back(s.substr(start, end - start));
      start = end + 2;
    }
    out.push_back(s.substr(start));
    return out;
  }

  std::string written_;
};

TEST_P(FlippedPropertiesReadTest, ComparatorName) {
  FlipEachRead("BytewiseComparator");
}

TEST_P(FlippedPropertiesReadTest, FactoryName) {
  FlipEachRead("RobinHoodTable");
}

INSTANTIATE_TEST_SUITE_P(Faults, FlippedPropertiesReadTest, testing::Bool(),
                         [](const testing::TestParamInfo<bool>& i) {
                           return std::string(i.param ? "mmap" : "pread");
                         });

}  // namespace
}  // namespace ROCKSDB_NAMESPACE
