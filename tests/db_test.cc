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

#include "rocksdb/statistics.h"
#include "tests/db_harness.h"

namespace ROCKSDB_NAMESPACE {
namespace dbtest {
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

INSTANTIATE_DB_TESTS();

}  // namespace
}  // namespace dbtest
}  // namespace ROCKSDB_NAMESPACE
