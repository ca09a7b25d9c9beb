#include "table/log_entry.h"

#include <cassert>

#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

void EncodeLogEntry(const Slice& user_key, SequenceNumber sequence,
                    ValueType type, const Slice& value, std::string* dst) {
  assert(static_cast<uint8_t>(type) < 0x80);
  assert(sequence <= kMaxSequenceNumber);
  const uint32_t klen = static_cast<uint32_t>(user_key.size());
  const uint32_t vlen = static_cast<uint32_t>(value.size());
  if (sequence == 0 && type == kTypeValue) {
    if (klen < kInlineKeyLengthLimit) {
      dst->push_back(static_cast<char>(kCompactPutFlag | klen));
    } else {
      dst->push_back(static_cast<char>(kCompactPutFlag | kInlineKeyLengthLimit));
      PutVarint32(dst, klen - kInlineKeyLengthLimit);
    }
    PutVarint32(dst, vlen);
  } else {
    dst->push_back(static_cast<char>(type));
    PutVarint32(dst, klen);
    PutVarint32(dst, vlen);
    PutVarint64(dst, sequence);
  }
  dst->append(user_key.data(), user_key.size());
  dst->append(value.data(), value.size());
}

namespace {

// Decodes an entry's header: its lengths, sequence and type. Returns the
// position of the key, or nullptr as DecodeLogEntry would.
const char* DecodeHeader(const char* p, const char* limit, uint32_t* klen,
                         uint32_t* vlen, LogEntry* entry) {
  if (p >= limit) return nullptr;
  const uint8_t tag = static_cast<uint8_t>(*p++);
  if (tag & kCompactPutFlag) {
    *klen = tag & kInlineKeyLengthLimit;
    if (*klen == kInlineKeyLengthLimit) {
      uint32_t rest = 0;
      p = GetVarint32Ptr(p, limit, &rest);
      if (p == nullptr || rest > UINT32_MAX - kInlineKeyLengthLimit) {
        return nullptr;
      }
      *klen += rest;
    }
    p = GetVarint32Ptr(p, limit, vlen);
    if (p == nullptr) return nullptr;
    entry->sequence = 0;
    entry->type = kTypeValue;
    return p;
  }
  p = GetVarint32Ptr(p, limit, klen);
  if (p != nullptr) p = GetVarint32Ptr(p, limit, vlen);
  uint64_t seq = 0;
  if (p != nullptr) p = GetVarint64Ptr(p, limit, &seq);
  // A type RocksDB never hands a table builder is damage: RocksDB's
  // readers of entries (GetContext, internal keys) assert on such types.
  if (p == nullptr || seq > kMaxSequenceNumber ||
      !IsValueType(static_cast<ValueType>(tag))) {
    return nullptr;
  }
  entry->sequence = seq;
  entry->type = static_cast<ValueType>(tag);
  return p;
}

}  // namespace

const char* DecodeLogEntry(const char* p, const char* limit, LogEntry* entry) {
  uint32_t klen = 0;
  uint32_t vlen = 0;
  p = DecodeHeader(p, limit, &klen, &vlen, entry);
  if (p == nullptr) return nullptr;
  if (static_cast<uint64_t>(limit - p) < uint64_t{klen} + vlen) return nullptr;
  entry->user_key = Slice(p, klen);
  entry->value = Slice(p + klen, vlen);
  return p + klen + vlen;
}

bool LogEntryLength(const char* p, const char* limit, uint64_t* length) {
  uint32_t klen = 0;
  uint32_t vlen = 0;
  LogEntry header;
  const char* key = DecodeHeader(p, limit, &klen, &vlen, &header);
  if (key == nullptr) return false;
  *length = static_cast<uint64_t>(key - p) + klen + vlen;
  return true;
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
