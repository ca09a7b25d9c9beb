#include "table/properties_section.h"

#include "file/random_access_file_reader.h"
#include "rocksdb/file_system.h"
#include "table/compat.h"
#include "table/ingestion_rules.h"
#include "table/property_block_check.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

namespace {
// The properties block's bytes as read and checked here, served at their
// file offset, so that RocksDB's parser reads exactly those bytes and not
// a second read of the file, which nothing would check (RocksDB verifies
// a checksum there only for footers it knows).
class CheckedBytesFile : public FSRandomAccessFile {
 public:
  CheckedBytesFile(uint64_t offset, const Slice& bytes)
      : offset_(offset), bytes_(bytes.ToString()) {}
  IOStatus Read(uint64_t offset, size_t n, const IOOptions& /*options*/,
                Slice* result, char* /*scratch*/,
                IODebugContext* /*dbg*/) const override {
    if (offset < offset_ || offset - offset_ > bytes_.size() ||
        n > bytes_.size() - (offset - offset_)) {
      return IOStatus::Corruption("read outside the checked properties");
    }
    *result = Slice(bytes_.data() + (offset - offset_), n);
    return IOStatus::OK();
  }

 private:
  const uint64_t offset_;
  const std::string bytes_;
};
}  // namespace

Status ReadPropertiesSection(const SectionReader& file, const TableTail& tail,
                             const ImmutableOptions& ioptions,
                             std::unique_ptr<TableProperties>* out) {
  const SectionHandle& h = tail.meta.properties;
  const std::string& fname = file.file_name();
  std::string buf;
  Slice raw;
  Status s = file.ReadRange(h.offset, h.size + kTrailerSize, &buf, &raw);
  if (!s.ok()) return s;
  const Slice contents(raw.data(), h.size);
  uint64_t patched_at = 0;
  s = VerifyPropertiesChecksum(contents, raw.data() + h.size, fname, h.offset,
                               &patched_at);
  if (!s.ok()) return s;
  s = CheckPropertyBlock(contents);
  if (!s.ok()) return CorruptionAt(fname, "properties", s.getState(), h.offset);

  RandomAccessFileReader checked(
      std::unique_ptr<FSRandomAccessFile>(new CheckedBytesFile(h.offset, raw)),
      fname);
  std::unique_ptr<TableProperties> props;
  s = compat::ReadProperties(&checked, BlockHandle(h.offset, h.size),
                             contents, tail.footer_bytes,
                             file.file_size() - kFooterSize, ioptions, &props);
  if (!s.ok()) {
    return CorruptionAt(fname, "properties", s.ToString(), h.offset);
  }
  // The checksum held only with bytes zeroed that RocksDB's parser does not
  // see as the global seqno: damage, not ingestion.
  if (patched_at != 0 &&
      props->external_sst_file_global_seqno_offset != patched_at) {
    return CorruptionAt(fname, "properties", "checksum mismatch", h.offset);
  }
  // num_entries counts the log's entries and the range deletions, as
  // BlockBasedTable's does. Older files may count the log's only: read them
  // by the same rule, so RocksDB (9.x checks compaction input counts
  // against it) sees one meaning.
  const uint64_t log_entries = tail.meta.num_entries;
  if (props->num_entries == log_entries && props->num_range_deletions > 0) {
    props->num_entries += props->num_range_deletions;
    props->num_deletions += props->num_range_deletions;
  } else if (props->num_range_deletions > props->num_entries ||
             props->num_entries - props->num_range_deletions != log_entries) {
    return CorruptionAt(fname, "properties",
                        "disagree with the meta block on entries", h.offset);
  }
  *out = std::move(props);
  return Status::OK();
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
