#include "table/ingestion_rules.h"

#include "table/robinhood_format.h"
#include "table/sst_file_writer_collectors.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

Status VerifyPropertiesChecksum(const Slice& contents, const char* trailer,
                                const std::string& file, uint64_t offset,
                                uint64_t* patched_at) {
  *patched_at = 0;
  Status s = VerifyTrailer(contents, trailer, file, "properties", offset);
  if (s.ok()) return s;
  // Keys are stored after the bytes they share with the previous key, so
  // look for the end of the name; the 8-byte value follows it. RocksDB's
  // parser must not see the block before a checksum holds, so this finds
  // the value itself; the caller then requires the parser to agree.
  const std::string& name = ExternalSstFilePropertyNames::kGlobalSeqno;
  const std::string tail = name.substr(name.rfind('.') + 1);
  const std::string str = contents.ToString();
  for (size_t pos = str.find(tail); pos != std::string::npos;
       pos = str.find(tail, pos + 1)) {
    const size_t value_at = pos + tail.size();
    if (value_at + 8 > str.size()) break;
    std::string copy = str;
    EncodeFixed64(&copy[value_at], 0);
    if (VerifyTrailer(copy, trailer, file, "properties", offset).ok()) {
      *patched_at = offset + value_at;
      return Status::OK();
    }
  }
  return s;
}

Status GlobalSeqnoOf(const TableProperties& props,
                     SequenceNumber largest_seqno, const std::string& file,
                     uint64_t offset, SequenceNumber* global_out) {
  const auto& user = props.user_collected_properties;
  auto version = user.find(ExternalSstFilePropertyNames::kVersion);
  auto seqno = user.find(ExternalSstFilePropertyNames::kGlobalSeqno);
  *global_out = kDisableGlobalSequenceNumber;
  auto bad = [&](const std::string& what) {
    return CorruptionAt(file, "properties", what, offset);
  };
  if (version == user.end()) {
    if (seqno != user.end()) return bad("global seqno in a non-external file");
    return Status::OK();
  }
  if (version->second.size() < 4) return bad("bad external file version");
  if (DecodeFixed32(version->second.data()) < 2) {
    if (seqno != user.end()) return bad("global seqno in a version 1 file");
    return Status::OK();
  }
  SequenceNumber global = 0;
  if (seqno != user.end()) {
    if (seqno->second.size() < 8) return bad("bad global seqno property");
    global = DecodeFixed64(seqno->second.data());
  }
  if (largest_seqno < kMaxSequenceNumber) {
    if (global == 0) global = largest_seqno;
    if (global != largest_seqno) {
      return bad("global seqno " + std::to_string(global) +
                 " differs from the largest seqno " +
                 std::to_string(largest_seqno));
    }
  }
  if (global > kMaxSequenceNumber) return bad("global seqno out of range");
  *global_out = global;
  return Status::OK();
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
