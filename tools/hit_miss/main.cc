// rh_hit_miss: point lookups of present and absent keys in alternating
// blocks, on a RobinHoodTable DB that db_bench_ext left (--keep_db), in one
// process: each kind's median microseconds a lookup over the blocks. The
// blocks alternate so that two builds run one after the other on the same
// DB see the machine alike, and a reader that adapts to what its lookups
// find is measured after each change of kind, not only in its steady state.
//
//   rh_hit_miss --db=/tmp/db_bench_ext/sparkey-robinhood --workload=sparkey
//               --num=10000000 [--rounds=40] [--block=20000] [--seed=7]
//               [--multiget=B] [--read_only] [--no_scan] [--no_mmap]
//
// --multiget=B looks the keys up B at a time with the std::vector
// DB::MultiGet most applications call; --read_only opens the DB read-only,
// which for a DB whose files all sit in one level (db_bench_ext's, after
// its full compaction) is RocksDB's compacted DB, whose MultiGet calls
// TableReader::Prepare for each key of a batch before the Gets.
//
// Keys are db_bench_ext's (db_bench_ext/workload.h); reads are mapped, as
// db_bench_ext's are, or with --no_mmap positioned reads (RocksDB's
// default). The DB is scanned once first, so every page of its
// files is mapped before the first timed lookup; --no_scan leaves that
// out, for a DB larger than the memory it is read in (run in a memory
// cgroup after dropping the page cache), where lookups read from disk.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "db_bench_ext/workload.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/table.h"
#include "rocksdb_robinhood/robinhood_table.h"
#include "tools/common/db_open.h"

using namespace ROCKSDB_NAMESPACE;
using ROCKSDB_NAMESPACE::robinhood::DBResult;

namespace {

double Now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

bool Flag(const char* arg, const char* name, std::string* value) {
  const size_t n = strlen(name);
  if (strncmp(arg, name, n) != 0 || arg[n] != '=') return false;
  *value = arg + n + 1;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::string db_dir, workload = "sparkey", v;
  uint64_t num = 0, seed = 7;
  int rounds = 40, block = 20000, multiget = 0;
  bool read_only = false, scan = true, mmap = true;
  for (int i = 1; i < argc; ++i) {
    if (Flag(argv[i], "--db", &v)) {
      db_dir = v;
    } else if (Flag(argv[i], "--workload", &v)) {
      workload = v;
    } else if (Flag(argv[i], "--num", &v)) {
      num = strtoull(v.c_str(), nullptr, 10);
    } else if (Flag(argv[i], "--rounds", &v)) {
      rounds = atoi(v.c_str());
    } else if (Flag(argv[i], "--block", &v)) {
      block = atoi(v.c_str());
    } else if (Flag(argv[i], "--seed", &v)) {
      seed = strtoull(v.c_str(), nullptr, 10);
    } else if (Flag(argv[i], "--multiget", &v)) {
      multiget = atoi(v.c_str());
    } else if (strcmp(argv[i], "--read_only") == 0) {
      read_only = true;
    } else if (strcmp(argv[i], "--no_scan") == 0) {
      scan = false;
    } else if (strcmp(argv[i], "--no_mmap") == 0) {
      mmap = false;
    } else {
      fprintf(stderr, "rh_hit_miss: unknown argument %s\n", argv[i]);
      return 2;
    }
  }
  db_bench_ext::Workload w;
  if (db_dir.empty() || num == 0 || rounds < 1 || block < 1 ||
      multiget < 0 || (multiget > 0 && block % multiget != 0) ||
      !db_bench_ext::MakeWorkload(workload, 0, -1, &w)) {
    fprintf(stderr,
            "usage: rh_hit_miss --db=DIR --workload=sparkey|cuckoo --num=N "
            "[--rounds=R] [--block=B] [--seed=S] [--multiget=M, M divides B] "
            "[--read_only] [--no_scan] [--no_mmap]\n");
    return 2;
  }
  Options options;
  options.table_factory.reset(NewRobinHoodTableFactory());
  options.allow_mmap_reads = mmap;
  options.max_open_files = -1;
  std::unique_ptr<DB> db;
  Status s = read_only ? DB::OpenForReadOnly(options, db_dir, DBResult(&db))
                       : DB::Open(options, db_dir, DBResult(&db));
  if (!s.ok()) {
    fprintf(stderr, "rh_hit_miss: %s\n", s.ToString().c_str());
    return 1;
  }
  if (scan) {
    std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions()));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
    }
    if (!it->status().ok()) {
      fprintf(stderr, "rh_hit_miss: %s\n", it->status().ToString().c_str());
      return 1;
    }
  }
  db_bench_ext::KeySpace keys(w, num);
  db_bench_ext::KeyChooser chooser(num, seed);
  char kbuf[db_bench_ext::Workload::kMaxKeySize];
  PinnableSlice value;
  uint64_t wrong = 0;
  // A batch's keys live in one buffer so that their slices stay valid.
  std::vector<char> batch_keys(
      static_cast<size_t>(multiget) * db_bench_ext::Workload::kMaxKeySize);
  std::vector<Slice> batch(multiget);
  std::vector<std::string> values;
  auto multi_lookups = [&](bool present) {
    const double t0 = Now();
    for (int i = 0; i < block; i += multiget) {
      for (int j = 0; j < multiget; ++j) {
        const uint64_t h =
            present ? chooser.PresentHash() : chooser.AbsentHash();
        batch[j] = keys.Key(
            h, &batch_keys[static_cast<size_t>(j) *
                           db_bench_ext::Workload::kMaxKeySize]);
      }
      std::vector<Status> r = db->MultiGet(ReadOptions(), batch, &values);
      for (const Status& one : r) {
        if (present ? !one.ok() : !one.IsNotFound()) wrong++;
      }
    }
    return (Now() - t0) * 1e6 / block;
  };
  auto lookups = [&](bool present) {
    if (multiget > 0) return multi_lookups(present);
    const double t0 = Now();
    for (int i = 0; i < block; ++i) {
      const uint64_t h = present ? chooser.PresentHash() : chooser.AbsentHash();
      value.Reset();
      Status r = db->Get(ReadOptions(), db->DefaultColumnFamily(),
                         keys.Key(h, kbuf), &value);
      if (present ? !r.ok() : !r.IsNotFound()) wrong++;
    }
    return (Now() - t0) * 1e6 / block;
  };
  lookups(true);  // warm-up
  std::vector<double> hits, misses;
  for (int r = 0; r < rounds; ++r) {
    hits.push_back(lookups(true));
    misses.push_back(lookups(false));
  }
  printf("hits %.3f us, misses %.3f us (medians of %d blocks of %d)\n",
         Median(hits), Median(misses), rounds, block);
  if (wrong > 0) {
    fprintf(stderr, "rh_hit_miss: %llu lookups answered wrong\n",
            static_cast<unsigned long long>(wrong));
    return 1;
  }
  return 0;
}
