// rh_lookup_bench: point lookups of present keys, in random order, on a DB
// loaded from rh_load_gen's data set (tools/load_gen/keys.h), with what
// each lookup cost the process: microseconds, bytes and read calls from
// /proc/self/io (read_bytes counts only what came from the device, so
// read_bytes / 4096 is device pages a lookup once the cache is cold), and
// resident memory. Also the open's time and the first lookup's, which is
// where a table reader's open-time work shows.
//
//   rh_lookup_bench --db=DIR --shape=cuckoo --num=N [--lookups=M] [--mmap]
//                   [--table=robinhood|block] [--bloom_bits=B] [--seed=S]
//                   [--sorted]
//
// --bloom_bits: BlockBasedTable's reader given a Bloom filter policy of B
// bits a key, so that it reads the filters its files were built with
// (RobinHoodTable's reader reads any file's filter unasked).
//
// Instead of the lookups, the two whole-DB reads a file's layout decides
// the cost of: --scan (an iterator over every entry, checked in order and
// counted) and --compact (a full compaction of the DB, opened for writing,
// into files of RobinHoodTable's default options), each with its seconds,
// the process's peak resident memory and the bytes read from the device.
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <random>
#include <string>

#include "rocksdb/db.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/options.h"
#include "rocksdb/table.h"
#include "rocksdb_robinhood/robinhood_table.h"
#include "tools/common/proc_status.h"
#include "tools/load_gen/keys.h"
#include "tools/common/db_open.h"

using namespace ROCKSDB_NAMESPACE;
using ROCKSDB_NAMESPACE::robinhood::DBResult;

namespace {

struct Io {
  uint64_t read_bytes = 0, syscr = 0, rss = 0;
};

Io ReadIo() {
  Io io;
  std::ifstream f("/proc/self/io");
  std::string name;
  uint64_t v;
  while (f >> name >> v) {
    if (name == "read_bytes:") io.read_bytes = v;
    if (name == "syscr:") io.syscr = v;
  }
  io.rss = rh_tools::ProcStatusBytes("VmRSS:");
  return io;
}

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

int Usage() {
  fprintf(stderr,
          "usage: rh_lookup_bench --db=DIR --shape=cuckoo|sparkey|compound --num=N [--lookups=M] "
          "[--mmap] [--table=robinhood|block] [--bloom_bits=B] [--seed=S] [--sorted] "
          "[--scan|--compact]\n");
  return 64;
}

// A full scan or compaction of the DB at `db`, which holds `num` entries.
int WholeRead(DB* db, bool compact, uint64_t num, bool mmap) {
  const Io before = ReadIo();
  const double t = Now();
  uint64_t entries = 0;
  Status s;
  if (compact) {
    CompactRangeOptions cro;
    cro.bottommost_level_compaction = BottommostLevelCompaction::kForce;
    s = db->CompactRange(cro, nullptr, nullptr);
    // RocksDB's estimate: a compaction counts no entries for us.
    if (s.ok()) db->GetIntProperty("rocksdb.estimate-num-keys", &entries);
  } else {
    std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions()));
    std::string last;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      if (entries > 0 && it->key().compare(last) <= 0) {
        fprintf(stderr, "rh_lookup_bench: scan out of order at entry %" PRIu64 "\n", entries);
        return 2;
      }
      last.assign(it->key().data(), it->key().size());
      entries++;
    }
    s = it->status();
  }
  const double secs = Now() - t;
  const Io after = ReadIo();
  if (!s.ok()) {
    fprintf(stderr, "rh_lookup_bench: %s: %s\n", compact ? "compact" : "scan",
            s.ToString().c_str());
    return 1;
  }
  printf("%s mmap=%d entries=%" PRIu64 " seconds=%.2f peak_rss_mb=%.1f device_mb=%.1f\n",
         compact ? "compact" : "scan", int(mmap), entries, secs,
         double(rh_tools::ProcStatusBytes("VmHWM:")) / 1e6,
         double(after.read_bytes - before.read_bytes) / 1e6);
  // A scan must have seen every entry.
  return (compact || entries == num) ? 0 : 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string db_path, table = "robinhood";
  rh_bench::Shape shape = rh_bench::Shape::kCuckoo;
  uint64_t num = 0, lookups = 1000000, seed = 0, bloom_bits = 0;
  bool mmap = false, sorted = false, scan = false, compact = false;
  for (int i = 1; i < argc; i++) {
    const std::string a = argv[i];
    auto val = [&](const char* p) { return a.substr(strlen(p)); };
    if (a.rfind("--db=", 0) == 0) db_path = val("--db=");
    else if (a.rfind("--shape=", 0) == 0) {
      if (!rh_bench::ParseShape(val("--shape="), &shape)) return Usage();
    } else if (a.rfind("--num=", 0) == 0) num = strtoull(val("--num=").c_str(), nullptr, 10);
    else if (a.rfind("--lookups=", 0) == 0) lookups = strtoull(val("--lookups=").c_str(), nullptr, 10);
    else if (a.rfind("--seed=", 0) == 0) seed = strtoull(val("--seed=").c_str(), nullptr, 10);
    else if (a.rfind("--table=", 0) == 0) table = val("--table=");
    else if (a.rfind("--bloom_bits=", 0) == 0) bloom_bits = strtoull(val("--bloom_bits=").c_str(), nullptr, 10);
    else if (a == "--mmap") mmap = true;
    else if (a == "--sorted") sorted = true;
    else if (a == "--scan") scan = true;
    else if (a == "--compact") compact = true;
    else return Usage();
  }
  if (db_path.empty() || num == 0 || (table != "robinhood" && table != "block") ||
      (scan && compact)) {
    return Usage();
  }

  Options options;
  if (table == "robinhood") options.table_factory.reset(NewRobinHoodTableFactory());
  if (table == "block" && bloom_bits > 0) {
    BlockBasedTableOptions bbto;
    bbto.filter_policy.reset(NewBloomFilterPolicy(static_cast<double>(bloom_bits)));
    options.table_factory.reset(NewBlockBasedTableFactory(bbto));
  }
  options.allow_mmap_reads = mmap;
  options.max_open_files = -1;
  const double t0 = Now();
  std::unique_ptr<DB> db;
  Status s = compact ? DB::Open(options, db_path, DBResult(&db))
                     : DB::OpenForReadOnly(options, db_path, DBResult(&db));
  if (!s.ok()) {
    fprintf(stderr, "rh_lookup_bench: open %s: %s\n", db_path.c_str(), s.ToString().c_str());
    return 1;
  }
  const double open_s = Now() - t0;
  if (scan || compact) return WholeRead(db.get(), compact, num, mmap);

  std::mt19937_64 rng(seed + 12345);
  char key[32], want[100];
  PinnableSlice value;
  uint64_t found = 0, wrong = 0;
  double first_s = 0;
  const Io before = ReadIo();
  const double t1 = Now();
  for (uint64_t n = 0; n < lookups; n++) {
    const uint64_t i = rng() % num;
    const uint64_t id = rh_bench::EntryId(i, seed, sorted);
    const size_t klen = rh_bench::MakeKey(shape, id, key);
    value.Reset();
    s = db->Get(ReadOptions(), db->DefaultColumnFamily(), Slice(key, klen), &value);
    if (n == 0) first_s = Now() - t1;
    if (s.ok()) {
      found++;
      const size_t vlen = rh_bench::MakeValue(shape, i, id, want);
      if (value != Slice(want, vlen)) wrong++;
    } else if (!s.IsNotFound()) {
      fprintf(stderr, "rh_lookup_bench: Get: %s\n", s.ToString().c_str());
      return 1;
    }
  }
  const double secs = Now() - t1;
  const Io after = ReadIo();
  const double per = double(lookups ? lookups : 1);
  // What the table readers say they hold (for BlockBasedTable, what it
  // pins outside its block cache), beside the process's resident memory.
  uint64_t readers = 0;
  db->GetIntProperty("rocksdb.estimate-table-readers-mem", &readers);
  printf("table=%s mmap=%d lookups=%" PRIu64 " found=%" PRIu64 " wrong=%" PRIu64
         " us_per_lookup=%.3f device_pages_per_lookup=%.3f read_calls_per_lookup=%.3f"
         " rss_mb=%.1f readers_mb=%.1f open_ms=%.1f first_get_ms=%.2f\n",
         table.c_str(), int(mmap), lookups, found, wrong, secs * 1e6 / per,
         double(after.read_bytes - before.read_bytes) / 4096.0 / per,
         double(after.syscr - before.syscr) / per, double(after.rss) / 1e6,
         double(readers) / 1e6, open_s * 1e3,
         first_s * 1e3);
  return wrong == 0 && found == lookups ? 0 : 2;
}
