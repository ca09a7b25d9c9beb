// The phases: building a database (fill + full compaction; SstFileWriter +
// ingest: build_phases.cc), warming it up, and the timed read phases
// (read_phases.cc).
#pragma once

#include <string>

#include "db_bench_ext/formats.h"
#include "db_bench_ext/result.h"
#include "db_bench_ext/workload.h"
#include "rocksdb/db.h"

namespace db_bench_ext {

struct PhaseContext {
  const KeySpace* keys;
  const FormatSpec* format;
  const FormatSetup* setup;
  std::string label;  // "workload/format", for progress lines
  uint64_t read_key_range = 0;  // read phases: the first N keys only (0: all)
};

// A result of `phase` for this context's workload and format, to fill in.
PhaseResult NewResult(const PhaseContext& ctx, const std::string& phase);

// Opens the database in `dir`; with `fresh`, destroys what was there first.
rocksdb::Status OpenDb(const PhaseContext& ctx, const std::string& dir,
                       bool fresh, rocksdb::DB** db);

// Writes every key into a fresh, open `db` (WAL off, batches of 1000), then
// flushes and compacts the whole key range into the bottommost level; with
// --fill_by=ingest, writes files beside `dir` and ingests them instead.
PhaseResult RunFill(const PhaseContext& ctx, const std::string& dir,
                    rocksdb::DB* db);

// Writes every key in order with SstFileWriter into one file, then ingests
// it into a fresh DB in `dir`, checks a sample of keys, and removes it.
PhaseResult RunIngest(const PhaseContext& ctx, const std::string& dir);

// File count, bytes, index/filter bytes and builder peak of the live files.
void CollectFileStats(rocksdb::DB* db, PhaseResult* r);

// Untimed: scans the whole database (counting keys) and reads `reads`
// random keys, checking every value. Returns "" or what was wrong.
std::string Warmup(const PhaseContext& ctx, rocksdb::DB* db, uint64_t reads,
                   uint64_t seed);

// One timed read phase: readrandom, multireadrandom, readmissing or
// seekrandom, `reads` operations per thread; or readseq, one full scan a
// thread.
PhaseResult RunRead(const PhaseContext& ctx, rocksdb::DB* db,
                    const std::string& phase, int threads, uint64_t reads,
                    int batch_size, int seek_nexts, uint64_t seed);

}  // namespace db_bench_ext
