// DB-level tests of ordered reads and unusual keys: iterators across files
// and compactions, bounds, prefix seeks, empty, binary and large keys and
// values, many versions of one key; through the public API, against a
// std::map model (tests/db_harness.h), over mmap on/off and three table
// configurations.
#include <gtest/gtest.h>

#include "rocksdb/slice_transform.h"
#include "tests/db_harness.h"
#include "tests/fault_fs.h"

namespace ROCKSDB_NAMESPACE {
namespace dbtest {
namespace {

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

// A column family with a prefix extractor (RocksDB's prefix seeks): our
// files take no prefix filter and answer a seek in total order, so a
// prefix seek sees its prefix's keys, whatever mode asks
// (prefix_same_as_start, auto_prefix_mode with an upper bound), in files
// and after compaction, and Get and MultiGet answer as without one.
// Without mmap a scan of a log or paged file, or of an inline file in key
// order, reads ahead once it turns out sequential, in runs that start at
// 8 KiB and double up to 256 KiB: a short scan reads little more than the
// blocks or pages it steps over (from disk, or charged to a rate limiter),
// a long one few times. A scan of an inline file in hash order reads a
// page of slots an entry, until it has read so many that it reads the
// file's slots whole, as a compaction does.
TEST_P(RobinHoodDBTest, ShortScansReadLittleLongScansReadAhead) {
  if (mmap() || std::get<1>(GetParam()) != 0) {
    GTEST_SKIP() << "positioned reads, one configuration";
  }
  auto fs = std::make_shared<FaultFS>(FileSystem::Default());
  std::unique_ptr<Env> env = NewFaultEnv(fs);
  for (const std::string name : {"log", "paged", "key", "hash"}) {
    SCOPED_TRACE(name);
    const bool inline_slots = name == "key" || name == "hash";
    RobinHoodTableOptions rh;  // 4 KiB log blocks or pages
    if (!inline_slots) rh.inline_slot_limit = 0;
    rh.page_layout = name == "paged";
    rh.inline_key_order = name == "key";
    Options o = BaseOptions();
    o.env = env.get();
    o.table_factory.reset(NewRobinHoodTableFactory(rh));
    o.compression = kNoCompression;
    ASSERT_NO_FATAL_FAILURE(StartOver(o));
    // Inline entries: 8-byte counters, spread evenly enough for key order.
    auto key = [&](int i) {
      if (!inline_slots) return Key(i);
      const uint64_t v = uint64_t(i) * 1000003;
      std::string k(8, '\0');
      for (int b = 0; b < 8; b++) k[b] = static_cast<char>(v >> (56 - 8 * b));
      return k;
    };
    // Slots of these keys take some 10 bytes: twice the entries, for pages
    // enough that the reads ahead, which start at a page, count little.
    const int n = inline_slots ? 40000 : 20000;
    for (int i = 0; i < n; i++) {
      ASSERT_OK(db_->Put(WriteOptions(), key(i),
                         inline_slots ? std::to_string(i)
                                      : Value(i, 0) + std::string(100, 'v')));
    }
    Flush();
    Compact();  // compacted puts: the paged or inline layout where it is on
    ExpectOurTables();
    ASSERT_EQ(NumFiles(), 1);
    TablePropertiesCollection props;
    ASSERT_OK(db_->GetPropertiesOfAllTables(&props));
    for (const auto& p : props) {
      const auto& user = p.second->user_collected_properties;
      auto layout = user.find(RobinHoodTablePropertyNames::kLayout);
      ASSERT_TRUE(layout != user.end());
      EXPECT_EQ(layout->second, inline_slots ? "inline" : name);
      if (inline_slots) {
        auto order = user.find(RobinHoodTablePropertyNames::kSlotOrder);
        ASSERT_TRUE(order != user.end());
        EXPECT_EQ(order->second, name);
      }
    }
    const uint64_t file_bytes = Files()[0].size;
    // A log file's first Seek reads its sparse index, a hash-ordered inline
    // file's its samples and order array: not measured.
    {
      std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions()));
      it->Seek(key(1));
      ASSERT_TRUE(it->Valid());
    }
    auto scan = [&](int from, int steps) {
      std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions()));
      int i = from;
      for (it->Seek(key(from)); it->Valid() && i < from + steps; it->Next()) {
        ASSERT_EQ(it->key().ToString(), key(i));
        ++i;
      }
      ASSERT_OK(it->status());
      ASSERT_EQ(i, std::min(from + steps, n));
    };
    // About 50 entries: a page of slots or two, four or five blocks or
    // pages of longer entries; in hash order, a page an entry and a few
    // for the Seek's search.
    fs->CountSstReadsIn(dbname_);
    ASSERT_NO_FATAL_FAILURE(scan(n / 2, 50));
    EXPECT_LT(fs->sst_bytes_read(),
              name == "hash" ? uint64_t{60} << 12 : uint64_t{48} << 10);
    // Everything: fewer reads than a tenth of the blocks or pages, at most
    // twice the file's bytes in hash order (where a read is a page or the
    // slots whole).
    fs->CountSstReadsIn(dbname_);
    ASSERT_NO_FATAL_FAILURE(scan(0, n));
    EXPECT_GE(fs->sst_bytes_read(), file_bytes / 2);
    if (name == "hash") {
      EXPECT_LT(fs->sst_bytes_read(), file_bytes * 2);
    } else {
      EXPECT_LT(fs->sst_reads(), file_bytes / 4096 / 10)
          << fs->sst_bytes_read() << " bytes of " << file_bytes;
    }
    // Up to an iterate_upper_bound: a run reads no block or page past the
    // bound's (but in hash order), so a bounded scan reads
    // about the bytes of the entries below it, whatever its length. The
    // spans end a page past 8 KiB, 16, ... 256 KiB of the entries (of the
    // bytes a full scan reads), where runs that double from a page would
    // read about twice what they need.
    const uint64_t data_bytes = fs->sst_bytes_read();
    if (name != "hash") {
      for (int k = 1; k <= 6; k++) {
        const int span = static_cast<int>(
            std::min<uint64_t>(n - 1, (uint64_t{4096} << k) * n / data_bytes +
                                          4096 * n / data_bytes));
        SCOPED_TRACE(span);
        const std::string bound = key(span);
        const Slice upper(bound);
        ReadOptions ro;
        ro.iterate_upper_bound = &upper;
        fs->CountSstReadsIn(dbname_);
        std::unique_ptr<Iterator> it(db_->NewIterator(ro));
        int i = 0;
        for (it->SeekToFirst(); it->Valid(); it->Next()) ++i;
        ASSERT_OK(it->status());
        ASSERT_EQ(i, span);
        EXPECT_LE(fs->sst_bytes_read(),
                  data_bytes * span / n * 11 / 10 + (12 << 10));
      }
    }
    fs->CountSstReadsIn("");
  }
  ASSERT_NO_FATAL_FAILURE(StartOver(BaseOptions()));
}

// Compound keys (a tenant digit, a fixed word, an 8-digit id) vary little
// in their first 8 bytes past the shared prefix: the bottom file keeps its
// slots in key order through a long digit map (format version 10), and
// reads, seeks and walks answer as the model does, for keys of the file
// and for keys that leave its fixed bytes either way.
TEST_P(RobinHoodDBTest, CompoundKeysKeepKeyOrderThroughALongDigitMap) {
  if (std::get<1>(GetParam()) != 0) {
    GTEST_SKIP() << "the default table options, one configuration";
  }
  Options o = BaseOptions();
  o.table_factory.reset(NewRobinHoodTableFactory(RobinHoodTableOptions()));
  o.compression = kNoCompression;
  ASSERT_NO_FATAL_FAILURE(StartOver(o));
  auto key = [](int tenant, uint64_t id) {
    char k[40];
    snprintf(k, sizeof(k), "tenant%d/user%08llu", tenant,
             static_cast<unsigned long long>(id));
    return std::string(k);
  };
  for (int t = 1; t <= 8; t += 1 + t % 2) {
    for (uint64_t i = 0; i < 1500; i++) {
      Put(key(t, (i * 7919 + t) % 100000000), "v" + std::to_string(i));
    }
  }
  Flush();
  Compact();
  ExpectOurTables();
  ASSERT_EQ(NumFiles(), 1);
  TablePropertiesCollection props;
  ASSERT_OK(db_->GetPropertiesOfAllTables(&props));
  for (const auto& p : props) {
    const auto& user = p.second->user_collected_properties;
    EXPECT_EQ(user.at(RobinHoodTablePropertyNames::kLayout), "inline");
    EXPECT_EQ(user.at(RobinHoodTablePropertyNames::kSlotOrder), "key");
    // Version 10's long map, in slots that leave out "tenant" (11).
    EXPECT_EQ(user.at(kOurProperty), "11");
  }
  // Absent keys through every byte the map reads: tenants between and
  // past the file's, the fixed word changed either way, ids cut short.
  for (const char* k : {"tenant0/user00000000", "tenant3/user00000000",
                        "tenant9/user", "tenant1/usea", "tenant1/usez",
                        "tenant1.user", "tenant1/user0", "tenant1/user5x",
                        "tenant2/user99999999", "tenant", "tenant:", "u"}) {
    keys_.insert(k);
  }
  VERIFY("a long digit map");
  KVs all(model_.begin(), model_.end());
  RANDOM_WALK(ReadOptions(), all, Probes(), 7, 2000);
  Reopen();
  VERIFY("after reopen");
  ASSERT_NO_FATAL_FAILURE(StartOver(BaseOptions()));
}

TEST_P(RobinHoodDBTest, PrefixSeeksWithAPrefixExtractor) {
  Close();
  options_.prefix_extractor.reset(NewFixedPrefixTransform(7));  // "key0012"
  ASSERT_OK(Open());
  for (int f = 0; f < 3; f++) {
    for (int i = f; i < 3000; i += 3 + f) Put(Key(i), Value(i, f));
    Flush();
  }
  for (int i = 0; i < 3000; i += 11) Delete(Key(i));
  ExpectOurTables();
  auto expect_prefix = [&](const std::string& target, int mode) {
    const std::string prefix = target.substr(0, 7);
    std::string next = prefix;
    next.back()++;
    ReadOptions ro;
    Slice upper(next);
    if (mode == 0) ro.prefix_same_as_start = true;
    if (mode == 1) {
      ro.auto_prefix_mode = true;
      ro.iterate_upper_bound = &upper;
    }
    std::unique_ptr<Iterator> it(db_->NewIterator(ro));
    std::vector<std::string> got, want;
    for (it->Seek(target); it->Valid(); it->Next()) {
      got.push_back(it->key().ToString() + "=" + it->value().ToString());
    }
    ASSERT_OK(it->status());
    for (auto m = model_.lower_bound(target);
         m != model_.end() && m->first.compare(0, 7, prefix) == 0; ++m) {
      want.push_back(m->first + "=" + m->second);
    }
    EXPECT_EQ(got, want) << "mode " << mode << ", seek " << target;
    if (mode == 0) {
      // Backwards within the prefix, from its last key.
      std::vector<std::string> back;
      for (it->SeekForPrev(prefix + "\xff"); it->Valid(); it->Prev()) {
        back.push_back(it->key().ToString());
      }
      ASSERT_OK(it->status());
      std::vector<std::string> want_back;
      for (auto m = model_.lower_bound(prefix);
           m != model_.end() && m->first.compare(0, 7, prefix) == 0; ++m) {
        want_back.insert(want_back.begin(), m->first);
      }
      EXPECT_EQ(back, want_back) << "prefix " << prefix;
    }
  };
  for (int phase = 0; phase < 2; phase++) {
    SCOPED_TRACE(phase == 0 ? "three files" : "compacted");
    for (int g : {0, 1, 7, 12, 29, 30}) {
      const std::string prefix = Key(g * 100).substr(0, 7);
      for (int mode = 0; mode < 2; mode++) {
        ASSERT_NO_FATAL_FAILURE(expect_prefix(prefix, mode));
        ASSERT_NO_FATAL_FAILURE(expect_prefix(Key(g * 100 + 57), mode));
      }
    }
    VERIFY("with a prefix extractor");
    Compact();
    ExpectOurTables();
  }
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

INSTANTIATE_DB_TESTS();

}  // namespace
}  // namespace dbtest
}  // namespace ROCKSDB_NAMESPACE
