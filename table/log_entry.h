// One entry of the log. Entries are written in the order the table builder
// receives them (internal-key order) and never straddle a log block.
//
// Compact put (sequence number 0, kTypeValue: the common case in the
// bottommost level and in ingested files):
//   +-----------+------------------+----------------+-----+-------+
//   | 1kkkkkkk  | [varint32 klen2] | varint32 vlen  | key | value |
//   +-----------+------------------+----------------+-----+-------+
//   kkkkkkk is the key length when < 127; 127 means the key length is
//   127 + klen2. Overhead: 2 bytes for values < 128 bytes, 3 for values
//   < 16 KiB (keys < 127 bytes).
//
// General entry (any other sequence number or value type):
//   +-----------+---------------+---------------+----------------+-----+-------+
//   | 0ttttttt  | varint32 klen | varint32 vlen | varint64 seqno | key | value |
//   +-----------+---------------+---------------+----------------+-----+-------+
//   ttttttt is RocksDB's ValueType byte, stored as is, so every type the host
//   passes to a table builder (put, delete, single delete, merge, blob index,
//   wide columns, ...) round-trips.
//
// Byte layout: docs/format.md, "Entry".
#pragma once

#include <cstdint>
#include <string>

#include "db/dbformat.h"
#include "rocksdb/slice.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

constexpr uint8_t kCompactPutFlag = 0x80;
constexpr uint8_t kInlineKeyLengthLimit = 0x7f;  // escape value

struct LogEntry {
  Slice user_key;
  Slice value;
  SequenceNumber sequence = 0;
  ValueType type = kTypeValue;
};

// Appends the encoding of one entry to `dst`.
// REQUIRES: type < 0x80, sequence <= kMaxSequenceNumber.
void EncodeLogEntry(const Slice& user_key, SequenceNumber sequence,
                    ValueType type, const Slice& value, std::string* dst);

// Decodes the entry starting at `p`, reading no byte at or past `limit`.
// Returns the position after the entry, or nullptr if the bytes do not form
// a complete entry of a value type a table holds (IsValueType). Slices in
// `*entry` point into [p, limit).
const char* DecodeLogEntry(const char* p, const char* limit, LogEntry* entry);

// Bytes needed to know the length of an entry: a decoder given this many
// bytes (or the rest of the block, if less) can always tell the whole size.
constexpr size_t kMaxEntryHeader = 1 + 5 + 5 + 10;

// The whole length of the entry starting at `p` (header, key and value),
// from its header alone, reading no byte at or past `limit`: lets a reader
// that read too little of an entry read exactly the rest. False if the
// header is incomplete or not one DecodeLogEntry would take.
bool LogEntryLength(const char* p, const char* limit, uint64_t* length);

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
