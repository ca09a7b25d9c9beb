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
//               [--bound]
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
//
// --bound measures what a hit cannot go below on this machine, in blocks
// alternating with the hits: the Get of one of 16 keys (every byte it
// touches in cache: RocksDB's path and the table's CPU), and the same Get
// after one read of a random line of the DB's files, mapped, on which the
// key's choice depends (so the Get waits for the line, as a lookup waits
// for its entry). A format that reads its entry in one access, wherever it
// lies, spends the second; the hits' excess over it is what the table's
// own reads add.
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

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

// The DB's live files, mapped read-only as RocksDB maps them for reads.
class MappedFiles {
 public:
  ~MappedFiles() {
    for (const auto& m : maps_) munmap(const_cast<char*>(m.first), m.second);
  }
  bool Map(DB* db) {
    std::vector<LiveFileMetaData> files;
    db->GetLiveFilesMetaData(&files);
    for (const LiveFileMetaData& f : files) {
      const std::string path = f.db_path + "/" + f.name;
      const int fd = open(path.c_str(), O_RDONLY);
      if (fd < 0 || f.size < 64) {
        if (fd >= 0) close(fd);
        continue;
      }
      void* at = mmap(nullptr, f.size, PROT_READ, MAP_SHARED, fd, 0);
      close(fd);
      if (at == MAP_FAILED) return false;
      madvise(at, f.size, MADV_RANDOM);
      maps_.emplace_back(static_cast<const char*>(at), f.size);
      lines_ += f.size / 64;
    }
    return lines_ > 0;
  }
  // The first byte of line i of all the files' lines, counted in order.
  char Line(uint64_t i) const {
    for (const auto& m : maps_) {
      const uint64_t n = m.second / 64;
      if (i < n) return m.first[i * 64];
      i -= n;
    }
    return 0;
  }
  uint64_t lines() const { return lines_; }

 private:
  std::vector<std::pair<const char*, uint64_t>> maps_;
  uint64_t lines_ = 0;
};

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
  bool read_only = false, scan = true, mmap = true, bound = false;
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
    } else if (strcmp(argv[i], "--bound") == 0) {
      bound = true;
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
            "[--read_only] [--no_scan] [--no_mmap] [--bound]\n");
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
  // The bound's Gets: 16 present keys, the one taken named by the line
  // read before it (after none: by the lookup's number).
  MappedFiles files;
  if (bound && !files.Map(db.get())) {
    fprintf(stderr, "rh_hit_miss: cannot map the DB's files\n");
    return 1;
  }
  uint64_t hot[16];
  db_bench_ext::KeyChooser hot_chooser(num, seed, 16);
  for (uint64_t& h : hot) h = hot_chooser.PresentHash();
  uint64_t op = 0;
  auto hot_gets = [&](bool after_line) {
    const double t0 = Now();
    for (int i = 0; i < block; ++i, ++op) {
      // The line's byte picks the key, so the Get waits on the line.
      const unsigned pick =
          after_line
              ? static_cast<unsigned char>(
                    files.Line(db_bench_ext::Mix(op) % files.lines())) +
                    op
              : op;
      value.Reset();
      Status r = db->Get(ReadOptions(), db->DefaultColumnFamily(),
                         keys.Key(hot[pick % 16], kbuf), &value);
      if (!r.ok()) wrong++;
    }
    return (Now() - t0) * 1e6 / block;
  };
  // The lines alone, each chosen by the one before.
  auto lines_alone = [&]() {
    const double t0 = Now();
    unsigned char last = 0;
    for (int i = 0; i < block; ++i, ++op) {
      last = static_cast<unsigned char>(
          files.Line(db_bench_ext::Mix(op + last) % files.lines()));
    }
    const double us = (Now() - t0) * 1e6 / block;
    static volatile unsigned char keep;  // the reads' result, kept
    keep = last;
    return us;
  };
  lookups(true);  // warm-up
  std::vector<double> hits, misses, hot_alone, hot_after_line, line_alone;
  for (int r = 0; r < rounds; ++r) {
    hits.push_back(lookups(true));
    misses.push_back(lookups(false));
    if (bound) {
      hot_alone.push_back(hot_gets(false));
      hot_after_line.push_back(hot_gets(true));
      line_alone.push_back(lines_alone());
    }
  }
  printf("hits %.3f us, misses %.3f us (medians of %d blocks of %d)\n",
         Median(hits), Median(misses), rounds, block);
  if (bound) {
    printf("bound: a Get of 16 keys %.3f us, after a random line of the "
           "files %.3f us; the line alone %.3f us (%.1f MB mapped)\n",
           Median(hot_alone), Median(hot_after_line), Median(line_alone),
           static_cast<double>(files.lines()) * 64 / 1e6);
  }
  if (wrong > 0) {
    fprintf(stderr, "rh_hit_miss: %llu lookups answered wrong\n",
            static_cast<unsigned long long>(wrong));
    return 1;
  }
  return 0;
}
