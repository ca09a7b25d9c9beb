// rh_load's work, as a library: read entries from files in one of the
// input formats (input_reader.h), sort them within a memory limit (runs
// spilled to a temporary directory and merged), and write them as
// range-partitioned RobinHoodTable files on several threads; optionally
// ingest them into a DB in one IngestExternalFile call.
//
// Memory: reading and sorting use the whole --memory_limit (two half
// buffers when a second thread sorts and spills one while the other
// fills); building gives each thread half the limit divided by the
// threads for its table builder, and the merge's read buffers an eighth.
//
// Nothing half-written is left behind: files are built under temporary
// names and renamed when all are done; the temporary directory is removed
// on success, failure and SIGINT/SIGTERM.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/load/input_reader.h"
#include "tools/load/merger.h"
#include "tools/load/progress.h"

namespace rh_load {

struct LoadOptions {
  std::vector<std::string> inputs;  // "-" is standard input
  InputFormat format = InputFormat::kTsv;
  std::string input_column_family = "default";  // for InputFormat::kDb
  std::string output_dir;
  uint64_t memory_limit = uint64_t(1) << 30;
  int threads = 1;
  uint64_t target_file_size = uint64_t(256) << 20;
  std::string tmp_dir;  // empty: output_dir
  std::string db;       // empty: no ingestion
  std::string column_family = "default";
  // "robinhood", or "block": BlockBasedTable files of the same input, to
  // compare with.
  std::string table = "robinhood";
  std::string table_options;  // the table format's options string
  std::string compression = "none";
  OnDuplicate on_duplicate = OnDuplicate::kLast;
  ProgressPrinter::Mode progress = ProgressPrinter::Mode::kOff;

  static constexpr uint64_t kMinMemoryLimit = uint64_t(16) << 20;
  static constexpr int kMaxThreads = 256;
  static constexpr uint64_t kMinTargetFileSize = uint64_t(64) << 10;
};

struct LoadSummary {
  uint64_t entries_read = 0;
  uint64_t entries = 0;  // written, after duplicates
  uint64_t input_bytes = 0;
  uint64_t runs = 0;
  std::vector<std::string> files;
  uint64_t file_bytes = 0;
  double read_seconds = 0, build_seconds = 0, ingest_seconds = 0, seconds = 0;
  uint64_t peak_memory = 0;  // the process's peak resident bytes
  bool files_cut_by_memory = false;
};

// Checks the options; InvalidArgument names the flag that is wrong.
Status ValidateLoadOptions(const LoadOptions& options);

Status Load(const LoadOptions& options, LoadSummary* summary);

// The output file names: part-000001.sst, ...
std::string PartFileName(size_t index);

// The process's peak resident memory so far (VmHWM), bytes.
uint64_t PeakResidentBytes();

}  // namespace rh_load
