// rh_load: builds RobinHoodTable files from entries in files (or standard
// input) or from an existing DB, sorted within a memory limit and
// range-partitioned so they ingest into the bottom level, and optionally
// ingests them. docs/guide.md, "Bulk loading at scale", is its manual.
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "tools/load/loader.h"
#include "tools/load/signals.h"

// Flags in db_bench's --name=value style. (Not gflags: the host's
// librocksdb.so carries its tools' gflags, and names like --db and
// --output_dir are already taken there.)
namespace {

struct Flag {
  const char* name;
  std::string value;
  const char* help;
};

Flag flags[] = {
    {"input", "", "Input files, comma-separated; - is standard input"},
    {"input_format", "tsv", "tsv, csv, binary or db (a RocksDB DB directory)"},
    {"input_column_family", "default", "With --input_format=db: the column family read"},
    {"output_dir", "", "Where the files are written (part-000001.sst, ...)"},
    {"memory_limit", "1G", "Memory for sorting and building: bytes, or with K, M, G, T"},
    {"threads", "1", "Threads that sort and build files"},
    {"target_file_size", "256M", "Bytes of keys and values a file: bytes, or with K, M, G"},
    {"tmp_dir", "", "Where sorted runs are spilled (default: --output_dir)"},
    {"db", "", "A DB to ingest the files into (created if missing)"},
    {"column_family", "default", "With --db: the column family ingested into"},
    {"options", "", "RobinHoodTable options, e.g. \"load_factor=0.9;inline_slot_limit=128\""},
    {"table", "robinhood", "robinhood, or block: BlockBasedTable files, to compare with"},
    {"compression", "none", "Log block compression: none, snappy, lz4 or zstd"},
    {"on_duplicate", "last", "A key given twice: the last or first occurrence wins, or error"},
    {"progress", "auto", "auto (on a terminal), on (lines on stderr when not one) or off"},
};

const std::string& Get(const char* name) {
  for (const Flag& f : flags) {
    if (strcmp(f.name, name) == 0) return f.value;
  }
  abort();  // a name this file does not define
}

void Usage(FILE* out) {
  fprintf(out,
          "rh_load: builds RobinHoodTable SST files from key/value input, sorted within a\n"
          "memory limit and range-partitioned for ingestion into the bottom level.\n"
          "usage: rh_load --input=FILE[,FILE...] --input_format=tsv|csv|binary|db\n"
          "               --output_dir=DIR [--db=DIR] [flags]\n");
  for (const Flag& f : flags) {
    fprintf(out, "  --%-20s %s%s%s%s\n", f.name, f.help, f.value.empty() ? "" : " (default ",
            f.value.c_str(), f.value.empty() ? "" : ")");
  }
}

// Sets flags from argv; false (with a message) on an unknown one.
bool ParseFlags(int argc, char** argv, bool* help) {
  for (int i = 1; i < argc; i++) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      *help = true;
      return true;
    }
    const size_t eq = arg.find('=');
    if (arg.compare(0, 2, "--") != 0 || eq == std::string::npos) {
      fprintf(stderr, "rh_load: %s: unexpected argument (flags are --name=value)\n", arg.c_str());
      return false;
    }
    const std::string name = arg.substr(2, eq - 2);
    Flag* found = nullptr;
    for (Flag& f : flags) {
      if (name == f.name) found = &f;
    }
    if (found == nullptr) {
      fprintf(stderr, "rh_load: --%s: unknown flag (--help lists them)\n", name.c_str());
      return false;
    }
    found->value = arg.substr(eq + 1);
  }
  return true;
}

}  // namespace

namespace {

bool ParseSize(const std::string& text, uint64_t* out) {
  if (text.empty()) return false;
  char* end = nullptr;
  const unsigned long long n = strtoull(text.c_str(), &end, 10);
  if (end == text.c_str()) return false;
  int shift = 0;
  const std::string unit(end);
  if (unit == "" || unit == "B") shift = 0;
  else if (unit == "K" || unit == "KiB") shift = 10;
  else if (unit == "M" || unit == "MiB") shift = 20;
  else if (unit == "G" || unit == "GiB") shift = 30;
  else if (unit == "T" || unit == "TiB") shift = 40;
  else return false;
  if (shift > 0 && n > (~0ULL >> shift)) return false;
  *out = uint64_t(n) << shift;
  return true;
}

int Refuse(const std::string& flag, const std::string& why) {
  fprintf(stderr, "rh_load: %s: %s\n", flag.c_str(), why.c_str());
  return 2;
}

std::string Mb(uint64_t bytes) {
  char buf[32];
  snprintf(buf, sizeof(buf), "%.1f MB", double(bytes) / 1e6);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  bool help = false;
  if (!ParseFlags(argc, argv, &help)) return 2;
  if (help) {
    Usage(stdout);
    return 0;
  }
  rh_load::LoadOptions o;
  const std::string& inputs = Get("input");
  for (size_t start = 0; !inputs.empty();) {
    const size_t comma = inputs.find(',', start);
    o.inputs.push_back(inputs.substr(start, comma == std::string::npos ? std::string::npos
                                                                         : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (!rh_load::ParseInputFormat(Get("input_format"), &o.format)) {
    return Refuse("--input_format", "must be tsv, csv, binary or db, not '" +
                                        Get("input_format") + "'");
  }
  if (!ParseSize(Get("memory_limit"), &o.memory_limit)) {
    return Refuse("--memory_limit", "not a size: '" + Get("memory_limit") + "'");
  }
  if (!ParseSize(Get("target_file_size"), &o.target_file_size)) {
    return Refuse("--target_file_size", "not a size: '" + Get("target_file_size") + "'");
  }
  uint64_t threads = 0;
  if (!ParseSize(Get("threads"), &threads) || threads > 1024) {
    return Refuse("--threads", "not a count: '" + Get("threads") + "'");
  }
  o.threads = int(threads);
  if (!rh_load::ParseOnDuplicate(Get("on_duplicate"), &o.on_duplicate)) {
    return Refuse("--on_duplicate", "must be last, first or error, not '" +
                                        Get("on_duplicate") + "'");
  }
  const std::string& progress = Get("progress");
  if (progress == "auto") {
    o.progress = isatty(2) ? rh_load::ProgressPrinter::Mode::kTerminal
                           : rh_load::ProgressPrinter::Mode::kOff;
  } else if (progress == "on") {
    o.progress = isatty(2) ? rh_load::ProgressPrinter::Mode::kTerminal
                           : rh_load::ProgressPrinter::Mode::kLines;
  } else if (progress == "off") {
    o.progress = rh_load::ProgressPrinter::Mode::kOff;
  } else {
    return Refuse("--progress", "must be auto, on or off, not '" + progress + "'");
  }
  o.input_column_family = Get("input_column_family");
  o.output_dir = Get("output_dir");
  o.tmp_dir = Get("tmp_dir");
  o.db = Get("db");
  o.column_family = Get("column_family");
  o.table_options = Get("options");
  o.table = Get("table");
  o.compression = Get("compression");

  rh_load::InstallStopHandlers();
  rh_load::LoadSummary sum;
  const ROCKSDB_NAMESPACE::Status s = rh_load::Load(o, &sum);
  if (!s.ok()) {
    fprintf(stderr, "rh_load: %s\n", s.ToString().c_str());
    if (rh_load::StopRequested()) return 128 + rh_load::StopSignal();
    return s.IsInvalidArgument() ? 2 : 1;
  }
  printf("rh_load: %" PRIu64 " entries read, %" PRIu64 " written (%" PRIu64
         " duplicates dropped) in %zu files, %s; %s of input in %.1f s "
         "(read %.1f s, build %.1f s, ingest %.1f s); %.2fM entries/s, %.1f MB/s; "
         "%" PRIu64 " sorted runs; peak memory %s\n",
         sum.entries_read, sum.entries, sum.entries_read - sum.entries, sum.files.size(),
         Mb(sum.file_bytes).c_str(), Mb(sum.input_bytes).c_str(), sum.seconds,
         sum.read_seconds, sum.build_seconds, sum.ingest_seconds,
         double(sum.entries_read) / sum.seconds / 1e6,
         double(sum.input_bytes) / sum.seconds / 1e6, sum.runs, Mb(sum.peak_memory).c_str());
  if (sum.files_cut_by_memory) {
    printf("rh_load: files were cut below --target_file_size to keep each builder within "
           "its share of --memory_limit\n");
  }
  if (!o.db.empty()) printf("rh_load: ingested into %s\n", o.db.c_str());
  return 0;
}
