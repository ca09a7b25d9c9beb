// Writes one key range of the merged input as RobinHoodTable files with
// SstFileWriter, cutting a new file where the current one reaches its
// target size or the memory its builder would hold reaches its share of
// --memory_limit. Ranges never overlap and files within one never do, so
// IngestExternalFile puts every file in the bottom level at sequence 0.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "rocksdb/options.h"
#include "tools/load/merger.h"
#include "tools/load/progress.h"

namespace rh_load {

// What a table builder holds for a file, per byte of key and value and per
// entry, rounded up from measurements of 12-byte entries: the inline
// layout keeps every entry at a fixed stride (2 bytes over the longest
// entry) until Finish, plus 12 bytes an entry to place hash-ordered slots
// (26 bytes an entry in all, 14 in key order); the log layout keeps 12
// bytes a key. The stride is the longest entry's, hence the half byte.
constexpr double kBuilderBytesPerInputByte = 1.5;
constexpr uint64_t kBuilderBytesPerEntry = 16;

struct FilePlan {
  uint64_t target_bytes;    // of keys and values a file
  uint64_t builder_budget;  // what its builder may hold
};

struct BuiltFile {
  std::string path;
  uint64_t entries = 0;
  uint64_t file_bytes = 0;
  bool cut_by_memory = false;  // before its target size, for the builder's memory
};

// Entries from `lo` on until the merger's upper bound. `temp_name(i)` names
// the range's i-th file.
Status BuildRange(Merger* merger, const Slice& lo,
                  const ROCKSDB_NAMESPACE::Options& options, const FilePlan& plan,
                  const std::function<std::string(size_t)>& temp_name,
                  Progress* progress, std::vector<BuiltFile>* files);

}  // namespace rh_load
