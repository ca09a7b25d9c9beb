#include "tools/load/run_record.h"

#include "util/coding.h"

namespace rh_load {

using ROCKSDB_NAMESPACE::EncodeVarint32;
using ROCKSDB_NAMESPACE::EncodeVarint64;
using ROCKSDB_NAMESPACE::GetVarint32;
using ROCKSDB_NAMESPACE::GetVarint64;

char* EncodeRecord(char* dst, const Slice& key, const Slice& value,
                   uint64_t ordinal) {
  dst = EncodeVarint32(dst, static_cast<uint32_t>(key.size()));
  dst = EncodeVarint32(dst, static_cast<uint32_t>(value.size()));
  dst = EncodeVarint64(dst, ordinal);
  memcpy(dst, key.data(), key.size());
  dst += key.size();
  memcpy(dst, value.data(), value.size());
  return dst + value.size();
}

void AppendRecord(std::string* dst, const RunRecord& r) {
  const size_t at = dst->size();
  dst->resize(at + RecordBound(r.key.size(), r.value.size()));
  char* end = EncodeRecord(&(*dst)[at], r.key, r.value, r.ordinal);
  dst->resize(end - dst->data());
}

static bool ParseHeader(Slice* in, uint32_t* klen, uint32_t* vlen,
                        uint64_t* ordinal) {
  return GetVarint32(in, klen) && GetVarint32(in, vlen) &&
         GetVarint64(in, ordinal);
}

Status DecodeRecord(Slice* in, RunRecord* r) {
  uint32_t klen = 0, vlen = 0;
  if (!ParseHeader(in, &klen, &vlen, &r->ordinal) ||
      uint64_t(klen) + vlen > in->size()) {
    return Status::Corruption("run record cut short");
  }
  r->key = Slice(in->data(), klen);
  r->value = Slice(in->data() + klen, vlen);
  in->remove_prefix(size_t(klen) + vlen);
  return Status::OK();
}

const char* DecodeTrusted(const char* p, RunRecord* r) {
  uint32_t klen = 0, vlen = 0;
  // Varints stop at their last byte, so this limit never reads past it.
  const char* limit = p + kMaxRecordHeader;
  p = ROCKSDB_NAMESPACE::GetVarint32Ptr(p, limit, &klen);
  p = ROCKSDB_NAMESPACE::GetVarint32Ptr(p, limit, &vlen);
  p = ROCKSDB_NAMESPACE::GetVarint64Ptr(p, limit, &r->ordinal);
  r->key = Slice(p, klen);
  r->value = Slice(p + klen, vlen);
  return p + klen + vlen;
}

bool WholeRecord(const Slice& in, size_t* need) {
  Slice rest = in;
  uint32_t klen = 0, vlen = 0;
  uint64_t ordinal = 0;
  if (!ParseHeader(&rest, &klen, &vlen, &ordinal)) {
    *need = 0;
    return false;
  }
  *need = (in.size() - rest.size()) + size_t(klen) + vlen;
  return *need <= in.size();
}

}  // namespace rh_load
