// One entry as rh_load holds it while sorting, in memory and in the run
// files it spills to --tmp_dir. Records lie back to back, with no header
// and no padding:
//
//   varint32 key length | varint32 value length | varint64 ordinal |
//   key bytes | value bytes
//
// The ordinal is the entry's place in the input (0 for the first entry of
// the first file), so duplicates resolve by --on_duplicate and an error can
// name the file and record. Run files live only as long as one rh_load run
// and are read back by the process that wrote them, so they carry no
// checksum; their reader still checks each length against what is left.
#pragma once

#include <cstdint>
#include <string>

#include "rocksdb/slice.h"
#include "rocksdb/status.h"

namespace rh_load {

using ROCKSDB_NAMESPACE::Slice;
using ROCKSDB_NAMESPACE::Status;

struct RunRecord {
  Slice key;
  Slice value;
  uint64_t ordinal = 0;
};

// The bytes a record of these sizes takes, at most.
constexpr size_t kMaxRecordHeader = 5 + 5 + 10;
inline size_t RecordBound(size_t key, size_t value) {
  return kMaxRecordHeader + key + value;
}

// Writes `r` at `dst`, which has RecordBound bytes; returns the end.
char* EncodeRecord(char* dst, const Slice& key, const Slice& value,
                   uint64_t ordinal);
void AppendRecord(std::string* dst, const RunRecord& r);

// Decodes the record at the start of `*in` and moves `*in` past it. The
// slices point into `*in`'s bytes. Corruption if it is cut short.
Status DecodeRecord(Slice* in, RunRecord* r);

// Decodes a record this process encoded in memory (whole by
// construction); returns the byte after it.
const char* DecodeTrusted(const char* p, RunRecord* r);

// Whether `in` starts with a whole record; `*need` is then its size, or
// else (when known) how many bytes it needs (0 when the header itself is
// incomplete: at most kMaxRecordHeader bytes).
bool WholeRecord(const Slice& in, size_t* need);

}  // namespace rh_load
