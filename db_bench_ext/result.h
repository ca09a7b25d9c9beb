// One measurement of one phase of one format (a repetition), and the
// medians the report prints.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace db_bench_ext {

struct PhaseResult {
  std::string workload, format, phase;
  int repetition = 0;
  bool skipped = false;
  // Skipped because the phase failed (an error, or wrong answers), not
  // for a limitation of the format: its targets count as missed.
  bool failed = false;
  std::string reason;  // why skipped, or an error
  std::string note;    // a limitation worth printing beside the numbers

  // Read phases.
  uint64_t ops = 0;      // keys looked up (seeks for seekrandom)
  uint64_t found = 0;
  // What a right answer finds: every key, or none for absent keys.
  uint64_t ExpectedFound() const { return phase == "readmissing" ? 0 : ops; }
  double seconds = 0;          // wall time
  double thread_seconds = 0;   // summed over threads
  double ops_per_sec = 0;
  double micros_per_op = 0;    // thread time per op, as db_bench
  double p50_us = 0, p99_us = 0, p999_us = 0;
  bool latency_per_batch = false;  // multireadrandom: a whole batch
  // The process's reads from disk while the phase ran (getrusage: major
  // page faults, and the file system's input in bytes), which count only
  // where the data is not all in the page cache.
  uint64_t major_faults = 0;
  uint64_t disk_read_bytes = 0;

  // Build phases.
  double entries_per_sec = 0;
  double build_seconds = 0;
  double stage1_seconds = 0;  // fill: writes; ingest: SstFileWriter
  double stage2_seconds = 0;  // fill: flush+CompactRange; ingest: ingest
  uint64_t entries = 0;
  uint64_t files = 0;
  uint64_t file_bytes = 0;
  uint64_t index_bytes = 0;
  uint64_t filter_bytes = 0;
  int64_t builder_peak_bytes = -1;  // from the table's own property
  // Peak growth of the heap while the builder ran (ingest: SstFileWriter;
  // fill: the CompactRange), measured the same way for every format.
  int64_t heap_peak_bytes = -1;

  bool IsBuild() const { return phase == "fill" || phase == "ingest"; }
  double BytesPerEntry() const {
    return entries ? double(file_bytes) / double(entries) : 0;
  }
};

}  // namespace db_bench_ext
