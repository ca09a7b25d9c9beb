#include "table/properties_section.h"

#include "table/compat.h"
#include "table/ingestion_rules.h"
#include "table/property_block_check.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

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

  std::unique_ptr<TableProperties> props;
  s = compat::ReadProperties(file.file(), BlockHandle(h.offset, h.size),
                             tail.footer, ioptions, &props);
  if (!s.ok()) {
    return CorruptionAt(fname, "properties", s.ToString(), h.offset);
  }
  // The checksum held only with bytes zeroed that RocksDB's parser does not
  // see as the global seqno: damage, not ingestion.
  if (patched_at != 0 &&
      props->external_sst_file_global_seqno_offset != patched_at) {
    return CorruptionAt(fname, "properties", "checksum mismatch", h.offset);
  }
  if (props->num_entries != tail.meta.num_entries) {
    return CorruptionAt(fname, "properties",
                        "disagree with the meta block on entries", h.offset);
  }
  *out = std::move(props);
  return Status::OK();
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
