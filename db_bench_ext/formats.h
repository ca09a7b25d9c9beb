// The table formats compared, each configured the way its own documentation
// says gives its best point-lookup speed, and what each cannot do.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "db_bench_ext/workload.h"
#include "rocksdb/options.h"

namespace db_bench_ext {

enum class Format { kRobinHood, kCuckoo, kPlain, kBlock };

struct FormatSpec {
  Format format;
  std::string name;        // robinhood, cuckoo, plain, block
  std::string table_name;  // RobinHoodTable, CuckooTable, ...
};

// Parses --formats. Returns false (and names the bad entry) on error.
bool ParseFormats(const std::string& list, std::vector<FormatSpec>* out,
                  std::string* bad);

// --compression's codec, and whether the name is one.
rocksdb::CompressionType CompressionOf(const std::string& name);
// --cache_type's values: lru_cache, hyper_clock_cache.
bool ValidCacheType(const std::string& name);
bool ValidCompression(const std::string& name);

struct FormatSetup {
  rocksdb::Options options;
  std::string summary;  // one line: how it is configured, for the output
};

// Options for `format` on `workload`, num keys. mmap_read applies to
// robinhood and block; cuckoo and plain always map their files.
FormatSetup MakeOptions(const FormatSpec& format, const Workload& workload,
                        uint64_t num, bool mmap_read);

// Why `format` cannot run `phase` on `workload`, or "" if it can.
std::string SkipReason(const FormatSpec& format, const Workload& workload,
                       const std::string& phase);

// A note printed beside a phase the format runs in a limited way, or "".
std::string PhaseNote(const FormatSpec& format, const std::string& phase);

// True if a full scan costs far more than reading every key (CuckooTable
// sorts the whole file to iterate): the warm-up then reads keys instead.
bool ScanIsSlow(const FormatSpec& format);

}  // namespace db_bench_ext
