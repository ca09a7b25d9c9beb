// db_bench_ext: RobinHoodTable side by side with CuckooTable, PlainTable
// and BlockBasedTable on identical keys and values, in one run. Speaks
// db_bench's flags and result lines; prints tables of medians with ratios
// to RobinHoodTable, and writes JSON/CSV and a chart on request.
//
//   db_bench_ext                       # the default comparison
//   db_bench_ext --workload=cuckoo --num=10000000 --json_out=r.json
//                --chart_out=r.png
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "db_bench_ext/flags.h"
#include "db_bench_ext/formats.h"
#include "db_bench_ext/latency.h"
#include "db_bench_ext/phases.h"
#include "db_bench_ext/report.h"
#include "db_bench_ext/workload.h"
#include "rocksdb/version.h"
#include "rocksdb_robinhood/robinhood_table.h"

using namespace db_bench_ext;

namespace {

std::vector<std::string> Split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

bool FlagIsDefault(const char* name) {
  gflags::CommandLineFlagInfo info;
  return gflags::GetCommandLineFlagInfo(name, &info) && info.is_default;
}

std::string MachineDescription() {
  std::ifstream in("/proc/cpuinfo");
  std::string line, model;
  while (std::getline(in, line)) {
    if (line.compare(0, 10, "model name") == 0) {
      model = line.substr(line.find(':') + 2);
      break;
    }
  }
  return model + ", " + std::to_string(sysconf(_SC_NPROCESSORS_ONLN)) +
         " cores";
}

const std::vector<std::string> kAllPhases = {
    "fill", "ingest", "readrandom", "multireadrandom", "readmissing",
    "seekrandom", "readseq"};

bool IsReadPhase(const std::string& p) { return p != "fill" && p != "ingest"; }

// Each read phase of a repetition reads its own random keys: where the data
// is larger than memory, a phase reading the keys the one before it just
// read would find them in the page cache. readrandom keeps the sequence it
// always had.
uint64_t PhaseSeed(const std::string& phase, int rep) {
  uint64_t k = uint64_t(
      std::find(kAllPhases.begin(), kAllPhases.end(), phase) -
      std::find(kAllPhases.begin(), kAllPhases.end(), "readrandom"));
  return FLAGS_seed + 7919ULL * uint64_t(rep) + 104729ULL * k;
}

// --reads=-1 reads --num keys per phase, at most this many, which keeps the
// default run (1M keys, two workloads, four formats, 3 repetitions) short.
constexpr uint64_t kDefaultReadsCap = 500000;

// The directory containing this source file, where plot.py lives.
std::string SourceDir() {
  std::string f = __FILE__;
  size_t slash = f.rfind('/');
  return slash == std::string::npos ? "db_bench_ext" : f.substr(0, slash);
}

struct Slot {
  FormatSpec format;
  FormatSetup setup;
  PhaseContext ctx;
  std::string dir;
  rocksdb::DB* db = nullptr;
  std::string unusable;  // why reads cannot run
};

}  // namespace

int main(int argc, char** argv) {
  std::string command_line;
  for (int i = 0; i < argc; i++) {
    command_line += (i ? " " : "") + std::string(argv[i]);
  }
  gflags::SetUsageMessage(
      "RobinHoodTable beside CuckooTable, PlainTable and BlockBasedTable.\n"
      "Usage: db_bench_ext [--workload=sparkey,cuckoo] [--formats=...] "
      "[--num=N] [--benchmarks=...] [--json_out=F] [--chart_out=F.png]");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  rocksdb::RegisterRobinHoodTableDefault();

  std::vector<FormatSpec> formats;
  std::string bad;
  if (!ParseFormats(FLAGS_formats, &formats, &bad)) {
    fprintf(stderr,
            "unknown format '%s' in --formats (robinhood, robinhood_bloom, "
            "robinhood_nofilter, robinhood_log, robinhood_hashorder, "
            "cuckoo, plain, block)\n",
            bad.c_str());
    return 2;
  }
  if (!ValidCacheType(FLAGS_cache_type)) {
    fprintf(stderr, "unknown --cache_type '%s' (lru_cache, hyper_clock_cache)\n",
            FLAGS_cache_type.c_str());
    return 2;
  }
  if (!ValidCompression(FLAGS_compression)) {
    fprintf(stderr, "unknown --compression '%s' (none, snappy, lz4, zstd)\n",
            FLAGS_compression.c_str());
    return 2;
  }
  if (!(FLAGS_compression_ratio > 0.0 && FLAGS_compression_ratio <= 1.0)) {
    fprintf(stderr, "--compression_ratio=%g: must be in (0, 1]\n",
            FLAGS_compression_ratio);
    return 2;
  }
  std::vector<std::string> workload_names = Split(FLAGS_workload);
  if (FLAGS_workload == "all") workload_names = {"cuckoo", "sparkey", "misses"};
  std::vector<Workload> workloads;
  for (const auto& name : workload_names) {
    Workload w;
    if (!MakeWorkload(name, FLAGS_key_size, FLAGS_value_size, &w)) {
      fprintf(stderr,
              "unknown workload '%s' (cuckoo, sparkey, decimal, compound, "
              "misses, all)\n",
              name.c_str());
      return 2;
    }
    w.compression_ratio = FLAGS_compression_ratio;
    workloads.push_back(w);
  }
  std::vector<std::string> phases;
  bool explicit_phases = !FlagIsDefault("benchmarks");
  for (const auto& p : Split(FLAGS_benchmarks)) {
    if (p == "build") {
      phases.push_back("fill");
      phases.push_back("ingest");
    } else if (std::find(kAllPhases.begin(), kAllPhases.end(), p) !=
               kAllPhases.end()) {
      phases.push_back(p);
    } else {
      fprintf(stderr, "unknown benchmark '%s' (fill, ingest, build, "
                      "readrandom, multireadrandom, readmissing, "
                      "seekrandom, readseq)\n", p.c_str());
      return 2;
    }
  }
  if (FLAGS_fill_by != "compaction" && FLAGS_fill_by != "ingest") {
    fprintf(stderr, "unknown --fill_by '%s' (compaction, ingest)\n",
            FLAGS_fill_by.c_str());
    return 2;
  }
  if (FLAGS_num < 1 || FLAGS_repetitions < 1 || FLAGS_threads < 1) {
    fprintf(stderr, "--num, --repetitions and --threads must be >= 1\n");
    return 2;
  }
  const bool mmap_read = FLAGS_mmap_read;
  const uint64_t num = uint64_t(FLAGS_num);
  const uint64_t reads = FLAGS_reads >= 0
                             ? uint64_t(FLAGS_reads)
                             : std::min<uint64_t>(num, kDefaultReadsCap);
  const int reps = FLAGS_repetitions;

  NanosPerTick();  // calibrate before any timing
  mkdir(FLAGS_db.c_str(), 0755);

  RunInfo info;
  info.command_line = command_line;
  info.num = num;
  info.reads = reads;
  info.threads = FLAGS_threads;
  info.repetitions = reps;
  info.batch_size = FLAGS_batch_size;
  info.seek_nexts = FLAGS_seek_nexts;
  info.seed = FLAGS_seed;
  info.machine = MachineDescription();
  info.rocksdb_version = std::to_string(ROCKSDB_MAJOR) + "." +
                         std::to_string(ROCKSDB_MINOR) + "." +
                         std::to_string(ROCKSDB_PATCH);
  printf("db_bench_ext: RocksDB %s, %s\n", info.rocksdb_version.c_str(),
         info.machine.c_str());
  printf("Keys: %lu, reads per phase: %lu, threads: %d, repetitions: %d, "
         "batch_size: %d, seek_nexts: %d\n",
         (unsigned long)num, (unsigned long)reads, FLAGS_threads, reps,
         FLAGS_batch_size, FLAGS_seek_nexts);
  if (FLAGS_read_key_range > 0) {
    printf("Read phases look up only the first %lld keys (--read_key_range)\n",
           (long long)FLAGS_read_key_range);
  }
  fflush(stdout);

  Report report;
  double run_start = NowSeconds();
  for (const Workload& w : workloads) {
    KeySpace keys(w, num);
    std::vector<std::string> wphases =
        explicit_phases ? phases : w.default_phases;
    if (FLAGS_use_existing_db) {
      wphases.erase(std::remove(wphases.begin(), wphases.end(), "fill"),
                    wphases.end());
    }
    info.workload_order.push_back(w.name);
    info.workload_desc[w.name] = w.description;
    printf("\n== workload %s: %s ==\n", w.name.c_str(), w.description.c_str());

    std::vector<Slot> slots(formats.size());
    for (size_t i = 0; i < formats.size(); i++) {
      Slot& s = slots[i];
      s.format = formats[i];
      s.setup = MakeOptions(s.format, w, num, mmap_read);
      s.ctx = PhaseContext{&keys, &s.format, &s.setup,
                           w.name + "/" + s.format.name,
                           uint64_t(std::max<int64_t>(0, FLAGS_read_key_range))};
      s.dir = FLAGS_db + "/" + w.name + "-" + s.format.name;
      info.format_desc[w.name].push_back(s.format.name + ": " +
                                         s.setup.summary);
      printf("%-10s %s\n", s.format.name.c_str(), s.setup.summary.c_str());
    }
    fflush(stdout);

    // `failed`: the format could not run (an error, wrong answers), as
    // opposed to a limitation it has.
    auto skip_all = [&](Slot& s, const std::string& why, bool failed) {
      for (const auto& p : wphases) {
        PhaseResult r;
        r.workload = w.name;
        r.format = s.format.name;
        r.phase = p;
        r.skipped = true;
        r.failed = failed;
        r.reason = why;
        report.AddSkip(r);
      }
    };

    // The formats in one group (all of them), or one at a time with
    // --formats_in_turn: each filled, read and removed before the next, so
    // that only one format's data is on disk and in memory at a time.
    std::vector<std::vector<Slot*>> groups;
    for (Slot& s : slots) {
      if (groups.empty() || FLAGS_formats_in_turn) groups.emplace_back();
      groups.back().push_back(&s);
    }
    for (const std::vector<Slot*>& active : groups) {
      // Build (or open) the database each format reads from.
      for (Slot* sp : active) {
        Slot& s = *sp;
        std::string why = SkipReason(s.format, w, "");
        if (!why.empty()) {
          s.unusable = why;
          printf("%-12s : skipped: %s [%s %s]\n", "all", why.c_str(),
                 w.name.c_str(), s.format.name.c_str());
          skip_all(s, why, /*failed=*/false);
          continue;
        }
        bool fill = std::find(wphases.begin(), wphases.end(), "fill") !=
                    wphases.end();
        bool need_db = fill || FLAGS_use_existing_db;
        for (const auto& p : wphases) need_db |= IsReadPhase(p);
        if (!need_db) continue;
        if (!fill && !FLAGS_use_existing_db) {
          // Read phases without fill: a fresh fill is still needed.
          fill = true;
        }
        rocksdb::Status st = OpenDb(s.ctx, s.dir, /*fresh=*/fill, &s.db);
        if (!st.ok()) {
          s.unusable = "cannot open " + s.dir + ": " + st.ToString();
          printf("%-12s : skipped: %s\n", "open", s.unusable.c_str());
          skip_all(s, s.unusable, /*failed=*/true);
          continue;
        }
        if (fill) {
          PhaseResult r = RunFill(s.ctx, s.dir, s.db);
          bool timed = std::find(wphases.begin(), wphases.end(), "fill") !=
                       wphases.end();
          if (timed || r.skipped) report.Add(r, 1);
          if (r.skipped) {
            s.unusable = r.reason;
            skip_all(s, r.reason, r.failed);
            continue;
          }
        }
      }

      // SstFileWriter + ingest, each repetition over all formats in turn.
      if (std::find(wphases.begin(), wphases.end(), "ingest") !=
          wphases.end()) {
        for (int rep = 0; rep < reps; rep++) {
          for (Slot* sp : active) {
            Slot& s = *sp;
            if (!SkipReason(s.format, w, "").empty()) continue;
            std::string why = SkipReason(s.format, w, "ingest");
            PhaseResult r;
            if (!why.empty()) {
              r.workload = w.name;
              r.format = s.format.name;
              r.phase = "ingest";
              r.skipped = true;
              r.reason = why;
              if (rep == 0) report.Add(r, reps);
              continue;
            }
            r = RunIngest(s.ctx, s.dir + "-ingest");
            r.repetition = rep;
            report.Add(r, reps);
          }
        }
      }

      // Warm-up: a full scan and verified random reads on every database.
      for (Slot* sp : active) {
        Slot& s = *sp;
        if (!s.db || !s.unusable.empty()) continue;
        bool reads_follow = false;
        for (const auto& p : wphases) reads_follow |= IsReadPhase(p);
        if (!reads_follow) break;
        const uint64_t warmup =
            std::min<uint64_t>(uint64_t(FLAGS_warmup_reads), num);
        std::string err = Warmup(s.ctx, s.db, warmup, FLAGS_seed);
        if (!err.empty()) {
          s.unusable = "WRONG RESULTS in warm-up check: " + err;
          printf("%-12s : skipped: %s [%s %s]\n", "reads", s.unusable.c_str(),
                 w.name.c_str(), s.format.name.c_str());
          skip_all(s, s.unusable, /*failed=*/true);
        }
      }

      // Reads: each repetition runs every phase of every format, starting
      // with a different format each time so no format always goes first.
      for (int rep = 0; rep < reps; rep++) {
        for (size_t k = 0; k < active.size(); k++) {
          Slot& s = *active[(k + size_t(rep)) % active.size()];
          for (const auto& p : wphases) {
            if (!IsReadPhase(p)) continue;
            PhaseResult r;
            if (!s.unusable.empty()) continue;  // recorded by skip_all
            std::string why = SkipReason(s.format, w, p);
            if (!why.empty()) {
              if (rep == 0) {
                r.workload = w.name;
                r.format = s.format.name;
                r.phase = p;
                r.skipped = true;
                r.reason = why;
                report.Add(r, reps);
              }
              continue;
            }
            r = RunRead(s.ctx, s.db, p, FLAGS_threads, reads, FLAGS_batch_size,
                        FLAGS_seek_nexts,
                        PhaseSeed(p, rep));
            r.repetition = rep;
            r.note = PhaseNote(s.format, p);
            report.Add(r, reps);
          }
        }
      }

      for (Slot* sp : active) {
        Slot& s = *sp;
        if (!s.db) continue;
        s.db->Close();
        delete s.db;
        s.db = nullptr;
        // A database we did not make (--use_existing_db) is never removed.
        if (!FLAGS_keep_db && !FLAGS_use_existing_db) {
          rocksdb::DestroyDB(s.dir, s.setup.options);
        }
      }
    }
  }
  info.total_seconds = NowSeconds() - run_start;

  printf("\n");
  report.PrintTables(stdout, info);
  report.PrintTargets(stdout, info);
  printf("\nTotal time: %.1f s\n", info.total_seconds);

  std::string json = FLAGS_json_out;
  if (json.empty() && !FLAGS_chart_out.empty()) {
    json = FLAGS_chart_out + ".json";
  }
  int rc = 0;
  if (!json.empty()) {
    if (report.WriteJson(json, info)) {
      printf("JSON: %s\n", json.c_str());
    } else {
      fprintf(stderr, "cannot write %s\n", json.c_str());
      rc = 1;
    }
  }
  if (!FLAGS_csv_out.empty()) {
    if (report.WriteCsv(FLAGS_csv_out)) {
      printf("CSV: %s\n", FLAGS_csv_out.c_str());
    } else {
      fprintf(stderr, "cannot write %s\n", FLAGS_csv_out.c_str());
      rc = 1;
    }
  }
  if (!FLAGS_chart_out.empty() && !json.empty()) {
    std::string cmd = "/usr/bin/python3 '" + SourceDir() + "/plot.py' '" +
                      json + "' '" + FLAGS_chart_out + "'";
    if (system(cmd.c_str()) == 0) {
      printf("Chart: %s\n", FLAGS_chart_out.c_str());
    } else {
      fprintf(stderr, "chart failed: %s\n", cmd.c_str());
      rc = 1;
    }
  }
  return rc;
}
