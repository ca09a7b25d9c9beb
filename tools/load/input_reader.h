// The inputs rh_load reads, each a stream of (key, value) entries in input
// order. The formats, byte for byte, are in docs/guide.md ("Bulk loading
// at scale"):
//   tsv     key TAB value LF, with backslash escapes (\\ \t \n \r \0 \xHH)
//   csv     RFC 4180, two fields a record, field bytes as they are
//   binary  records of fixed32 key length, fixed32 value length (little-
//           endian), key bytes, value bytes; no header
//   db      a RocksDB DB directory, any table format: one column family's
//           live entries, in key order
// Bad input is refused with the file, the line (tsv), record (csv, binary)
// and the byte offset where the entry starts.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "rocksdb/slice.h"
#include "rocksdb/status.h"

namespace rh_load {

using ROCKSDB_NAMESPACE::Slice;
using ROCKSDB_NAMESPACE::Status;

enum class InputFormat { kTsv, kCsv, kBinary, kDb };
bool ParseInputFormat(const std::string& name, InputFormat* format);
// "line" for tsv, "record" for the others.
const char* RecordNoun(InputFormat format);

// Entries larger than this (key and value together) are refused.
constexpr uint64_t kMaxEntryBytes = uint64_t(256) << 20;

class InputReader {
 public:
  virtual ~InputReader() = default;
  // The next entry; *has is false at the end. The slices stay valid until
  // the next call.
  virtual Status Next(Slice* key, Slice* value, bool* has) = 0;
  // Bytes of the input consumed so far (for progress).
  virtual uint64_t BytesRead() const = 0;
};

// `path` "-" reads standard input. `column_family` is for kDb only.
Status OpenInput(InputFormat format, const std::string& path,
                 const std::string& column_family,
                 std::unique_ptr<InputReader>* reader);

// The size of `path` when it is a regular file, else 0 (unknown).
uint64_t InputSize(InputFormat format, const std::string& path);

}  // namespace rh_load
