#include "table/robinhood_format.h"

#include "util/coding.h"
#include "util/crc32c.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

const char kMetaBlockName[] = "rocksdb.robinhood.meta";
// 7.8.3's TableProperties has no factory name; tools find it here.
const char kPropFactoryName[] = "rocksdb.robinhood.factory";
const char kPropFormatVersion[] = "rocksdb.robinhood.format.version";
const char kPropLoadFactor[] = "rocksdb.robinhood.load.factor";
const char kPropMaxDisplacement[] = "rocksdb.robinhood.max.displacement";
const char kPropMeanDisplacement[] = "rocksdb.robinhood.mean.displacement";
const char kPropIndexBytes[] = "rocksdb.robinhood.index.bytes";
const char kPropDistinctKeys[] = "rocksdb.robinhood.distinct.keys";
const char kPropBuilderPeakBytes[] = "rocksdb.robinhood.builder.peak.bytes";

std::string CorruptionMessage(const std::string& file, const char* what,
                              uint64_t offset) {
  return file + ": " + what + " at offset " + std::to_string(offset);
}

Status CorruptionAt(const std::string& file, const char* part,
                    const std::string& detail, uint64_t offset) {
  return Status::Corruption(CorruptionMessage(
      file, (std::string(part) + ": " + detail).c_str(), offset));
}

void AppendTrailerFromCrc(uint32_t contents_crc, CompressionType type,
                          std::string* dst) {
  char type_byte = static_cast<char>(type);
  uint32_t crc = crc32c::Extend(contents_crc, &type_byte, 1);
  dst->push_back(type_byte);
  PutFixed32(dst, crc32c::Mask(crc));
}

void AppendTrailer(const Slice& contents, CompressionType type,
                   std::string* dst) {
  AppendTrailerFromCrc(crc32c::Value(contents.data(), contents.size()), type,
                       dst);
}

Status VerifyTrailer(const Slice& contents, const char* trailer,
                     const std::string& file, const char* what,
                     uint64_t offset) {
  uint32_t expected = crc32c::Unmask(DecodeFixed32(trailer + 1));
  uint32_t actual = crc32c::Extend(
      crc32c::Value(contents.data(), contents.size()), trailer, 1);
  if (actual != expected) {
    return Status::Corruption(CorruptionMessage(
        file, (std::string(what) + ": checksum mismatch").c_str(), offset));
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

void TableMeta::EncodeTo(std::string* dst) const {
  PutFixed32(dst, format_version);
  PutFixed32(dst, flags);
  PutFixed64(dst, hash_seed);
  PutFixed64(dst, num_entries);
  PutFixed64(dst, num_keys);
  PutFixed64(dst, log_file_bytes);
  PutFixed64(dst, log_logical_bytes);
  PutFixed32(dst, log_block_size);
  PutFixed32(dst, sparse_interval);
  PutFixed64(dst, index_capacity);
  PutFixed64(dst, index_slots);
  PutFixed32(dst, address_bits);
  PutFixed32(dst, max_displacement);
  for (const SectionHandle* h : {&index, &block_table, &sparse_index,
                                 &range_dels, &properties, &metaindex}) {
    h->EncodeTo(dst);
  }
  PutFixed32(dst, footer_crc);
}

Status TableMeta::DecodeFrom(const Slice& input, uint64_t file_size,
                             const std::string& file) {
  auto bad = [&](const char* what) {
    return Status::Corruption(file + ": meta block: " + what);
  };
  if (input.size() != kEncodedLength) return bad("wrong size");
  Slice in = input;
  auto u32 = [&in]() {
    uint32_t v = DecodeFixed32(in.data());
    in.remove_prefix(4);
    return v;
  };
  auto u64 = [&in]() {
    uint64_t v = DecodeFixed64(in.data());
    in.remove_prefix(8);
    return v;
  };
  format_version = u32();
  flags = u32();
  hash_seed = u64();
  num_entries = u64();
  num_keys = u64();
  log_file_bytes = u64();
  log_logical_bytes = u64();
  log_block_size = u32();
  sparse_interval = u32();
  index_capacity = u64();
  index_slots = u64();
  address_bits = u32();
  max_displacement = u32();
  for (SectionHandle* h : {&index, &block_table, &sparse_index, &range_dels,
                           &properties, &metaindex}) {
    h->DecodeFrom(&in);
  }
  footer_crc = u32();

  if (format_version > kFormatVersion || format_version == 0) {
    return Status::NotSupported(file + ": RobinHoodTable format version " +
                                std::to_string(format_version) +
                                " is not supported by this reader (max " +
                                std::to_string(kFormatVersion) + ")");
  }
  if (flags != 0) return bad("unknown flags");
  if (num_keys > num_entries) return bad("more distinct keys than entries");
  if (log_file_bytes > file_size) return bad("log past end of file");
  if (address_bits < 32 || address_bits > 40) return bad("address bits");
  if (index_capacity == 0 || index_slots < index_capacity ||
      index_slots - index_capacity > max_displacement + uint64_t{1} ||
      num_keys > index_slots) {
    return bad("index geometry");
  }
  if (max_displacement >= index_slots) return bad("max displacement");
  // index_slots * 8 must not wrap around to the right size.
  if (index_slots > file_size / 8 || index.size != index_slots * 8) {
    return bad("index size");
  }
  // Sections follow the log in a fixed order, each with its trailer.
  uint64_t pos = log_file_bytes;
  for (const SectionHandle* h : {&index, &block_table, &sparse_index,
                                 &range_dels, &properties, &metaindex}) {
    if (h->offset != pos || h->size > file_size ||
        h->end_with_trailer() > file_size) {
      return bad("section out of place");
    }
    pos = h->end_with_trailer();
  }
  if (pos + kEncodedLength + kTrailerSize + kFooterSize != file_size) {
    return bad("sizes do not add up to the file size");
  }
  return Status::OK();
}

std::string BuildFooter(const SectionHandle& metaindex,
                        const SectionHandle& meta) {
  FooterBuilder footer;
  footer.Build(kMagicNumber, kFormatVersion, meta.end_with_trailer(), kCRC32c,
               BlockHandle(metaindex.offset, metaindex.size),
               BlockHandle(meta.offset, meta.size));
  return footer.GetSlice().ToString();
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
