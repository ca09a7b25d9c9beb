// Ingestion tests: files written by SstFileWriter with RobinHoodTable options
// are ingested with IngestExternalFile into a RobinHoodTable database, and the
// same data written with BlockBasedTable options into a BlockBasedTable
// database. Both databases receive the same writes, flushes and compactions
// around the ingestions, and every read (Get, both MultiGets, scans both
// ways, Seek/SeekForPrev on every probe, random iterator walks, bounded
// iterators, at the latest state and at every snapshot) must agree. Snapshots
// taken before an ingestion are also checked against what they saw before.
//
// Covered: ingestion into an empty database and into one whose memtable and
// SST files overlap the file (so RocksDB assigns a global sequence number),
// with write_global_seqno true and false (a parameter), stacked ingestions,
// several files in one call, ingest_behind, files of Put, Merge, Delete and
// DeleteRange entries, files with only range deletions, files of no entries,
// option combinations RocksDB refuses, and SstFileReader on our files
// (iteration, VerifyChecksum, GetTableProperties, a damaged copy).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
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
#include "rocksdb/env.h"
#include "rocksdb/iterator.h"
#include "rocksdb/merge_operator.h"
#include "rocksdb/metadata.h"
#include "rocksdb/options.h"
#include "rocksdb/slice.h"
#include "rocksdb/snapshot.h"
#include "rocksdb/sst_file_reader.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"
#include "rocksdb_robinhood/robinhood_table.h"
#include "tests/db_pair.h"
#include "tests/test_util.h"

namespace ROCKSDB_NAMESPACE {
namespace {

// Property names RocksDB's SstFileWriter writes (table/sst_file_writer_
// collectors.h, which is internal).
const char kExternalVersion[] = "rocksdb.external_sst_file.version";
const char kExternalGlobalSeqno[] = "rocksdb.external_sst_file.global_seqno";
constexpr const char* kFactoryProperty = RobinHoodTablePropertyNames::kFactory;

std::string P(const Slice& s) { return test_util::Printable(s); }

std::string Key(int i) {
  char buf[32];
  snprintf(buf, sizeof(buf), "key%05d", i);
  return buf;
}

// One entry of an external file. For kRange, `value` is the end key.
struct Entry {
  enum Type { kPut, kMerge, kDelete, kRange } type;
  std::string key;
  std::string value;
};
using FileSpec = std::vector<Entry>;

using KVs = std::vector<std::pair<std::string, std::string>>;

struct SnapPair {
  const Snapshot* rh;
  const Snapshot* bbt;
  KVs seen;  // the whole database as this snapshot saw it when taken
  std::string name;
};

// Parameters: mmap reads for the RobinHoodTable database (its table
// configuration follows: defaults with mmap, tiny compressed blocks and a
// dense sparse index without), and IngestExternalFileOptions::
// write_global_seqno.
class IngestTest : public testing::TestWithParam<std::tuple<bool, bool>>,
                   protected test_util::DbPair<SnapPair> {
 protected:
  bool mmap() const { return std::get<0>(GetParam()); }
  bool write_global_seqno() const { return std::get<1>(GetParam()); }

  void SetUp() override {
    const auto* info = testing::UnitTest::GetInstance()->current_test_info();
    std::string name = std::string(info->name());
    for (char& c : name) {
      if (!isalnum(static_cast<unsigned char>(c))) c = '_';
    }
    rh_path_ = test_util::TempPath("ingest", name + "_rh");
    bbt_path_ = test_util::TempPath("ingest", name + "_bbt");
    files_dir_ = test_util::TempPath("ingest", name + "_files");
    rh_opts_ = BaseOptions();
    rh_opts_.allow_mmap_reads = mmap();
    RobinHoodTableOptions rh;
    if (!mmap()) {
      rh.log_block_size = 256;
      rh.sparse_index_interval = 2;
      rh.load_factor = 0.6;
      rh_opts_.compression = kNoCompression;
      for (CompressionType t : GetSupportedCompressions()) {
        if (t == kLZ4Compression || t == kSnappyCompression) {
          rh_opts_.compression = t;
        }
      }
    }
    rh_opts_.table_factory.reset(NewRobinHoodTableFactory(rh));
    bbt_opts_ = BaseOptions();
    // Same Env path for both: with mmap on, even opening an empty file fails
    // in the Env (mmap of 0 bytes), before any table reader sees it.
    bbt_opts_.allow_mmap_reads = mmap();
    bbt_opts_.table_factory.reset(NewBlockBasedTableFactory());
    ASSERT_OK(DestroyBoth());
    RemoveFilesDir();
    ASSERT_OK(Env::Default()->CreateDirIfMissing(files_dir_));
    ASSERT_OK(OpenBoth());
  }

  void TearDown() override {
    CloseBoth();
    EXPECT_OK(DestroyBoth());
    RemoveFilesDir();
  }

  static Options BaseOptions() {
    Options o;
    o.create_if_missing = true;
    o.disable_auto_compactions = true;
    o.merge_operator =
        std::make_shared<test_util::JoinMergeOperator>(',', "RobinHoodIngestComma");
    return o;
  }

  void RemoveFilesDir() {
    Env* env = Env::Default();
    std::vector<std::string> children;
    if (env->GetChildren(files_dir_, &children).ok()) {
      for (const auto& c : children) {
        if (c != "." && c != "..") {
          env->DeleteFile(files_dir_ + "/" + c).PermitUncheckedError();
        }
      }
      env->DeleteDir(files_dir_).PermitUncheckedError();
    }
  }

  void Reopen() {
    CloseBoth();
    ASSERT_OK(OpenBoth());
  }
  // --- Writes to both databases ---

  void Put(const std::string& k, const std::string& v) {
    ASSERT_OK(rh_->Put(WriteOptions(), k, v));
    ASSERT_OK(bbt_->Put(WriteOptions(), k, v));
    keys_.insert(k);
  }
  void Merge(const std::string& k, const std::string& v) {
    ASSERT_OK(rh_->Merge(WriteOptions(), k, v));
    ASSERT_OK(bbt_->Merge(WriteOptions(), k, v));
    keys_.insert(k);
  }
  void Delete(const std::string& k) {
    ASSERT_OK(rh_->Delete(WriteOptions(), k));
    ASSERT_OK(bbt_->Delete(WriteOptions(), k));
    keys_.insert(k);
  }
  void DeleteRange(const std::string& b, const std::string& e) {
    ASSERT_OK(rh_->DeleteRange(WriteOptions(), rh_->DefaultColumnFamily(), b,
                               e));
    ASSERT_OK(bbt_->DeleteRange(WriteOptions(), bbt_->DefaultColumnFamily(),
                                b, e));
    keys_.insert(b);
    keys_.insert(e);
  }
  void Flush() {
    ASSERT_OK(rh_->Flush(FlushOptions()));
    ASSERT_OK(bbt_->Flush(FlushOptions()));
  }
  void Compact(const std::string* begin = nullptr,
               const std::string* end = nullptr) {
    CompactRangeOptions cro;
    cro.bottommost_level_compaction = BottommostLevelCompaction::kForce;
    Slice b, e;
    if (begin != nullptr) b = *begin;
    if (end != nullptr) e = *end;
    ASSERT_OK(rh_->CompactRange(cro, begin ? &b : nullptr, end ? &e : nullptr));
    ASSERT_OK(
        bbt_->CompactRange(cro, begin ? &b : nullptr, end ? &e : nullptr));
  }
  void TakeSnapshot(const std::string& name) {
    SnapPair s;
    s.rh = rh_->GetSnapshot();
    s.bbt = bbt_->GetSnapshot();
    s.name = name;
    ReadOptions ro;
    ro.snapshot = s.rh;
    s.seen = Scan(rh_.get(), ro);
    snaps_.push_back(std::move(s));
  }
  // Ingest-behind data sits at sequence number 0, under every snapshot, so
  // snapshots taken before it see it too: record their new views (taken from
  // BlockBasedTable, so RobinHoodTable is still checked against it).
  void ResnapViews() {
    for (SnapPair& s : snaps_) {
      ReadOptions ro;
      ro.snapshot = s.bbt;
      s.seen = Scan(bbt_.get(), ro);
    }
  }

  // A mixed workload over keys [lo, hi): puts, merges, deletes.
  void Workload(int lo, int hi, int step, uint32_t seed) {
    std::mt19937 rng(seed);
    for (int i = lo; i < hi; i += step) {
      const uint32_t r = rng() % 10;
      if (r < 6) {
        Put(Key(i), "db" + std::to_string(seed) + "." + std::to_string(i) +
                        std::string(rng() % 60, 'd'));
      } else if (r < 8) {
        Merge(Key(i), "dm" + std::to_string(seed));
      } else {
        Delete(Key(i));
      }
    }
  }

  // --- External files ---

  // Writes `spec` (point entries sorted here; range deletions after them)
  // with both table formats. Both SstFileWriter::Finish calls must agree;
  // returns their status.
  Status WriteFiles(FileSpec spec, const std::string& name,
                    std::string* rh_file, std::string* bbt_file) {
    std::stable_sort(spec.begin(), spec.end(),
                     [](const Entry& a, const Entry& b) {
                       if ((a.type == Entry::kRange) != (b.type == Entry::kRange)) {
                         return b.type == Entry::kRange;
                       }
                       if (a.type == Entry::kRange) return false;
                       return a.key < b.key;
                     });
    *rh_file = files_dir_ + "/" + name + ".rh.sst";
    *bbt_file = files_dir_ + "/" + name + ".bbt.sst";
    Status s[2];
    ExternalSstFileInfo info[2];
    const Options* opts[2] = {&rh_opts_, &bbt_opts_};
    const std::string* paths[2] = {rh_file, bbt_file};
    for (int f = 0; f < 2; f++) {
      SstFileWriter writer(EnvOptions(), *opts[f]);
      s[f] = writer.Open(*paths[f]);
      for (const Entry& e : spec) {
        if (!s[f].ok()) break;
        switch (e.type) {
          case Entry::kPut:
            s[f] = writer.Put(e.key, e.value);
            break;
          case Entry::kMerge:
            s[f] = writer.Merge(e.key, e.value);
            break;
          case Entry::kDelete:
            s[f] = writer.Delete(e.key);
            break;
          case Entry::kRange:
            s[f] = writer.DeleteRange(e.key, e.value);
            break;
        }
      }
      if (s[f].ok()) s[f] = writer.Finish(&info[f]);
    }
    EXPECT_EQ(s[0].code(), s[1].code())
        << "SstFileWriter: RobinHoodTable " << s[0].ToString()
        << ", BlockBasedTable " << s[1].ToString();
    if (s[0].ok() && s[1].ok()) {
      EXPECT_EQ(info[0].num_entries, info[1].num_entries);
      EXPECT_EQ(info[0].num_range_del_entries, info[1].num_range_del_entries);
      EXPECT_EQ(info[0].smallest_key, info[1].smallest_key);
      EXPECT_EQ(info[0].largest_key, info[1].largest_key);
      EXPECT_EQ(info[0].smallest_range_del_key, info[1].smallest_range_del_key);
      EXPECT_EQ(info[0].largest_range_del_key, info[1].largest_range_del_key);
      EXPECT_EQ(info[0].file_size, FileSize(*rh_file));
    }
    for (const Entry& e : spec) {
      keys_.insert(e.key);
      if (e.type == Entry::kRange) keys_.insert(e.value);
    }
    return s[0];
  }

  static uint64_t FileSize(const std::string& path) {
    uint64_t size = 0;
    EXPECT_OK(Env::Default()->GetFileSize(path, &size));
    return size;
  }

  IngestExternalFileOptions IngestOptions() const {
    IngestExternalFileOptions o;
    o.write_global_seqno = write_global_seqno();
    o.allow_global_seqno = true;
    o.allow_blocking_flush = true;
    return o;
  }

  // Ingests the files into both databases; both must give the same status,
  // which is returned.
  Status Ingest(const std::vector<std::string>& rh_files,
                const std::vector<std::string>& bbt_files,
                const IngestExternalFileOptions& o) {
    Status a = rh_->IngestExternalFile(rh_files, o);
    Status b = bbt_->IngestExternalFile(bbt_files, o);
    EXPECT_EQ(a.code(), b.code())
        << "IngestExternalFile: RobinHoodTable " << a.ToString()
        << ", BlockBasedTable " << b.ToString();
    EXPECT_EQ(a.subcode(), b.subcode());
    return a;
  }
  Status Ingest(const std::string& rh_file, const std::string& bbt_file) {
    return Ingest(std::vector<std::string>{rh_file},
                  std::vector<std::string>{bbt_file}, IngestOptions());
  }

  // A file of `n` entries on keys from `first` by `step`: puts, merges,
  // deletes, plus `ranges` range deletions inside the span and some binary,
  // long and empty keys.
  FileSpec MakeSpec(int first, int n, int step, int ranges, uint32_t seed) {
    std::mt19937 rng(seed);
    FileSpec spec;
    for (int j = 0; j < n; j++) {
      const int i = first + j * step;
      const uint32_t r = rng() % 10;
      if (r < 6) {
        std::string v = "x" + std::to_string(seed) + "." + std::to_string(i);
        v.append(rng() % 5 == 0 ? 300 + rng() % 3000 : rng() % 40,
                 static_cast<char>('a' + rng() % 26));
        spec.push_back({Entry::kPut, Key(i), v});
      } else if (r < 8) {
        spec.push_back({Entry::kMerge, Key(i), "xm" + std::to_string(seed)});
      } else {
        spec.push_back({Entry::kDelete, Key(i), ""});
      }
    }
    const int span = std::max(1, n * step);
    for (int j = 0; j < ranges; j++) {
      const int a = first + static_cast<int>(rng() % span);
      const int len = 1 + static_cast<int>(rng() % 30);
      spec.push_back({Entry::kRange, Key(a), Key(a + len)});
    }
    return spec;
  }

  // Keys that are not "key%05d": empty, binary, long. Each file that has
  // them may only have them once (SstFileWriter needs distinct keys).
  static void AddOddKeys(FileSpec* spec, const std::string& tag) {
    spec->push_back({Entry::kPut, "", "empty-key-" + tag});
    spec->push_back({Entry::kMerge, std::string("\0\0", 2), "zero-" + tag});
    spec->push_back({Entry::kPut, "\xff\xff\xfe", "ff-" + tag});
    spec->push_back(
        {Entry::kPut, "key" + std::string(300, 'L'), "long-" + tag});
  }

  // --- Reads, compared ---

  static KVs Scan(DB* db, const ReadOptions& ro) {
    KVs out;
    std::unique_ptr<Iterator> it(db->NewIterator(ro));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      out.emplace_back(it->key().ToString(), it->value().ToString());
    }
    EXPECT_OK(it->status());
    return out;
  }

  std::vector<std::string> Probes() const {
    std::set<std::string> p;
    for (const auto& k : keys_) {
      p.insert(k);
      p.insert(k + std::string(1, '\0'));
      if (!k.empty()) p.insert(k.substr(0, k.size() - 1));
    }
    p.insert("");
    p.insert("\xff\xff\xff\xff\xff");
    return std::vector<std::string>(p.begin(), p.end());
  }

  static std::string Describe(Iterator* it) {
    if (!it->status().ok()) return it->status().ToString();
    if (!it->Valid()) return "invalid";
    return "at " + P(it->key()) + " = " + P(it->value());
  }
  static testing::AssertionResult Same(Iterator* a, Iterator* b,
                                       const std::string& what) {
    if (a->status().ok() && b->status().ok() && a->Valid() == b->Valid() &&
        (!a->Valid() || (a->key() == b->key() && a->value() == b->value()))) {
      return testing::AssertionSuccess();
    }
    return testing::AssertionFailure()
           << what << ": RobinHoodTable " << Describe(a)
           << ", BlockBasedTable " << Describe(b);
  }

  // Walks both iterators from first to last and from last to first,
  // comparing every position, including the end.
  void ScanBothWays(Iterator* a, Iterator* b, const std::string& what) {
    a->SeekToFirst();
    b->SeekToFirst();
    for (size_t n = 0;; n++) {
      ASSERT_TRUE(Same(a, b, what + " forward " + std::to_string(n)));
      if (!a->Valid()) break;
      a->Next();
      b->Next();
    }
    a->SeekToLast();
    b->SeekToLast();
    for (size_t n = 0;; n++) {
      ASSERT_TRUE(Same(a, b, what + " backward " + std::to_string(n)));
      if (!a->Valid()) break;
      a->Prev();
      b->Prev();
    }
  }

  // Everything both databases answer at (ra, rb), compared.
  void CompareAt(const ReadOptions& ra, const ReadOptions& rb,
                 const std::vector<std::string>& probes) {
    // Scans both ways.
    {
      std::unique_ptr<Iterator> a(rh_->NewIterator(ra));
      std::unique_ptr<Iterator> b(bbt_->NewIterator(rb));
      ASSERT_NO_FATAL_FAILURE(ScanBothWays(a.get(), b.get(), "scan"));
    }
    // Get and Seek/SeekForPrev on every probe.
    {
      std::unique_ptr<Iterator> a(rh_->NewIterator(ra));
      std::unique_ptr<Iterator> b(bbt_->NewIterator(rb));
      for (const auto& k : probes) {
        std::string va, vb;
        Status sa = rh_->Get(ra, k, &va);
        Status sb = bbt_->Get(rb, k, &vb);
        ASSERT_TRUE((sa.ok() && sb.ok() && va == vb) ||
                    (sa.IsNotFound() && sb.IsNotFound()))
            << "Get(" << P(k) << "): RobinHoodTable " << sa.ToString() << " "
            << P(va) << ", BlockBasedTable " << sb.ToString() << " " << P(vb);
        a->Seek(k);
        b->Seek(k);
        ASSERT_TRUE(Same(a.get(), b.get(), "Seek(" + P(k) + ")"));
        a->SeekForPrev(k);
        b->SeekForPrev(k);
        ASSERT_TRUE(Same(a.get(), b.get(), "SeekForPrev(" + P(k) + ")"));
      }
    }
    // MultiGet, batched (in batches of 50, reversed) and vector.
    for (size_t start = 0; start < probes.size(); start += 50) {
      std::vector<Slice> keys;
      for (size_t i = start; i < std::min(probes.size(), start + 50); i++) {
        keys.push_back(probes[i]);
      }
      std::reverse(keys.begin(), keys.end());
      const size_t n = keys.size();
      std::vector<PinnableSlice> va(n), vb(n);
      std::vector<Status> sa(n), sb(n);
      rh_->MultiGet(ra, rh_->DefaultColumnFamily(), n, keys.data(), va.data(),
                    sa.data());
      bbt_->MultiGet(rb, bbt_->DefaultColumnFamily(), n, keys.data(),
                     vb.data(), sb.data());
      for (size_t i = 0; i < n; i++) {
        ASSERT_TRUE((sa[i].ok() && sb[i].ok() && va[i] == vb[i]) ||
                    (sa[i].IsNotFound() && sb[i].IsNotFound()))
            << "MultiGet " << P(keys[i]) << ": RobinHoodTable "
            << sa[i].ToString() << " " << P(va[i]) << ", BlockBasedTable "
            << sb[i].ToString() << " " << P(vb[i]);
      }
    }
    {
      std::vector<Slice> keys(probes.begin(), probes.end());
      std::vector<std::string> va, vb;
      std::vector<Status> sa = rh_->MultiGet(ra, keys, &va);
      std::vector<Status> sb = bbt_->MultiGet(rb, keys, &vb);
      ASSERT_EQ(sa.size(), keys.size());
      ASSERT_EQ(sb.size(), keys.size());
      for (size_t i = 0; i < keys.size(); i++) {
        ASSERT_TRUE((sa[i].ok() && sb[i].ok() && va[i] == vb[i]) ||
                    (sa[i].IsNotFound() && sb[i].IsNotFound()))
            << "MultiGet(vector) " << P(keys[i]) << ": RobinHoodTable "
            << sa[i].ToString() << ", BlockBasedTable " << sb[i].ToString();
      }
    }
    // A random walk.
    {
      std::unique_ptr<Iterator> a(rh_->NewIterator(ra));
      std::unique_ptr<Iterator> b(bbt_->NewIterator(rb));
      std::mt19937 rng(static_cast<uint32_t>(probes.size()));
      std::string ops;
      for (int step = 0; step < 600; step++) {
        uint32_t op = rng() % 10;
        if (!a->Valid()) op %= 4;
        const std::string& t = probes[rng() % probes.size()];
        switch (op) {
          case 0:
            a->Seek(t);
            b->Seek(t);
            ops += " Seek(" + P(t) + ")";
            break;
          case 1:
            a->SeekForPrev(t);
            b->SeekForPrev(t);
            ops += " SeekForPrev(" + P(t) + ")";
            break;
          case 2:
            a->SeekToFirst();
            b->SeekToFirst();
            ops += " SeekToFirst";
            break;
          case 3:
            a->SeekToLast();
            b->SeekToLast();
            ops += " SeekToLast";
            break;
          case 4:
          case 5:
          case 6:
            a->Next();
            b->Next();
            ops += " Next";
            break;
          default:
            a->Prev();
            b->Prev();
            ops += " Prev";
        }
        if (ops.size() > 400) ops = "..." + ops.substr(ops.size() - 300);
        ASSERT_TRUE(Same(a.get(), b.get(), "random walk:" + ops));
      }
    }
  }

  // Bounded iterators: scans and seeks inside [lo, hi).
  void CompareBounded(const ReadOptions& ra_in, const ReadOptions& rb_in,
                      const std::string& lo, const std::string& hi,
                      const std::vector<std::string>& probes) {
    SCOPED_TRACE("bounds [" + P(lo) + ", " + P(hi) + ")");
    Slice los(lo), his(hi);
    ReadOptions ra = ra_in, rb = rb_in;
    ra.iterate_lower_bound = rb.iterate_lower_bound = &los;
    ra.iterate_upper_bound = rb.iterate_upper_bound = &his;
    std::unique_ptr<Iterator> a(rh_->NewIterator(ra));
    std::unique_ptr<Iterator> b(bbt_->NewIterator(rb));
    ASSERT_NO_FATAL_FAILURE(ScanBothWays(a.get(), b.get(), "bounded scan"));
    for (size_t i = 0; i < probes.size(); i += 7) {
      a->Seek(probes[i]);
      b->Seek(probes[i]);
      ASSERT_TRUE(Same(a.get(), b.get(), "bounded Seek(" + P(probes[i]) + ")"));
      a->SeekForPrev(probes[i]);
      b->SeekForPrev(probes[i]);
      ASSERT_TRUE(Same(a.get(), b.get(),
                       "bounded SeekForPrev(" + P(probes[i]) + ")"));
    }
  }

  // Compares the latest state and every snapshot, and checks each snapshot
  // still sees exactly what it saw when it was taken.
  void Compare(const std::string& label) {
    SCOPED_TRACE(label);
    const std::vector<std::string> probes = Probes();
    for (int checksums = 0; checksums < 2; checksums++) {
      ReadOptions ro;
      ro.verify_checksums = checksums == 1;
      {
        SCOPED_TRACE("latest, verify_checksums " + std::to_string(checksums));
        ASSERT_NO_FATAL_FAILURE(CompareAt(ro, ro, probes));
      }
      if (checksums == 1) {
        ASSERT_NO_FATAL_FAILURE(
            CompareBounded(ro, ro, Key(100), Key(700), probes));
        ASSERT_NO_FATAL_FAILURE(
            CompareBounded(ro, ro, std::string(1, '\0'), Key(55), probes));
      }
    }
    for (const SnapPair& s : snaps_) {
      SCOPED_TRACE("snapshot " + s.name);
      ReadOptions ra, rb;
      ra.verify_checksums = rb.verify_checksums = true;
      ra.snapshot = s.rh;
      rb.snapshot = s.bbt;
      ASSERT_NO_FATAL_FAILURE(CompareAt(ra, rb, probes));
      ASSERT_NO_FATAL_FAILURE(CompareBounded(ra, rb, Key(30), Key(300), probes));
      const KVs now = Scan(rh_.get(), ra);
      ASSERT_EQ(now.size(), s.seen.size())
          << "the snapshot's view changed size";
      for (size_t i = 0; i < now.size(); i++) {
        ASSERT_EQ(now[i], s.seen[i]) << "the snapshot's view changed at " << i;
      }
    }
    ASSERT_OK(rh_->VerifyChecksum());
    ASSERT_OK(bbt_->VerifyChecksum());
  }

  // After reopen and after a full compaction (snapshots are released).
  void CompareThroughReopenAndCompaction(const std::string& label) {
    ASSERT_NO_FATAL_FAILURE(Compare(label));
    Reopen();
    ASSERT_NO_FATAL_FAILURE(Compare(label + ", reopened"));
    Compact();
    ASSERT_NO_FATAL_FAILURE(Compare(label + ", compacted"));
    ExpectOurTables();
    Reopen();
    ASSERT_NO_FATAL_FAILURE(Compare(label + ", compacted and reopened"));
  }

  std::vector<LiveFileMetaData> Files(DB* db) {
    std::vector<LiveFileMetaData> files;
    db->GetLiveFilesMetaData(&files);
    std::sort(files.begin(), files.end(),
              [](const LiveFileMetaData& a, const LiveFileMetaData& b) {
                return a.largest_seqno < b.largest_seqno ||
                       (a.largest_seqno == b.largest_seqno &&
                        a.smallestkey < b.smallestkey);
              });
    return files;
  }

  // Both databases hold files at the same levels with the same key and
  // sequence number ranges (they received identical operations).
  void ExpectSameLayout() {
    std::vector<LiveFileMetaData> a = Files(rh_.get());
    std::vector<LiveFileMetaData> b = Files(bbt_.get());
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); i++) {
      EXPECT_EQ(a[i].level, b[i].level) << i;
      EXPECT_EQ(a[i].smallestkey, b[i].smallestkey) << i;
      EXPECT_EQ(a[i].largestkey, b[i].largestkey) << i;
      EXPECT_EQ(a[i].smallest_seqno, b[i].smallest_seqno) << i;
      EXPECT_EQ(a[i].largest_seqno, b[i].largest_seqno) << i;
    }
  }

  void ExpectOurTables() {
    TablePropertiesCollection props;
    ASSERT_OK(rh_->GetPropertiesOfAllTables(&props));
    for (const auto& p : props) {
      auto f = p.second->user_collected_properties.find(kFactoryProperty);
      EXPECT_TRUE(f != p.second->user_collected_properties.end() &&
                  f->second == kRobinHoodTableName)
          << p.first << " is not a RobinHoodTable file";
    }
  }

  // The file of the RobinHoodTable database with the largest sequence
  // number, which after an ingestion is the ingested one.
  LiveFileMetaData NewestFile() {
    std::vector<LiveFileMetaData> files = Files(rh_.get());
    EXPECT_FALSE(files.empty());
    return files.empty() ? LiveFileMetaData() : files.back();
  }

  // The ingested file `f` took `layout` (CheckIngestedFile verifies it).
  void CheckLayout(const LiveFileMetaData& f, const char* layout) {
    SstFileReader reader(rh_opts_);
    ASSERT_OK(reader.Open(f.db_path + "/" + f.name));
    EXPECT_EQ(reader.GetTableProperties()->user_collected_properties.at(
                  RobinHoodTablePropertyNames::kLayout),
              layout);
  }

  // The global sequence number property of an ingested file in the
  // RobinHoodTable database, read back with SstFileReader, which also
  // verifies the whole file (written in place by RocksDB when
  // write_global_seqno is set).
  void CheckIngestedFile(const LiveFileMetaData& f, uint64_t expected_seqno) {
    SCOPED_TRACE("ingested file " + f.name);
    EXPECT_EQ(f.smallest_seqno, expected_seqno);
    EXPECT_EQ(f.largest_seqno, expected_seqno);
    SstFileReader reader(rh_opts_);
    ASSERT_OK(reader.Open(f.db_path + "/" + f.name));
    ASSERT_OK(reader.VerifyChecksum());
    auto props = reader.GetTableProperties();
    ASSERT_TRUE(props != nullptr);
    auto it = props->user_collected_properties.find(kExternalGlobalSeqno);
    ASSERT_TRUE(it != props->user_collected_properties.end());
    ASSERT_EQ(it->second.size(), 8u);
    uint64_t stored = 0;
    for (int i = 7; i >= 0; i--) {
      stored = (stored << 8) | static_cast<unsigned char>(it->second[i]);
    }
    EXPECT_EQ(stored,
              write_global_seqno() ? expected_seqno : uint64_t{0});
  }

  std::string files_dir_;
  std::set<std::string> keys_;
};

TEST_P(IngestTest, IntoEmptyDB) {
  FileSpec spec = MakeSpec(0, 3000, 1, 6, 1);
  AddOddKeys(&spec, "first");
  std::string rh_file, bbt_file;
  ASSERT_OK(WriteFiles(spec, "first", &rh_file, &bbt_file));
  ASSERT_OK(Ingest(rh_file, bbt_file));
  ASSERT_NO_FATAL_FAILURE(ExpectSameLayout());
  ExpectOurTables();
  // Nothing to overlap: the file keeps sequence number 0.
  ASSERT_NO_FATAL_FAILURE(CheckIngestedFile(NewestFile(), 0));
  // The puts are there, and a key the file deleted is not.
  std::string v;
  ASSERT_OK(rh_->Get(ReadOptions(), "", &v));
  EXPECT_EQ(v, "empty-key-first");
  ASSERT_OK(rh_->Get(ReadOptions(), std::string("\0\0", 2), &v));
  EXPECT_EQ(v, "zero-first");
  ASSERT_NO_FATAL_FAILURE(Compare("ingested into an empty db"));

  // A second file over the first: now a global sequence number is needed.
  TakeSnapshot("before the second file");
  FileSpec spec2 = MakeSpec(1, 1500, 2, 4, 2);
  AddOddKeys(&spec2, "second");
  ASSERT_OK(WriteFiles(spec2, "second", &rh_file, &bbt_file));
  const SequenceNumber before = rh_->GetLatestSequenceNumber();
  ASSERT_OK(Ingest(rh_file, bbt_file));
  ASSERT_EQ(rh_->GetLatestSequenceNumber(), before + 1);
  ASSERT_EQ(bbt_->GetLatestSequenceNumber(), before + 1);
  ASSERT_NO_FATAL_FAILURE(ExpectSameLayout());
  ASSERT_NO_FATAL_FAILURE(CheckIngestedFile(NewestFile(), before + 1));
  ASSERT_OK(rh_->Get(ReadOptions(), "", &v));
  EXPECT_EQ(v, "empty-key-second");
  ASSERT_OK(rh_->Get(ReadOptions(), std::string("\0\0", 2), &v));
  EXPECT_EQ(v, "zero-first,zero-second");
  ASSERT_NO_FATAL_FAILURE(
      CompareThroughReopenAndCompaction("second file over the first"));
}

TEST_P(IngestTest, OverlapsMemtableAndSstFiles) {
  // SST files on two levels, an L0 file, and a memtable, all overlapping
  // the file to come.
  Workload(0, 2000, 1, 10);
  DeleteRange(Key(1500), Key(1600));
  Flush();
  Compact();
  Workload(0, 2000, 3, 11);
  Flush();
  Workload(500, 1500, 2, 12);
  DeleteRange(Key(700), Key(720));
  Merge("", "db-empty");
  TakeSnapshot("before ingestion, memtable unflushed");
  Workload(900, 1100, 1, 13);
  TakeSnapshot("just before ingestion");
  ASSERT_NO_FATAL_FAILURE(Compare("before ingestion"));

  FileSpec spec = MakeSpec(0, 1000, 2, 8, 14);
  AddOddKeys(&spec, "ingested");
  std::string rh_file, bbt_file;
  ASSERT_OK(WriteFiles(spec, "overlap", &rh_file, &bbt_file));
  const SequenceNumber before = rh_->GetLatestSequenceNumber();
  ASSERT_EQ(bbt_->GetLatestSequenceNumber(), before);
  ASSERT_OK(Ingest(rh_file, bbt_file));
  // The memtable was flushed first, and the file has the next sequence
  // number.
  ASSERT_EQ(rh_->GetLatestSequenceNumber(), before + 1);
  ASSERT_NO_FATAL_FAILURE(ExpectSameLayout());
  ASSERT_NO_FATAL_FAILURE(CheckIngestedFile(NewestFile(), before + 1));
  ExpectOurTables();
  std::string v;
  ASSERT_OK(rh_->Get(ReadOptions(), "", &v));
  EXPECT_EQ(v, "empty-key-ingested");
  ASSERT_NO_FATAL_FAILURE(Compare("ingested over memtable and sst files"));

  // Writes after the ingestion, on the ingested keys.
  Workload(0, 400, 3, 15);
  TakeSnapshot("after ingestion and writes");
  Merge(Key(10), "after");
  Merge(Key(11), "after");
  Flush();
  ASSERT_NO_FATAL_FAILURE(Compare("writes after ingestion"));
  ASSERT_NO_FATAL_FAILURE(CompareThroughReopenAndCompaction("overlap"));
}

// SstFileWriter's puts of short values make an inline file (every entry a
// compacted put that fits a slot). Ingested over overlapping data, it takes
// a global sequence number, which its entries surface with, written into
// the file or not (the parameter).
TEST_P(IngestTest, PutOnlyFileIsInline) {
  Workload(0, 2000, 1, 20);
  Flush();
  Compact();
  Workload(300, 900, 2, 21);
  TakeSnapshot("before the inline ingestion");
  FileSpec spec;
  for (int i = 0; i < 1500; i++) {
    spec.push_back({Entry::kPut, Key(i * 2),
                    "in" + std::string(i % 23, static_cast<char>('a' + i % 26))});
  }
  spec.push_back({Entry::kPut, "", "empty key"});
  std::string rh_file, bbt_file;
  ASSERT_OK(WriteFiles(spec, "inline", &rh_file, &bbt_file));
  const SequenceNumber before = rh_->GetLatestSequenceNumber();
  ASSERT_OK(Ingest(rh_file, bbt_file));
  ASSERT_EQ(rh_->GetLatestSequenceNumber(), before + 1);
  const LiveFileMetaData f = NewestFile();
  ASSERT_NO_FATAL_FAILURE(CheckIngestedFile(f, before + 1));
  ASSERT_NO_FATAL_FAILURE(CheckLayout(f, "inline"));
  ASSERT_NO_FATAL_FAILURE(Compare("inline file ingested"));
  Workload(0, 600, 5, 22);
  ASSERT_NO_FATAL_FAILURE(Compare("writes over the inline file"));
  ASSERT_NO_FATAL_FAILURE(CompareThroughReopenAndCompaction("inline"));
}

// A file of puts too long for a slot takes pages, which SstFileWriter's
// builder writes as they fill (past the first 256 KiB, here about 2,000
// entries); the 80,000-byte value past a page's room,
// and the merges and deletions after it, go to a log behind them. Ingested
// over overlapping writes (a global sequence number), it reads as
// BlockBasedTable's file does, through every read, reopened and compacted.
TEST_P(IngestTest, PagesThenALogFile) {
  // Pread without the global seqno written into the file, mmap with it:
  // each read and each seqno mode once (the comparisons take a minute).
  if (mmap() != write_global_seqno()) {
    GTEST_SKIP() << "the other two combinations of reads and seqno modes";
  }
  Workload(0, 2000, 1, 23);
  Flush();
  Workload(300, 900, 2, 24);
  TakeSnapshot("before the paged ingestion");
  FileSpec spec;
  std::mt19937_64 rng(26);
  for (int i = 0; i < 2200; i++) {
    // Random bytes: the column family's codec would save nothing, so the
    // file takes pages.
    std::string v(i == 2000 ? 80000 : 190 + i % 100, '\0');
    for (char& c : v) c = static_cast<char>(rng());
    if (i > 2000 && i % 40 == 3) {
      spec.push_back({Entry::kMerge, Key(i * 2), "m" + std::to_string(i)});
    } else if (i > 2000 && i % 40 == 9) {
      spec.push_back({Entry::kDelete, Key(i * 2), ""});
    } else {
      spec.push_back({Entry::kPut, Key(i * 2), v});
    }
  }
  std::string rh_file, bbt_file;
  ASSERT_OK(WriteFiles(spec, "pages_then_log", &rh_file, &bbt_file));
  const SequenceNumber before = rh_->GetLatestSequenceNumber();
  ASSERT_OK(Ingest(rh_file, bbt_file));
  const LiveFileMetaData f = NewestFile();
  ASSERT_NO_FATAL_FAILURE(CheckIngestedFile(f, before + 1));
  ASSERT_NO_FATAL_FAILURE(CheckLayout(f, "paged+log"));
  ASSERT_NO_FATAL_FAILURE(Compare("pages then a log ingested"));
  Workload(0, 600, 5, 25);
  ASSERT_NO_FATAL_FAILURE(Compare("writes over the pages and the log"));
  ASSERT_NO_FATAL_FAILURE(
      CompareThroughReopenAndCompaction("pages then a log"));
}

TEST_P(IngestTest, StackedIngestionsAndSeveralFilesAtOnce) {
  Workload(0, 1200, 1, 20);
  Flush();
  for (int round = 0; round < 4; round++) {
    SCOPED_TRACE("round " + std::to_string(round));
    TakeSnapshot("before round " + std::to_string(round));
    FileSpec spec = MakeSpec(round * 50, 600, 2, 3, 30 + round);
    // Merges on the same keys in every round, so operands from several
    // ingested files (each at its own sequence number) stack up.
    for (int i = 0; i < 40; i++) {
      spec.push_back({Entry::kMerge, "zz" + std::to_string(i),
                      "r" + std::to_string(round)});
    }
    std::string rh_file, bbt_file;
    ASSERT_OK(WriteFiles(spec, "round" + std::to_string(round), &rh_file,
                         &bbt_file));
    IngestExternalFileOptions o = IngestOptions();
    o.verify_checksums_before_ingest = round % 2 == 0;
    ASSERT_OK(Ingest({rh_file}, {bbt_file}, o));
    if (round == 1) Workload(0, 600, 5, 40 + round);  // in the memtable
    if (round == 2) Flush();
    ASSERT_NO_FATAL_FAILURE(
        Compare("after stacked ingestion " + std::to_string(round)));
  }
  std::string v;
  ASSERT_OK(rh_->Get(ReadOptions(), "zz7", &v));
  EXPECT_EQ(v, "r0,r1,r2,r3");

  // Three disjoint files in one call, one of them overlapping the database.
  std::vector<std::string> rh_files, bbt_files;
  for (int f = 0; f < 3; f++) {
    FileSpec spec = MakeSpec(3000 + f * 1000 - (f == 0 ? 2000 : 0), 300, 3,
                             2, 60 + f);
    std::string rh_file, bbt_file;
    ASSERT_OK(WriteFiles(spec, "batch" + std::to_string(f), &rh_file,
                         &bbt_file));
    rh_files.push_back(rh_file);
    bbt_files.push_back(bbt_file);
  }
  ASSERT_OK(Ingest(rh_files, bbt_files, IngestOptions()));
  ASSERT_NO_FATAL_FAILURE(ExpectSameLayout());
  ASSERT_NO_FATAL_FAILURE(CompareThroughReopenAndCompaction("stacked"));
}

TEST_P(IngestTest, RangeDeletionOnlyFiles) {
  // Into an empty database.
  FileSpec only_ranges = {{Entry::kRange, Key(10), Key(20)},
                          {Entry::kRange, Key(15), Key(40)},
                          {Entry::kRange, Key(100), Key(101)}};
  std::string rh_file, bbt_file;
  ASSERT_OK(WriteFiles(only_ranges, "ranges_empty", &rh_file, &bbt_file));
  {
    SstFileReader reader(rh_opts_);
    ASSERT_OK(reader.Open(rh_file));
    ASSERT_OK(reader.VerifyChecksum());
    auto props = reader.GetTableProperties();
    ASSERT_TRUE(props != nullptr);
    EXPECT_EQ(props->num_range_deletions, 3u);
    std::unique_ptr<Iterator> it(reader.NewIterator(ReadOptions()));
    it->SeekToFirst();
    EXPECT_FALSE(it->Valid());
    EXPECT_OK(it->status());
  }
  ASSERT_OK(Ingest(rh_file, bbt_file));
  ASSERT_NO_FATAL_FAILURE(ExpectSameLayout());
  ASSERT_NO_FATAL_FAILURE(Compare("range deletions into an empty db"));

  // Over data in SST files and the memtable: the ranges delete it.
  Workload(0, 300, 1, 70);
  Flush();
  Workload(0, 300, 4, 71);
  TakeSnapshot("before the range deletions");
  std::string v;
  ASSERT_TRUE(rh_->Get(ReadOptions(), Key(150), &v).ok() ||
              rh_->Get(ReadOptions(), Key(151), &v).ok());
  FileSpec ranges = {{Entry::kRange, Key(50), Key(60)},
                     {Entry::kRange, Key(140), Key(200)},
                     {Entry::kRange, Key(199), Key(230)},
                     {Entry::kRange, "", Key(3)}};
  ASSERT_OK(WriteFiles(ranges, "ranges_over", &rh_file, &bbt_file));
  ASSERT_OK(Ingest(rh_file, bbt_file));
  for (int i : {0, 2, 50, 59, 140, 150, 199, 229}) {
    EXPECT_TRUE(rh_->Get(ReadOptions(), Key(i), &v).IsNotFound()) << Key(i);
  }
  ASSERT_NO_FATAL_FAILURE(
      CompareThroughReopenAndCompaction("range deletions over data"));
}

TEST_P(IngestTest, FailuresMatchBlockBasedTable) {
  // A file of no entries: SstFileWriter refuses to finish it either way, and
  // ingesting the path (then absent) fails the same way.
  std::string rh_file, bbt_file;
  Status s = WriteFiles({}, "empty", &rh_file, &bbt_file);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  s = Ingest(rh_file, bbt_file);
  EXPECT_FALSE(s.ok());

  // Keys out of order: refused by both writers.
  {
    SstFileWriter a(EnvOptions(), rh_opts_), b(EnvOptions(), bbt_opts_);
    ASSERT_OK(a.Open(files_dir_ + "/unordered.rh.sst"));
    ASSERT_OK(b.Open(files_dir_ + "/unordered.bbt.sst"));
    ASSERT_OK(a.Put(Key(2), "x"));
    ASSERT_OK(b.Put(Key(2), "x"));
    Status sa = a.Put(Key(1), "y");
    Status sb = b.Put(Key(1), "y");
    EXPECT_EQ(sa.code(), sb.code());
    EXPECT_FALSE(sa.ok());
    ASSERT_OK(a.Finish());
    ASSERT_OK(b.Finish());
  }

  Workload(0, 500, 1, 80);
  Flush();
  Workload(0, 500, 7, 81);  // in the memtable
  FileSpec spec = MakeSpec(0, 200, 2, 2, 82);
  ASSERT_OK(WriteFiles(spec, "overlap", &rh_file, &bbt_file));

  // Overlap with the memtable without permission to flush it.
  IngestExternalFileOptions o = IngestOptions();
  o.allow_blocking_flush = false;
  s = Ingest({rh_file}, {bbt_file}, o);
  EXPECT_FALSE(s.ok());
  ASSERT_NO_FATAL_FAILURE(Compare("refused: memtable overlap"));

  // Overlap with SST files without permission to assign a sequence number.
  Flush();
  o = IngestOptions();
  o.allow_global_seqno = false;
  s = Ingest({rh_file}, {bbt_file}, o);
  EXPECT_FALSE(s.ok());
  ASSERT_NO_FATAL_FAILURE(Compare("refused: global seqno not allowed"));

  // Two files that overlap each other, in one call: whatever RocksDB does,
  // it does for both formats.
  std::string rh2, bbt2;
  ASSERT_OK(WriteFiles(MakeSpec(100, 200, 2, 1, 83), "overlap2", &rh2, &bbt2));
  s = Ingest({rh_file, rh2}, {bbt_file, bbt2}, IngestOptions());
  ASSERT_NO_FATAL_FAILURE(ExpectSameLayout());
  ASSERT_NO_FATAL_FAILURE(Compare("two overlapping files in one call: " +
                                  s.ToString()));

  // A file that is not an SST file at all, and a truncated one.
  {
    std::ofstream out(files_dir_ + "/garbage.sst", std::ios::binary);
    out << std::string(4096, 'g');
  }
  s = Ingest({files_dir_ + "/garbage.sst"}, {files_dir_ + "/garbage.sst"},
             IngestOptions());
  EXPECT_FALSE(s.ok());
  ASSERT_OK(WriteFiles(MakeSpec(5000, 100, 1, 0, 84), "to_truncate", &rh_file,
                       &bbt_file));
  for (const std::string* f : {&rh_file, &bbt_file}) {
    std::string bytes;
    {
      std::ifstream in(*f, std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      bytes = ss.str();
    }
    std::ofstream out(*f, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size() - 20));
  }
  s = Ingest(rh_file, bbt_file);
  EXPECT_FALSE(s.ok());
  ASSERT_NO_FATAL_FAILURE(
      CompareThroughReopenAndCompaction("after refused ingestions"));
}

TEST_P(IngestTest, IngestBehind) {
  // ingest_behind puts the file under everything, at sequence number 0: the
  // database's own versions win over the file's.
  CloseBoth();
  ASSERT_OK(DestroyBoth());
  rh_opts_.allow_ingest_behind = true;
  bbt_opts_.allow_ingest_behind = true;
  // Only universal compaction keeps the last level free for it (RocksDB
  // 9.x says so, and lets leveled compaction fill it).
  rh_opts_.compaction_style = kCompactionStyleUniversal;
  bbt_opts_.compaction_style = kCompactionStyleUniversal;
  ASSERT_OK(OpenBoth());
  Workload(0, 1000, 2, 90);
  Flush();
  Compact();
  Workload(0, 1000, 3, 91);
  TakeSnapshot("before ingest behind");
  FileSpec spec = MakeSpec(0, 1000, 1, 0, 92);  // no range deletions here
  std::string rh_file, bbt_file;
  ASSERT_OK(WriteFiles(spec, "behind", &rh_file, &bbt_file));
  IngestExternalFileOptions o = IngestOptions();
  o.ingest_behind = true;
  const size_t before = snaps_.back().seen.size();
  ASSERT_OK(Ingest({rh_file}, {bbt_file}, o));
  ASSERT_NO_FATAL_FAILURE(ExpectSameLayout());
  ResnapViews();
  // Keys only the file holds show through the old snapshot.
  EXPECT_GT(snaps_.back().seen.size(), before);
  ASSERT_NO_FATAL_FAILURE(
      CompareThroughReopenAndCompaction("ingested behind"));
}

TEST_P(IngestTest, SstFileReaderOnOurFile) {
  FileSpec spec = MakeSpec(0, 4000, 1, 5, 100);
  AddOddKeys(&spec, "reader");
  std::string rh_file, bbt_file;
  ASSERT_OK(WriteFiles(spec, "reader", &rh_file, &bbt_file));
  SstFileReader ra(rh_opts_), rb(bbt_opts_);
  ASSERT_OK(ra.Open(rh_file));
  ASSERT_OK(rb.Open(bbt_file));
  ASSERT_OK(ra.VerifyChecksum());
  ASSERT_OK(ra.VerifyChecksum(ReadOptions()));

  // Properties: the counts agree with what was written, and with
  // BlockBasedTable's (num_entries counts the range deletions too: RocksDB
  // 9.x checks compaction input counts against that meaning).
  auto pa = ra.GetTableProperties();
  auto pb = rb.GetTableProperties();
  ASSERT_TRUE(pa != nullptr && pb != nullptr);
  uint64_t puts = 0, merges = 0, deletes = 0, ranges = 0;
  for (const Entry& e : spec) {
    puts += e.type == Entry::kPut;
    merges += e.type == Entry::kMerge;
    deletes += e.type == Entry::kDelete;
    ranges += e.type == Entry::kRange;
  }
  EXPECT_EQ(pa->num_entries, puts + merges + deletes + ranges);
  EXPECT_EQ(pa->num_entries, pb->num_entries);
  EXPECT_EQ(pa->num_deletions, pb->num_deletions);
  EXPECT_EQ(pa->num_merge_operands, merges);
  EXPECT_EQ(pa->num_range_deletions, ranges);
  EXPECT_EQ(pa->num_range_deletions, pb->num_range_deletions);
  EXPECT_EQ(pa->num_merge_operands, pb->num_merge_operands);
  EXPECT_EQ(pa->raw_key_size, pb->raw_key_size);
  EXPECT_EQ(pa->raw_value_size, pb->raw_value_size);
  EXPECT_EQ(pa->comparator_name, pb->comparator_name);
  EXPECT_EQ(pa->merge_operator_name, pb->merge_operator_name);
  for (const char* name : {kExternalVersion, kExternalGlobalSeqno}) {
    auto a = pa->user_collected_properties.find(name);
    auto b = pb->user_collected_properties.find(name);
    ASSERT_TRUE(a != pa->user_collected_properties.end()) << name;
    ASSERT_TRUE(b != pb->user_collected_properties.end()) << name;
    EXPECT_EQ(a->second, b->second) << name;
  }
  auto f = pa->user_collected_properties.find(kFactoryProperty);
  ASSERT_TRUE(f != pa->user_collected_properties.end());
  EXPECT_EQ(f->second, kRobinHoodTableName);

  // Iterators over both files agree everywhere (merges resolved and
  // deletions hidden by SstFileReader's DBIter).
  std::vector<std::string> probes = Probes();
  for (int checksums = 0; checksums < 2; checksums++) {
    ReadOptions ro;
    ro.verify_checksums = checksums == 1;
    std::unique_ptr<Iterator> a(ra.NewIterator(ro));
    std::unique_ptr<Iterator> b(rb.NewIterator(ro));
    size_t n = 0;
    for (a->SeekToFirst(), b->SeekToFirst();; a->Next(), b->Next(), n++) {
      ASSERT_TRUE(Same(a.get(), b.get(), "forward " + std::to_string(n)));
      if (!a->Valid()) break;
    }
    EXPECT_GT(n, 1000u);
    for (a->SeekToLast(), b->SeekToLast();; a->Prev(), b->Prev()) {
      ASSERT_TRUE(Same(a.get(), b.get(), "backward"));
      if (!a->Valid()) break;
    }
    for (const auto& k : probes) {
      a->Seek(k);
      b->Seek(k);
      ASSERT_TRUE(Same(a.get(), b.get(), "Seek(" + P(k) + ")"));
      if (a->Valid()) {
        a->Next();
        b->Next();
        ASSERT_TRUE(Same(a.get(), b.get(), "Seek(" + P(k) + ") Next"));
      }
      a->SeekForPrev(k);
      b->SeekForPrev(k);
      ASSERT_TRUE(Same(a.get(), b.get(), "SeekForPrev(" + P(k) + ")"));
      if (a->Valid()) {
        a->Prev();
        b->Prev();
        ASSERT_TRUE(Same(a.get(), b.get(), "SeekForPrev(" + P(k) + ") Prev"));
      }
    }
  }

  // A damaged copy: one byte of the log flipped. Opening may succeed (the
  // log is verified when read), but VerifyChecksum must fail, and so must
  // a checksum-verifying scan, never giving a wrong answer silently.
  std::string bytes;
  {
    std::ifstream in(rh_file, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    bytes = ss.str();
  }
  ASSERT_GT(bytes.size(), 2000u);
  bytes[bytes.size() / 5] = static_cast<char>(bytes[bytes.size() / 5] ^ 0x10);
  const std::string damaged = files_dir_ + "/damaged.rh.sst";
  {
    std::ofstream out(damaged, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  SstFileReader rd(rh_opts_);
  Status s = rd.Open(damaged);
  if (s.ok()) {
    s = rd.VerifyChecksum();
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    ReadOptions ro;
    ro.verify_checksums = true;
    std::unique_ptr<Iterator> a(rd.NewIterator(ro));
    std::unique_ptr<Iterator> b(rb.NewIterator(ro));
    for (a->SeekToFirst(), b->SeekToFirst(); a->Valid(); a->Next(), b->Next()) {
      ASSERT_TRUE(b->Valid());
      ASSERT_EQ(a->key(), b->key());
      ASSERT_EQ(a->value(), b->value());
    }
    EXPECT_TRUE(a->status().IsCorruption()) << a->status().ToString();
    // Ingesting it with verification is refused.
    IngestExternalFileOptions o = IngestOptions();
    o.verify_checksums_before_ingest = true;
    s = rh_->IngestExternalFile({damaged}, o);
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  } else {
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  }
}

std::string ParamName(
    const testing::TestParamInfo<std::tuple<bool, bool>>& info) {
  return std::string(std::get<0>(info.param) ? "mmap" : "pread_tinyblocks") +
         (std::get<1>(info.param) ? "_write_seqno" : "_no_write_seqno");
}

INSTANTIATE_TEST_SUITE_P(MmapAndWriteGlobalSeqno, IngestTest,
                         testing::Combine(testing::Bool(), testing::Bool()),
                         ParamName);

}  // namespace
}  // namespace ROCKSDB_NAMESPACE
