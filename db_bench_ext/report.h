// Collects every repetition's results and prints them: db_bench-style
// result lines as phases finish, then per-workload tables of medians with
// each format's ratio to RobinHoodTable, the project's targets, and JSON/CSV
// for machines.
#pragma once

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "db_bench_ext/result.h"

namespace db_bench_ext {

struct RunInfo {
  std::string command_line;
  uint64_t num = 0;
  uint64_t reads = 0;
  int threads = 1;
  int repetitions = 0;
  int batch_size = 0;
  int seek_nexts = 0;
  uint64_t seed = 0;
  std::string machine;  // CPU model, cores
  std::string rocksdb_version;
  double total_seconds = 0;
  // Per workload: description line and per-format configuration lines.
  std::map<std::string, std::string> workload_desc;
  std::map<std::string, std::vector<std::string>> format_desc;
  std::vector<std::string> workload_order;
};

class Report {
 public:
  // Records one repetition's result and prints its db_bench-style line
  // (or its skip) on stdout.
  void Add(const PhaseResult& r, int repetitions);
  // Records a skip once, without printing a result line.
  void AddSkip(const PhaseResult& r);

  // Medians over repetitions, one per (workload, format, phase), in the
  // order first seen.
  std::vector<PhaseResult> Medians() const;

  void PrintTables(FILE* out, const RunInfo& info) const;
  void PrintTargets(FILE* out, const RunInfo& info) const;
  bool WriteJson(const std::string& path, const RunInfo& info) const;
  bool WriteCsv(const std::string& path) const;

  // The db_bench result line of a read phase ("readrandom   : ...").
  static std::string DbBenchLine(const PhaseResult& r);

 private:
  // The key of samples_ for a phase's results.
  static std::string SampleKey(const PhaseResult& r);

  std::vector<std::string> order_;
  std::map<std::string, std::vector<PhaseResult>> samples_;
  // The median result of a phase, skipped or failed ones too (FindAny),
  // or measured ones only (Find); null if there is none.
  const PhaseResult* FindAny(const std::vector<PhaseResult>& medians,
                             const std::string& workload,
                             const std::string& format,
                             const std::string& phase) const;
  const PhaseResult* Find(const std::vector<PhaseResult>& medians,
                          const std::string& workload,
                          const std::string& format,
                          const std::string& phase) const;
};

}  // namespace db_bench_ext
