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

#include <atomic>
#include <map>
#include <mutex>
#include <thread>

#include "rocksdb/listener.h"
#include "rocksdb/rate_limiter.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/statistics.h"
#include "tests/db_harness.h"
#include "tests/fault_fs.h"
#include "tests/step_clock.h"
#include "tools/common/db_open.h"

namespace ROCKSDB_NAMESPACE {
namespace dbtest {
using robinhood::DBResult;
namespace {

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

// Direct I/O, as DBs larger than memory often run (reads past the page
// cache, into a block cache): RocksDB's file reader aligns each of our
// positioned reads, in lookups, scans, compactions and flushes. Mapped
// reads and direct ones exclude each other.
TEST_P(RobinHoodDBTest, DirectReadsAndWrites) {
  if (mmap()) GTEST_SKIP() << "RocksDB refuses mmap reads with direct reads";
  Close();
  options_.use_direct_reads = true;
  options_.use_direct_io_for_flush_and_compaction = true;
  Status s = Open();
  if (s.IsNotSupported() || s.IsInvalidArgument()) {
    GTEST_SKIP() << "no direct I/O here: " << s.ToString();
  }
  ASSERT_OK(s);
  for (int i = 0; i < 2000; i++) Put(Key(i), Value(i, 0));
  Flush();
  for (int i = 0; i < 2000; i += 3) Put(Key(i), Value(i, 1));
  for (int i = 0; i < 2000; i += 7) Delete(Key(i));
  Flush();
  ExpectOurTables();
  VERIFY("two flushed files, direct reads");
  Compact();
  ExpectOurTables();
  VERIFY("compacted, direct reads");
  Reopen();
  VERIFY("reopened, direct reads");
}

// FIFO compaction over our files: past max_table_files_size it drops the
// oldest whole files. A time to live (ttl) or periodic compactions RocksDB
// refuses at open for every table format but BlockBasedTable (the guide
// says so): pinned here, so the guide learns if a release lifts it.
TEST_P(RobinHoodDBTest, FifoDropsTheOldestFiles) {
  Close();
  Options with_ttl = options_;
  with_ttl.compaction_style = kCompactionStyleFIFO;
  with_ttl.ttl = 1000;
  Status s = Open(with_ttl);
  ASSERT_TRUE(s.IsNotSupported()) << s.ToString();
  Options periodic = options_;
  periodic.periodic_compaction_seconds = 1000;
  s = Open(periodic);
  ASSERT_TRUE(s.IsNotSupported()) << s.ToString();

  options_.compaction_style = kCompactionStyleFIFO;
  options_.disable_auto_compactions = false;
  ASSERT_OK(Open());
  for (int f = 0; f < 2; f++) {
    for (int i = f * 300; i < (f + 1) * 300; i++) Put(Key(i), Value(i, f));
    Flush();
  }
  ExpectOurTables();
  ASSERT_EQ(NumFiles(), 2);
  uint64_t two = 0;
  for (const LiveFileMetaData& f : Files()) two += f.size;
  // Room for about two files of this size: the third flush drops the
  // first.
  Close();
  options_.compaction_options_fifo.max_table_files_size = two + two / 4;
  ASSERT_OK(Open());
  for (int i = 600; i < 900; i++) Put(Key(i), Value(i, 2));
  Flush();
  for (int wait = 0; wait < 500 && NumFiles() != 2; wait++) {
    Env::Default()->SleepForMicroseconds(10000);
  }
  ASSERT_EQ(NumFiles(), 2) << "the oldest file was not dropped";
  for (int i = 0; i < 300; i++) model_.erase(Key(i));
  VERIFY("after FIFO dropped the oldest file");
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

// The filter (configs 1 and 2) answers lookups of absent keys, by Get and
// MultiGet, and counts them as BlockBasedTable's does; it never hides a
// key the file has. With optimize_filters_for_hits, bottommost files are
// built without one.
TEST_P(RobinHoodDBTest, FilterRulesOutAbsentKeys) {
  Close();
  options_.statistics = CreateDBStatistics();
  ASSERT_OK(Open());
  for (int i = 0; i < 2000; i++) Put(Key(i * 2), Value(i * 2, 0));
  Flush();
  ExpectOurTables();
  const bool filtered = !config().options.filter_policy.empty();
  std::string v;
  for (int i = 0; i < 2000; i++) {
    ASSERT_TRUE(db_->Get(ReadOptions(), Key(i * 2 + 1), &v).IsNotFound());
  }
  std::vector<std::string> absent;
  for (int i = 0; i < 40; i++) absent.push_back(Key(i * 2 + 1));
  std::vector<Slice> keys(absent.begin(), absent.end());
  std::vector<PinnableSlice> values(keys.size());
  std::vector<Status> statuses(keys.size());
  db_->MultiGet(ReadOptions(), db_->DefaultColumnFamily(), keys.size(),
                keys.data(), values.data(), statuses.data());
  for (const Status& st : statuses) ASSERT_TRUE(st.IsNotFound()) << st.ToString();
  Statistics* stats = options_.statistics.get();
  const uint64_t useful = stats->getTickerCount(BLOOM_FILTER_USEFUL);
  if (filtered) {
    EXPECT_GT(useful, 2040u * 9 / 10);
  } else {
    EXPECT_EQ(useful, 0u);
  }
  stats->Reset().PermitUncheckedError();
  VERIFY("with the filter");  // every key present is found through it
  if (filtered) {
    EXPECT_GE(stats->getTickerCount(BLOOM_FILTER_FULL_POSITIVE), 2000u);
  }

  TablePropertiesCollection props;
  ASSERT_OK(db_->GetPropertiesOfAllTables(&props));
  for (const auto& p : props) {
    EXPECT_EQ(p.second->filter_size != 0, filtered) << p.first;
    EXPECT_EQ(p.second->num_filter_entries, filtered ? 2000u : 0u);
  }
  Close();
  options_.optimize_filters_for_hits = true;
  ASSERT_OK(Open());
  for (int i = 0; i < 100; i++) Put(Key(i * 2), Value(i * 2, 1));
  Flush();  // two files: the compaction below rewrites them, not moves
  Compact();
  props.clear();
  ASSERT_OK(db_->GetPropertiesOfAllTables(&props));
  ASSERT_EQ(props.size(), 1u);
  for (const auto& p : props) EXPECT_EQ(p.second->filter_size, 0u) << p.first;
  VERIFY("bottommost, without a filter");
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

// Values read with mmap come pinned, not copied, where that pays: an
// application's PinnableSlice keeps them valid after a compaction deletes
// their file (and RocksDB closes its reader), until it lets go. A read-only
// DB with max_open_files=-1 never closes a reader while it is open, so
// there every value in the mapping comes pinned.
TEST_P(RobinHoodDBTest, PinnedValuesOutliveTheirFiles) {
  // Uncompressed, so that values stay in the mapping (a compressed
  // file's are decompressed into buffers and copied).
  Close();
  options_.compression = kNoCompression;
  ASSERT_OK(Open());
  auto long_value = [](int i, int v) {
    return Value(i, v) + std::string(600, static_cast<char>('A' + (i + v) % 26));
  };
  for (int i = 0; i < 300; i++) Put(Key(i), long_value(i, 0));
  Flush();
  Compact();
  ExpectOurTables();
  const std::vector<std::string> old_files = test_util::LiveSstPaths(db_.get());
  std::vector<PinnableSlice> got(100);
  for (int i = 0; i < 50; i++) {
    ASSERT_OK(db_->Get(ReadOptions(), db_->DefaultColumnFamily(), Key(i * 3),
                       &got[i]));
  }
  std::vector<std::string> batch;
  for (int i = 50; i < 100; i++) batch.push_back(Key(i * 3));
  std::vector<Slice> keys(batch.begin(), batch.end());
  std::vector<Status> statuses(keys.size());
  db_->MultiGet(ReadOptions(), db_->DefaultColumnFamily(), keys.size(),
                keys.data(), got.data() + 50, statuses.data());
  for (const Status& st : statuses) ASSERT_OK(st);
  int pinned = 0;
  for (const PinnableSlice& v : got) pinned += v.IsPinned() ? 1 : 0;
  EXPECT_EQ(pinned, mmap() ? 100 : 0);

  // New values, compacted: the old files go, and their readers.
  for (int i = 0; i < 300; i++) Put(Key(i), long_value(i, 1));
  Put(Key(1000), "short");
  Flush();
  Compact();
  for (const std::string& f : old_files) {
    ASSERT_TRUE(Env::Default()->FileExists(f).IsNotFound()) << f;
  }
  for (int i = 0; i < 100; i++) {
    ASSERT_EQ(got[i].ToString(), long_value(i * 3, 0)) << i;
  }
  got.clear();
  VERIFY("after the pins went");
  // Merges over long values in a file: their operands come pinned.
  for (int i = 0; i < 300; i += 7) Merge(Key(i), "m" + long_value(i, 2));
  Flush();
  for (int i = 0; i < 300; i += 11) Merge(Key(i), "n");
  VERIFY("merges over long values");
  {
    // A short value is copied: a reader that can go would pay more to
    // keep it than to copy it.
    PinnableSlice v;
    ASSERT_OK(db_->Get(ReadOptions(), db_->DefaultColumnFamily(), Key(1000), &v));
    ASSERT_EQ(v.ToString(), "short");
    EXPECT_FALSE(v.IsPinned());
  }

  // Read only, every reader kept: short values come pinned too.
  Close();
  Options ro_options = options_;
  ro_options.max_open_files = -1;
  ASSERT_OK(DB::OpenForReadOnly(ro_options, dbname_, DBResult(&db_)));
  {
    PinnableSlice v;
    ASSERT_OK(db_->Get(ReadOptions(), db_->DefaultColumnFamily(), Key(1000), &v));
    ASSERT_EQ(v.ToString(), "short");
    EXPECT_EQ(v.IsPinned(), mmap());
  }
  Close();
  ASSERT_OK(Open());
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

// A compaction allowed several threads (max_subcompactions) splits its
// input where its files' key anchors say the bytes lie: two overlapping
// files of ours become four even runs of work. (Without anchors, each file
// is one run ending at its last key: the split falls at the end of the key
// range and one thread does nearly all of it.)
TEST_P(RobinHoodDBTest, CompactionsSplitOurFilesAcrossThreads) {
  // The entries each thread of the compaction out of level 0 wrote (each
  // of its runs writes its own files, on a thread of its own; a bottommost
  // rewrite of its many small outputs may follow).
  struct Counter : public EventListener {
    void OnCompactionBegin(DB*, const CompactionJobInfo& info) override {
      if (info.base_input_level == 0) job = info.job_id;
    }
    void OnTableFileCreated(const TableFileCreationInfo& info) override {
      if (info.reason != TableFileCreationReason::kCompaction ||
          info.job_id != job.load()) {
        return;
      }
      std::lock_guard<std::mutex> lock(mu);
      entries[std::this_thread::get_id()] += info.table_properties.num_entries;
    }
    std::atomic<int> job{-1};
    std::mutex mu;
    std::map<std::thread::id, uint64_t> entries;
  };
  auto counter = std::make_shared<Counter>();
  Close();
  options_.max_subcompactions = 4;
  options_.target_file_size_base = 64 << 10;  // under a quarter of the data
  options_.listeners.push_back(counter);
  ASSERT_OK(Open());
  const int n = 20000;
  for (int f = 0; f < 2; f++) {
    for (int i = f; i < n; i += 2) Put(Key(i), Value(i, f) + std::string(80, 'v'));
    Flush();
  }
  ASSERT_EQ(NumFiles(), 2);
  Compact();
  std::string runs;
  int even = 0;  // threads that wrote at least half a fair share
  for (const auto& e : counter->entries) {
    runs += " " + std::to_string(e.second);
    if (e.second >= n / 8) even++;
  }
  EXPECT_GE(even, 3) << "entries written by each thread:" << runs;
  ExpectOurTables();
  VERIFY("after a compaction in four runs");
}

// A compaction ends an output file where the builder's estimate reaches
// target_file_size_base: the estimate must be of the file as it will be
// written (for inline files in key order, slots without the keys' shared
// prefix and no order array), or every output comes out short.
TEST_P(RobinHoodDBTest, CompactionOutputsReachTheirTargetSize) {
  Close();
  const uint64_t target = 64 << 10;
  options_.target_file_size_base = target;
  ASSERT_OK(Open());
  const int n = 50000;
  for (int i = 0; i < n; i++) {
    std::string k(8, '\0');
    for (int b = 0; b < 8; ++b) {
      k[b] = static_cast<char>((uint64_t(i) * 3) >> (56 - 8 * b));
    }
    Put(k, std::to_string(i % 10000));
  }
  Flush();
  Compact();
  std::vector<LiveFileMetaData> files = Files();
  ASSERT_GE(files.size(), 3u);
  std::sort(files.begin(), files.end(),
            [](const LiveFileMetaData& a, const LiveFileMetaData& b) {
              return a.smallestkey < b.smallestkey;
            });
  TablePropertiesCollection props;
  ASSERT_OK(db_->GetPropertiesOfAllTables(&props));
  for (size_t i = 0; i + 1 < files.size(); ++i) {
    const LiveFileMetaData& f = files[i];
    std::string layout = "?";
    for (const auto& p : props) {
      if (p.first.size() >= f.name.size() &&
          p.first.compare(p.first.size() - f.name.size(), f.name.size(),
                          f.name) == 0) {
        layout = p.second->user_collected_properties.at(
            RobinHoodTablePropertyNames::kLayout);
      }
    }
    SCOPED_TRACE(f.name + " (" + layout + ")");
    EXPECT_GE(f.size, target * 8 / 10);
    EXPECT_LE(f.size, target * 5 / 4);
  }
  ExpectOurTables();
  VERIFY("outputs at their target size");
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

// Reads that must not block (read_tier kBlockCacheTier: KeyMayExist, a
// caller's non-blocking try) answer from memory: a mapped file's entries
// are; otherwise (these tables have no block cache) the filter's "absent"
// is an answer and anything else is Incomplete, never a read and never a
// wrong answer.
TEST_P(RobinHoodDBTest, ReadsThatMustNotBlock) {
  const int n = 2000;
  for (int i = 0; i < n; i++) Put(Key(i * 2), Value(i * 2, 0));
  Flush();
  Put(Key(1), "in the memtable");
  ExpectOurTables();
  ReadOptions ro;
  ro.read_tier = kBlockCacheTier;
  std::string v;
  int incomplete = 0, absent = 0;
  for (int i = 0; i < n; i++) {
    Status s = db_->Get(ro, Key(i * 2), &v);
    if (mmap()) {
      ASSERT_OK(s);
      ASSERT_EQ(v, Value(i * 2, 0));
    } else {
      ASSERT_TRUE(s.IsIncomplete()) << s.ToString();
    }
    s = db_->Get(ro, Key(i * 2 + 3), &v);  // odd keys: none in the file
    ASSERT_TRUE(s.IsNotFound() || (!mmap() && s.IsIncomplete()))
        << s.ToString();
    (s.IsNotFound() ? absent : incomplete)++;
  }
  // Every table has a filter: it answers most absent keys without a read.
  EXPECT_GT(absent, n * 9 / 10) << incomplete << " incomplete";
  ASSERT_OK(db_->Get(ro, Key(1), &v));
  EXPECT_EQ(v, "in the memtable");

  bool value_found = false;
  EXPECT_TRUE(db_->KeyMayExist(ro, db_->DefaultColumnFamily(), Key(10), &v,
                               &value_found));
  EXPECT_EQ(value_found, mmap());
  if (mmap()) {
    EXPECT_EQ(v, Value(10, 0));
  }
  int said_absent = 0;
  for (int i = 0; i < n; i++) {
    if (!db_->KeyMayExist(ro, db_->DefaultColumnFamily(), Key(i * 2 + 3), &v)) {
      said_absent++;
    }
  }
  EXPECT_GT(said_absent, n * 9 / 10);

  // MultiGet, batched (the table's MultiGet) and vector.
  std::vector<std::string> names = {Key(4), Key(5), Key(1), Key(8)};
  std::vector<std::string> want = {Value(4, 0), "", "in the memtable",
                                   Value(8, 0)};
  std::vector<Slice> keys(names.begin(), names.end());
  std::vector<PinnableSlice> values(keys.size());
  std::vector<Status> statuses(keys.size());
  db_->MultiGet(ro, db_->DefaultColumnFamily(), keys.size(), keys.data(),
                values.data(), statuses.data());
  std::vector<std::string> vec_values;
  std::vector<Status> vec = db_->MultiGet(ro, keys, &vec_values);
  for (size_t i = 0; i < keys.size(); i++) {
    for (const Status& s : {statuses[i], vec[i]}) {
      if (names[i] == Key(1)) {
        EXPECT_OK(s);
      } else if (names[i] == Key(5)) {
        EXPECT_TRUE(s.IsNotFound() || (!mmap() && s.IsIncomplete()))
            << s.ToString();
      } else if (mmap()) {
        EXPECT_TRUE(s.ok()) << names[i] << ": " << s.ToString();
      } else {
        EXPECT_TRUE(s.IsIncomplete()) << names[i] << ": " << s.ToString();
      }
    }
    if (statuses[i].ok()) {
      EXPECT_EQ(values[i].ToString(), want[i]);
    }
    if (vec[i].ok()) {
      EXPECT_EQ(vec_values[i], want[i]);
    }
  }

  // Iterators: a mapped file's entries, or Incomplete.
  std::unique_ptr<Iterator> it(db_->NewIterator(ro));
  int seen = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) seen++;
  if (mmap()) {
    ASSERT_OK(it->status());
    EXPECT_EQ(seen, n + 1);
  } else {
    EXPECT_TRUE(it->status().IsIncomplete()) << it->status().ToString();
  }
  VERIFY("after the reads that must not block");
}

// Reads from the file (without mmap) carry the caller's ReadOptions to the
// file system, as BlockBasedTable's do: a deadline that has passed fails
// the read (TimedOut) instead of making it, each read's timeout is the
// shorter of io_timeout and the time left to the deadline, and a rate
// limiter charges the bytes at the caller's priority: lookups, scans,
// checksum checks, and compactions (at RocksDB's IO_LOW). With mmap a
// lookup reads the mapping: there is no read to time or to charge.
TEST_P(RobinHoodDBTest, FileReadsCarryTheCallersDeadlineAndPriority) {
  auto fs = std::make_shared<FaultFS>(FileSystem::Default());
  std::unique_ptr<Env> env = NewFaultEnv(fs);
  std::shared_ptr<RateLimiter> limiter(NewGenericRateLimiter(
      int64_t{1} << 40, 100 * 1000, 10, RateLimiter::Mode::kReadsOnly));
  Options o = options_;
  o.env = env.get();
  o.rate_limiter = limiter;
  ASSERT_NO_FATAL_FAILURE(StartOver(o));
  const int n = 2000;
  for (int i = 0; i < n; i++) Put(Key(i), Value(i, 0));
  Flush();
  for (int i = 0; i < n; i += 2) Put(Key(i), Value(i, 1));
  Flush();
  ExpectOurTables();
  // A block cache may answer a lookup without a read.
  const bool cached = config().options.block_cache != nullptr;
  auto charged = [&](Env::IOPriority p) {
    return limiter->GetTotalBytesThrough(p);
  };
  auto get_all = [&](const ReadOptions& ro, int* timed_out) {
    *timed_out = 0;
    for (int i = 0; i < n; i += 7) {
      std::string v;
      Status s = db_->Get(ro, Key(i), &v);
      if (s.IsTimedOut()) {
        ++*timed_out;
        continue;
      }
      ASSERT_OK(s);
      ASSERT_EQ(v, model_[Key(i)]) << P(Key(i));
    }
  };
  const int gets = (n + 6) / 7;
  int timed_out = 0;

  SCOPED_TRACE("default options: no timeout, nothing charged");
  const int64_t all_before = charged(Env::IO_TOTAL);
  fs->CountSstReadsIn(dbname_);
  ASSERT_NO_FATAL_FAILURE(get_all(ReadOptions(), &timed_out));
  EXPECT_EQ(timed_out, 0);
  EXPECT_EQ(fs->sst_timed_reads(), 0u);
  EXPECT_EQ(charged(Env::IO_TOTAL), all_before);

  SCOPED_TRACE("io_timeout, a distant deadline, IO_USER");
  ReadOptions user;
  user.io_timeout = std::chrono::seconds(5);
  user.deadline = std::chrono::microseconds(env->NowMicros()) +
                  std::chrono::hours(1);
  user.rate_limiter_priority = Env::IO_USER;
  int64_t before = charged(Env::IO_USER);
  fs->CountSstReadsIn(dbname_);
  ASSERT_NO_FATAL_FAILURE(get_all(user, &timed_out));
  EXPECT_EQ(timed_out, 0);
  if (mmap()) {
    EXPECT_EQ(fs->sst_reads(), 0u);
    EXPECT_EQ(charged(Env::IO_USER), before);
  } else {
    EXPECT_GT(fs->sst_reads(), 0u);
    EXPECT_EQ(fs->sst_timed_reads(), fs->sst_reads());
    EXPECT_EQ(fs->longest_timeout(), user.io_timeout);
    EXPECT_EQ(fs->shortest_timeout(), user.io_timeout);
    EXPECT_GT(charged(Env::IO_USER), before);
  }

  SCOPED_TRACE("MultiGet, io_timeout and IO_USER");
  {
    std::vector<std::string> names;
    for (int i = 1; i < n; i += 9) names.push_back(Key(i));
    std::vector<Slice> keys(names.begin(), names.end());
    std::vector<PinnableSlice> values(keys.size());
    std::vector<Status> statuses(keys.size());
    before = charged(Env::IO_USER);
    fs->CountSstReadsIn(dbname_);
    db_->MultiGet(user, db_->DefaultColumnFamily(), keys.size(), keys.data(),
                  values.data(), statuses.data());
    for (size_t i = 0; i < keys.size(); i++) {
      ASSERT_OK(statuses[i]);
      EXPECT_EQ(values[i].ToString(), model_[names[i]]);
    }
    if (!mmap()) {
      EXPECT_GT(fs->sst_reads(), 0u);
      EXPECT_EQ(fs->sst_timed_reads(), fs->sst_reads());
      EXPECT_EQ(fs->longest_timeout(), user.io_timeout);
      EXPECT_GT(charged(Env::IO_USER), before);
    }
  }

  SCOPED_TRACE("a deadline nearer than io_timeout");
  user.deadline = std::chrono::microseconds(env->NowMicros()) +
                  std::chrono::seconds(2);
  fs->CountSstReadsIn(dbname_);
  ASSERT_NO_FATAL_FAILURE(get_all(user, &timed_out));
  EXPECT_EQ(timed_out, 0);
  if (!mmap()) {
    EXPECT_EQ(fs->sst_timed_reads(), fs->sst_reads());
    EXPECT_GT(fs->sst_reads(), 0u);
    EXPECT_LE(fs->longest_timeout(), std::chrono::seconds(2));
  }

  SCOPED_TRACE("scans and checksum checks, IO_USER");
  before = charged(Env::IO_USER);
  {
    std::unique_ptr<Iterator> it(db_->NewIterator(user));
    int seen = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next()) seen++;
    ASSERT_OK(it->status());
    EXPECT_EQ(seen, n);
  }
  if (mmap()) {
    EXPECT_EQ(charged(Env::IO_USER), before);
  } else {
    EXPECT_GT(charged(Env::IO_USER), before);
  }
  before = charged(Env::IO_USER);
  ASSERT_OK(db_->VerifyChecksum(user));
  if (!mmap()) {
    EXPECT_GT(charged(Env::IO_USER), before);
  }

  SCOPED_TRACE("a deadline that has passed");
  ReadOptions late;
  late.deadline = std::chrono::microseconds(env->NowMicros() - 1000);
  ASSERT_NO_FATAL_FAILURE(get_all(late, &timed_out));
  if (mmap()) {
    EXPECT_EQ(timed_out, 0);
  } else if (cached) {
    EXPECT_GT(timed_out, 0);
  } else {
    EXPECT_EQ(timed_out, gets);
  }
  {
    std::unique_ptr<Iterator> it(db_->NewIterator(late));
    int seen = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next()) seen++;
    if (mmap()) {
      ASSERT_OK(it->status());
      EXPECT_EQ(seen, n);
    } else {
      EXPECT_TRUE(it->status().IsTimedOut()) << it->status().ToString();
    }
  }
  Status verified = db_->VerifyChecksum(late);
  EXPECT_TRUE(mmap() ? verified.ok() : verified.IsTimedOut())
      << verified.ToString();

  SCOPED_TRACE("compaction reads, at IO_LOW; then lookups in its output");
  const int64_t low = charged(Env::IO_LOW);
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  ExpectOurTables();
  if (!mmap()) {
    EXPECT_GT(charged(Env::IO_LOW), low);
  }
  user.deadline = std::chrono::microseconds(env->NowMicros()) +
                  std::chrono::hours(1);
  before = charged(Env::IO_USER);
  ASSERT_NO_FATAL_FAILURE(get_all(user, &timed_out));
  EXPECT_EQ(timed_out, 0);
  EXPECT_EQ(charged(Env::IO_USER) > before, !mmap());
  ASSERT_NO_FATAL_FAILURE(get_all(late, &timed_out));
  if (!mmap() && !cached) {
    EXPECT_EQ(timed_out, gets);
  }
  if (mmap()) {
    EXPECT_EQ(timed_out, 0);
  }
  VERIFY("after the reads");

  fs->CountSstReadsIn("");
  ASSERT_NO_FATAL_FAILURE(StartOver(BaseOptions()));
}

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

// Every MultiGet overload answers as Get does, on a database opened read
// only with all its files in one level (RocksDB opens it as its compacted
// DB, whose MultiGet calls each reader's Prepare for the whole batch, then
// Get key by key) and on a read-write one with a level-0 file (whose
// lookups call Prepare on it first). Every layout, mmap on and off, with
// keys present, absent, deleted, and of lengths no file holds. Prepare
// only hints the cache, so what can go wrong is an answer (a hash or key
// carried from Prepare to the wrong Get) or a read out of bounds.
class MultiGetPrepareTest
    : public testing::TestWithParam<std::tuple<bool, const char*>> {
 protected:
  bool mmap() const { return std::get<0>(GetParam()); }
  const char* layout() const { return std::get<1>(GetParam()); }
  bool inline_layout() const { return strcmp(layout(), "inline") == 0; }
  bool log_layout() const { return strcmp(layout(), "log") == 0; }
  // Entries that fit a slot, in hash order past inline_hash_order_limit:
  // paged files of a few hundred short entries a page.
  bool paged_short() const { return strcmp(layout(), "paged_short") == 0; }
  bool short_entries() const { return inline_layout() || paged_short(); }
  const char* file_layout() const {
    return paged_short() ? "paged" : layout();
  }

  void SetUp() override {
    const auto* info = testing::UnitTest::GetInstance()->current_test_info();
    std::string name = info->name();
    for (char& c : name) {
      if (!isalnum(static_cast<unsigned char>(c))) c = '_';
    }
    dbname_ = test_util::TempPath("multiget_prepare", name);
    // Values past a slot keep files out of the inline layout; without
    // pages, in the log.
    rh_.inline_slot_limit = short_entries() ? 64 : 0;
    rh_.page_layout = !log_layout();
    if (paged_short()) {
      rh_.inline_key_order = false;
      rh_.inline_hash_order_limit = 1;
    }
    // These values compress: a compressing column family keeps them in the
    // log, so pages need none.
    if (!log_layout()) options_.compression = kNoCompression;
    options_.table_factory.reset(NewRobinHoodTableFactory(rh_));
    options_.create_if_missing = true;
    options_.disable_auto_compactions = true;
    options_.allow_mmap_reads = mmap();
    // What RocksDB needs to open the compacted DB (and no merge operator).
    options_.max_open_files = -1;
    ASSERT_OK(DestroyDB(dbname_, options_));
  }
  void TearDown() override {
    db_.reset();
    EXPECT_OK(DestroyDB(dbname_, options_));
  }

  Status OpenReadOnly() {
    db_.reset();
    return DB::OpenForReadOnly(options_, dbname_, DBResult(&db_));
  }

  // The read-only open took the compacted path: its writes say so (the
  // message is the only public trace of which implementation opened).
  void ExpectCompactedDB() {
    Status s = db_->Put(WriteOptions(), "x", "y");
    ASSERT_TRUE(s.IsNotSupported()) << s.ToString();
    ASSERT_NE(s.ToString().find("compacted db"), std::string::npos)
        << "opened read only, but not as a compacted DB: " << s.ToString();
  }

  void ExpectLayout(const char* want) {
    TablePropertiesCollection props;
    ASSERT_OK(db_->GetPropertiesOfAllTables(&props));
    ASSERT_FALSE(props.empty());
    for (const auto& p : props) {
      const auto& user = p.second->user_collected_properties;
      auto it = user.find(RobinHoodTablePropertyNames::kLayout);
      ASSERT_TRUE(it != user.end()) << p.first;
      EXPECT_EQ(it->second, want) << p.first;
    }
  }

  std::string ValueOf(int i, int version) const {
    // Inline slots are at most 64 bytes: 1 + 9-byte key + value.
    std::string v = "v" + std::to_string(i) + "." + std::to_string(version);
    if (!short_entries()) v.append(static_cast<size_t>(i % 97), 'x');
    return v;
  }

  std::vector<std::string> Probes() const {
    std::vector<std::string> p;
    for (int i = 0; i < 960; i++) p.push_back(Key(i));
    // Lengths no file holds (wider than any inline slot's key, shorter than
    // an internal key's trailer), and keys before and after every file.
    p.push_back("");
    p.push_back("k");
    p.push_back("key");
    p.push_back(Key(5) + std::string(1, '\0'));
    p.push_back(std::string(300, 'k'));
    p.push_back(Key(7) + std::string(200, '\xff'));
    p.push_back("a");
    p.push_back("zzz");
    p.push_back("\xff\xff\xff\xff\xff\xff\xff\xff\xff");
    return p;
  }

  // Checks Get against `model`, then every MultiGet overload against Get,
  // over the probes in batches of 50 (db_bench's), 33 (past RocksDB's
  // internal batch of 32), 1, and all at once, each with a key repeated;
  // sorted ones are passed as sorted.
  void VerifyAll(const Model& model, const std::string& label,
                 ReadOptions ro = ReadOptions()) {
    SCOPED_TRACE(label);
    ro.verify_checksums = true;
    const std::vector<std::string> probes = Probes();
    std::map<std::string, std::pair<Status, std::string>> want;
    for (const auto& k : probes) {
      std::string v;
      Status s = db_->Get(ro, k, &v);
      auto m = model.find(k);
      if (m == model.end()) {
        ASSERT_TRUE(s.IsNotFound()) << "Get " << P(k) << ": " << s.ToString();
      } else {
        ASSERT_TRUE(s.ok()) << "Get " << P(k) << ": " << s.ToString();
        ASSERT_EQ(v, m->second) << "Get " << P(k);
      }
      want[k] = {s, v};
    }
    std::vector<std::string> shuffled = probes;
    std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(11));
    for (size_t batch : {size_t{50}, size_t{33}, size_t{1}, probes.size()}) {
      for (size_t start = 0; start < probes.size(); start += batch) {
        const size_t end = std::min(probes.size(), start + batch);
        std::vector<std::string> unsorted(shuffled.begin() + start,
                                          shuffled.begin() + end);
        // The repeat in the middle: a batch that ends with its first key
        // would hide a Get that reuses the last Prepare's work.
        unsorted.insert(unsorted.begin() + unsorted.size() / 2,
                        unsorted.front());
        std::vector<std::string> sorted = unsorted;
        std::sort(sorted.begin(), sorted.end());
        ASSERT_NO_FATAL_FAILURE(VerifyBatch(ro, want, unsorted, false));
        ASSERT_NO_FATAL_FAILURE(VerifyBatch(ro, want, sorted, true));
      }
    }
  }

  using Want = std::map<std::string, std::pair<Status, std::string>>;

  static void Expect(const Want& want, const std::string& key,
                     const Status& s, const Slice& value, const char* how) {
    const auto& w = want.at(key);
    if (w.first.ok()) {
      EXPECT_TRUE(s.ok() && value == w.second)
          << how << " " << P(key) << ": Get found " << P(w.second) << ", "
          << how << " " << s.ToString() << " " << P(value);
    } else {
      EXPECT_TRUE(s.IsNotFound())
          << how << " " << P(key) << ": Get NotFound, got " << s.ToString()
          << " " << P(value);
    }
  }

  void VerifyBatch(const ReadOptions& ro, const Want& want,
                   const std::vector<std::string>& batch, bool sorted) {
    const size_t n = batch.size();
    std::vector<Slice> keys(batch.begin(), batch.end());
    ColumnFamilyHandle* cf = db_->DefaultColumnFamily();
    std::vector<ColumnFamilyHandle*> cfs(n, cf);
    // The std::vector overloads (no sorted_input).
    if (!sorted) {
      for (int how = 0; how < 4; how++) {
        std::vector<std::string> values, timestamps;
        std::vector<Status> st;
        switch (how) {
          case 0: st = db_->MultiGet(ro, keys, &values); break;
          case 1: st = db_->MultiGet(ro, cfs, keys, &values); break;
          case 2: st = db_->MultiGet(ro, keys, &values, &timestamps); break;
          default: st = db_->MultiGet(ro, cfs, keys, &values, &timestamps);
        }
        ASSERT_EQ(st.size(), n);
        ASSERT_EQ(values.size(), n);
        static const char* const kNames[] = {
            "MultiGet(vector)", "MultiGet(vector, cfs)",
            "MultiGet(vector, timestamps)", "MultiGet(vector, cfs, timestamps)"};
        for (size_t i = 0; i < n; i++) {
          Expect(want, batch[i], st[i], values[i], kNames[how]);
        }
      }
    }
    // The PinnableSlice overloads, one column family or an array of them.
    for (int how = 0; how < 4; how++) {
      std::vector<PinnableSlice> values(n);
      std::vector<std::string> timestamps(n);
      std::vector<Status> st(n);
      switch (how) {
        case 0:
          db_->MultiGet(ro, cf, n, keys.data(), values.data(), st.data(),
                        sorted);
          break;
        case 1:
          db_->MultiGet(ro, cf, n, keys.data(), values.data(),
                        timestamps.data(), st.data(), sorted);
          break;
        case 2:
          db_->MultiGet(ro, n, cfs.data(), keys.data(), values.data(),
                        st.data(), sorted);
          break;
        default:
          db_->MultiGet(ro, n, cfs.data(), keys.data(), values.data(),
                        timestamps.data(), st.data(), sorted);
      }
      static const char* const kNames[] = {
          "MultiGet(batched)", "MultiGet(batched, timestamps)",
          "MultiGet(batched, cfs)", "MultiGet(batched, cfs, timestamps)"};
      for (size_t i = 0; i < n; i++) {
        Expect(want, batch[i], st[i], values[i], kNames[how]);
      }
    }
    ASSERT_FALSE(HasFailure()) << (sorted ? "sorted" : "unsorted")
                               << " batch of " << n;
  }

  // Three files with disjoint key ranges, ingested into an empty DB: all in
  // the last level. Every third key is never written; in the log layout
  // every fifth written key is a tombstone (files of compacted puts only
  // are inline or paged).
  void IngestThree(Model* out) {
    Model& model = *out;
    std::vector<std::string> files;
    for (int f = 0; f < 3; f++) {
      const std::string file = dbname_ + "_ingest" + std::to_string(f) + ".sst";
      SstFileWriter writer(EnvOptions(), options_);
      ASSERT_OK(writer.Open(file));
      for (int i = f * 300; i < f * 300 + 300; i++) {
        if (i % 3 == 2) continue;
        if (log_layout() && i % 5 == 0) {
          ASSERT_OK(writer.Delete(Key(i)));
        } else {
          ASSERT_OK(writer.Put(Key(i), ValueOf(i, 0)));
          model[Key(i)] = ValueOf(i, 0);
        }
      }
      ASSERT_OK(writer.Finish());
      files.push_back(file);
    }
    ASSERT_OK(test_util::OpenDB(options_, dbname_, &db_));
    ASSERT_OK(db_->IngestExternalFile(files, IngestExternalFileOptions()));
    for (const auto& f : files) Env::Default()->DeleteFile(f);
    ASSERT_NO_FATAL_FAILURE(ExpectLayout(file_layout()));
  }

  RobinHoodTableOptions rh_;
  std::string dbname_;
  std::unique_ptr<Env> env_;  // a test's own, if set: outlives db_
  Options options_;
  std::unique_ptr<DB> db_;
};

// With a block cache and without mmap, reads that must not block
// (kBlockCacheTier) answer from what the cache holds, through Get, every
// MultiGet and iterators, and are Incomplete (KeyMayExist: maybe) for what
// it lacks; reads with fill_cache=false answer without filling it. Mapped
// files answer from the mapping, as without a cache.
TEST_P(MultiGetPrepareTest, ReadsThatMustNotBlockAnswerFromTheBlockCache) {
  Model model;
  ASSERT_NO_FATAL_FAILURE(IngestThree(&model));
  // Readers of a new DB, with a cache that holds nothing yet.
  std::shared_ptr<Cache> cache = NewLRUCache(8 << 20);
  rh_.block_cache = cache;
  options_.table_factory.reset(NewRobinHoodTableFactory(rh_));
  db_.reset();
  ASSERT_OK(test_util::OpenDB(options_, dbname_, &db_));
  ReadOptions cache_only;
  cache_only.read_tier = kBlockCacheTier;
  for (const auto& kv : model) {
    std::string v;
    Status s = db_->Get(cache_only, kv.first, &v);
    if (mmap()) {
      ASSERT_OK(s);
      ASSERT_EQ(v, kv.second);
      continue;
    }
    ASSERT_TRUE(s.IsIncomplete()) << P(kv.first) << ": " << s.ToString();
    bool value_found = true;
    ASSERT_TRUE(db_->KeyMayExist(cache_only, db_->DefaultColumnFamily(),
                                 kv.first, &v, &value_found));
    ASSERT_FALSE(value_found);
  }
  // (Mapped compressed blocks are memory: decompressed, they fill it.)
  const size_t usage = cache->GetUsage();
  if (!mmap()) {
    EXPECT_EQ(usage, 0u);
  }

  ReadOptions no_fill;
  no_fill.fill_cache = false;
  ASSERT_NO_FATAL_FAILURE(VerifyAll(model, "fill_cache=false", no_fill));
  EXPECT_EQ(cache->GetUsage(), usage) << "a read that may not fill filled";
  ASSERT_NO_FATAL_FAILURE(VerifyAll(model, "filling the cache"));
  // What lookups read without mmap.
  if (!mmap()) {
    EXPECT_GT(cache->GetUsage(), 0u);
  }
  ASSERT_NO_FATAL_FAILURE(VerifyAll(model, "kBlockCacheTier", cache_only));

  // Iterators: once a scan has filled the cache, one that may not read
  // sees every entry.
  for (const ReadOptions& ro : {ReadOptions(), cache_only}) {
    std::unique_ptr<Iterator> it(db_->NewIterator(ro));
    Model seen;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      seen[it->key().ToString()] = it->value().ToString();
    }
    ASSERT_OK(it->status());
    EXPECT_EQ(seen, model);
  }

  // The compacted DB's readers are new: the same again.
  ASSERT_OK(OpenReadOnly());
  ASSERT_NO_FATAL_FAILURE(ExpectCompactedDB());
  ASSERT_NO_FATAL_FAILURE(VerifyAll(model, "compacted DB, filling"));
  ASSERT_NO_FATAL_FAILURE(
      VerifyAll(model, "compacted DB, kBlockCacheTier", cache_only));
}

// What a shared block cache holds of a file stays found when the file's
// readers are opened again (a table cache that dropped them, a DB opened
// again with the same cache): the blocks and pages go under keys the file
// names (its writer's session and its number there, which ingested and
// compacted files carry), so reads that may not block answer from them,
// and nothing is cached twice.
TEST_P(MultiGetPrepareTest, ReopenedReadersFindTheirBlocksInTheCache) {
  if (mmap()) GTEST_SKIP() << "mapped files are read in place";
  Model model;
  ASSERT_NO_FATAL_FAILURE(IngestThree(&model));
  std::shared_ptr<Cache> cache = NewLRUCache(8 << 20);
  rh_.block_cache = cache;
  options_.table_factory.reset(NewRobinHoodTableFactory(rh_));
  ReadOptions cache_only;
  cache_only.read_tier = kBlockCacheTier;
  for (bool compacted : {false, true}) {
    SCOPED_TRACE(compacted ? "compacted" : "ingested");
    db_.reset();
    ASSERT_OK(test_util::OpenDB(options_, dbname_, &db_));
    if (compacted) {
      CompactRangeOptions cro;
      cro.bottommost_level_compaction = BottommostLevelCompaction::kForce;
      ASSERT_OK(db_->CompactRange(cro, nullptr, nullptr));
      ASSERT_NO_FATAL_FAILURE(ExpectLayout(file_layout()));
    }
    ASSERT_NO_FATAL_FAILURE(VerifyAll(model, "filling the cache"));
    const size_t held = test_util::HeldBytes(*cache);
    EXPECT_GT(held, 0u);
    db_.reset();
    ASSERT_OK(test_util::OpenDB(options_, dbname_, &db_));
    ASSERT_NO_FATAL_FAILURE(
        VerifyAll(model, "reopened, kBlockCacheTier", cache_only));
    ASSERT_NO_FATAL_FAILURE(VerifyAll(model, "reopened"));
    EXPECT_EQ(test_util::HeldBytes(*cache), held)
        << "a reopened reader cached its blocks again";
  }
}

// Files that hold the same keys in the same bytes but other values never
// answer from each other's cached blocks: two files of one SstFileWriter
// (one session, numbers 1 and 2), ingested into two DBs that share a
// block cache, each read through it turn about.
TEST_P(MultiGetPrepareTest, OtherFilesNeverShareCachedBlocks) {
  if (mmap()) GTEST_SKIP() << "mapped files are read in place";
  rh_.block_cache = NewLRUCache(8 << 20);
  options_.table_factory.reset(NewRobinHoodTableFactory(rh_));
  const std::string other = dbname_ + "_other";
  ASSERT_OK(DestroyDB(other, options_));
  SstFileWriter writer(EnvOptions(), options_);
  std::vector<std::unique_ptr<DB>> dbs(2);
  for (int d = 0; d < 2; ++d) {
    const std::string file = dbname_ + "_file" + std::to_string(d) + ".sst";
    ASSERT_OK(writer.Open(file));
    // Values of one length in both files: only their bytes differ.
    for (int i = 0; i < 600; i++) ASSERT_OK(writer.Put(Key(i), ValueOf(i, d)));
    ASSERT_OK(writer.Finish());
    ASSERT_OK(test_util::OpenDB(options_, d == 0 ? dbname_ : other, &dbs[d]));
    ASSERT_OK(dbs[d]->IngestExternalFile({file}, IngestExternalFileOptions()));
    Env::Default()->DeleteFile(file);
  }
  ASSERT_NE(test_util::LiveSstPaths(dbs[0].get()).size(), 0u);
  for (int pass = 0; pass < 2; ++pass) {
    for (int i = 0; i < 600; i++) {
      for (int d = 0; d < 2; ++d) {
        std::string v;
        ASSERT_OK(dbs[d]->Get(ReadOptions(), Key(i), &v));
        ASSERT_EQ(v, ValueOf(i, d)) << "pass " << pass << ", DB " << d;
      }
    }
  }
  dbs.clear();
  EXPECT_OK(DestroyDB(other, options_));
}

// Mapped files in memory answer misses from their homes, so lookups that
// mostly hit skip the filter: Get, the batched MultiGet of a read-write DB
// and the compacted DB's prepared Gets ask it for none of their keys,
// until misses pass a quarter of a file's lookups and it answers them
// again, and then, once hits are back, none again. Files read without
// mmap ask it for every key.
TEST_P(MultiGetPrepareTest, MappedLookupsSkipTheFilterWhileTheyMostlyHit) {
  options_.statistics = CreateDBStatistics();
  // In memory by the readers' clock, however the machine is loaded.
  env_.reset(new CompositeEnvWrapper(
      Env::Default(), FileSystem::Default(), std::make_shared<StepClock>()));
  options_.env = env_.get();
  Statistics* stats = options_.statistics.get();
  Model model;
  ASSERT_NO_FATAL_FAILURE(IngestThree(&model));
  const bool skips = mmap();
  std::vector<std::string> hits, misses;
  for (int i = 0; i < 900; i++) {
    // Not a file's last absent key, past its range: RocksDB asks no table.
    if (i % 300 == 299) continue;
    (model.count(Key(i)) != 0 ? hits : misses).push_back(Key(i));
  }
  enum Path { kGet, kBatched, kCompacted };
  // Every key of `keys`, by Get or in batches of 30, checked against the
  // model; how many the filter was asked for.
  auto asked = [&](const std::vector<std::string>& keys, Path path) {
    stats->getAndResetTickerCount(BLOOM_FILTER_USEFUL);
    stats->getAndResetTickerCount(BLOOM_FILTER_FULL_POSITIVE);
    for (size_t b = 0; b < keys.size(); b += 30) {
      const size_t n = std::min<size_t>(30, keys.size() - b);
      std::vector<Slice> batch(keys.begin() + b, keys.begin() + b + n);
      std::vector<Status> st(n);
      std::vector<std::string> got(n);
      if (path == kCompacted) {
        st = db_->MultiGet(ReadOptions(), batch, &got);
      } else if (path == kBatched) {
        std::vector<PinnableSlice> values(n);
        db_->MultiGet(ReadOptions(), db_->DefaultColumnFamily(), n,
                      batch.data(), values.data(), st.data());
        for (size_t i = 0; i < n; i++) got[i] = values[i].ToString();
      } else {
        for (size_t i = 0; i < n; i++) {
          st[i] = db_->Get(ReadOptions(), batch[i], &got[i]);
        }
      }
      for (size_t i = 0; i < n; i++) {
        const auto m = model.find(batch[i].ToString());
        if (m == model.end()) {
          EXPECT_TRUE(st[i].IsNotFound()) << P(batch[i]) << st[i].ToString();
        } else {
          EXPECT_OK(st[i]);
          EXPECT_EQ(got[i], m->second) << P(batch[i]);
        }
      }
    }
    return stats->getAndResetTickerCount(BLOOM_FILTER_USEFUL) +
           stats->getAndResetTickerCount(BLOOM_FILTER_FULL_POSITIVE);
  };
  for (Path path : {kGet, kBatched, kCompacted}) {
    SCOPED_TRACE(path == kGet       ? "Get"
                 : path == kBatched ? "batched MultiGet"
                                    : "compacted DB, prepared Gets");
    if (path == kCompacted) {
      ASSERT_OK(OpenReadOnly());
      ASSERT_NO_FATAL_FAILURE(ExpectCompactedDB());
    }
    EXPECT_EQ(asked(hits, path), skips ? 0u : hits.size());
    // Misses: the first keys skip the filter, until the share passes a
    // quarter; a second pass asks it for (nearly) every key.
    asked(misses, path);
    const uint64_t missed = asked(misses, path);
    if (skips) {
      EXPECT_GT(missed, misses.size() * 9 / 10);
    } else {
      EXPECT_EQ(missed, misses.size());
    }
    asked(hits, path);
    EXPECT_EQ(asked(hits, path), skips ? 0u : hits.size());
  }
}

TEST_P(MultiGetPrepareTest, EveryMultiGetAnswersAsGet) {
  Model model;
  ASSERT_NO_FATAL_FAILURE(IngestThree(&model));
  ASSERT_NO_FATAL_FAILURE(VerifyAll(model, "read-write, ingested"));

  ASSERT_OK(OpenReadOnly());
  ASSERT_NO_FATAL_FAILURE(ExpectCompactedDB());
  ASSERT_NO_FATAL_FAILURE(VerifyAll(model, "compacted DB, ingested"));

  // A level-0 file over them: new versions and deletes of present keys.
  db_.reset();
  ASSERT_OK(test_util::OpenDB(options_, dbname_, &db_));
  for (int i = 0; i < 900; i += 7) {
    ASSERT_OK(db_->Put(WriteOptions(), Key(i), ValueOf(i, 1)));
    model[Key(i)] = ValueOf(i, 1);
  }
  for (int i = 1; i < 900; i += 11) {
    ASSERT_OK(db_->Delete(WriteOptions(), Key(i)));
    model.erase(Key(i));
  }
  ASSERT_OK(db_->Flush(FlushOptions()));
  int level0 = 0;
  std::vector<LiveFileMetaData> meta;
  db_->GetLiveFilesMetaData(&meta);
  for (const auto& m : meta) level0 += m.level == 0;
  ASSERT_EQ(level0, 1);
  ASSERT_NO_FATAL_FAILURE(VerifyAll(model, "read-write, level 0 over ingested"));

  // Compacted into one level again: the deletes are gone from the files.
  CompactRangeOptions cro;
  cro.bottommost_level_compaction = BottommostLevelCompaction::kForce;
  ASSERT_OK(db_->CompactRange(cro, nullptr, nullptr));
  ASSERT_NO_FATAL_FAILURE(ExpectLayout(file_layout()));
  ASSERT_NO_FATAL_FAILURE(VerifyAll(model, "read-write, compacted"));
  ASSERT_OK(OpenReadOnly());
  ASSERT_NO_FATAL_FAILURE(ExpectCompactedDB());
  ASSERT_NO_FATAL_FAILURE(VerifyAll(model, "compacted DB, compacted"));
}

INSTANTIATE_TEST_SUITE_P(
    MmapAndLayouts, MultiGetPrepareTest,
    testing::Combine(testing::Bool(),
                     testing::Values("log", "inline", "paged", "paged_short")),
    [](const testing::TestParamInfo<std::tuple<bool, const char*>>& info) {
      return std::string(std::get<0>(info.param) ? "mmap" : "pread") + "_" +
             std::get<1>(info.param);
    });

INSTANTIATE_DB_TESTS();

}  // namespace
}  // namespace dbtest
}  // namespace ROCKSDB_NAMESPACE
