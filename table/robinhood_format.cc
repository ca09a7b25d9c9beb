#include "table/robinhood_format.h"
#include "table/crc32c_fast.h"

#include "util/coding.h"
#include "util/crc32c.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

namespace {
struct LastCorruption {
  CorruptionRecord fields;
  std::string status_text;  // the Status it made, to recognise it again
};
thread_local LastCorruption last_corruption;
}  // namespace

std::string CorruptionRecord::WithoutFile() const {
  return part + ": " + detail + " at offset " + std::to_string(offset);
}

Status CorruptionAt(const std::string& file, const char* part,
                    const std::string& detail, uint64_t offset) {
  LastCorruption& last = last_corruption;
  last.fields = CorruptionRecord{file, part, detail, offset};
  Status s = Status::Corruption(file + ": " + last.fields.WithoutFile());
  last.status_text = s.ToString();
  return s;
}

const CorruptionRecord* CorruptionFields(const Status& s) {
  const LastCorruption& last = last_corruption;
  if (!s.IsCorruption() || last.status_text != s.ToString()) return nullptr;
  return &last.fields;
}

void AppendTrailerFromCrc(uint32_t contents_crc, CompressionType type,
                          std::string* dst) {
  char type_byte = static_cast<char>(type);
  uint32_t crc = Crc32cExtend(contents_crc, &type_byte, 1);
  dst->push_back(type_byte);
  PutFixed32(dst, crc32c::Mask(crc));
}

void AppendTrailer(const Slice& contents, CompressionType type,
                   std::string* dst) {
  AppendTrailerFromCrc(Crc32c(contents.data(), contents.size()), type,
                       dst);
}

Status VerifyTrailer(const Slice& contents, const char* trailer,
                     const std::string& file, const char* what,
                     uint64_t offset) {
  uint32_t expected = crc32c::Unmask(DecodeFixed32(trailer + 1));
  uint32_t actual = Crc32cExtend(
      Crc32c(contents.data(), contents.size()), trailer, 1);
  if (actual != expected) {
    return CorruptionAt(file, what, "checksum mismatch", offset);
  }
  return Status::OK();
}

void SectionHandle::EncodeTo(std::string* dst) const {
  PutFixed64(dst, offset);
  PutFixed64(dst, size);
}

bool SectionHandle::DecodeFrom(Slice* input) {
  if (input->size() < 16) return false;
  offset = DecodeFixed64(input->data());
  size = DecodeFixed64(input->data() + 8);
  input->remove_prefix(16);
  return true;
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
