#include "table/table_meta.h"
#include "table/crc32c_fast.h"

#include "rocksdb/table.h"
#include "table/entry_page.h"
#include "table/layout.h"
#include "table/section_reader.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

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
  for (const SectionHandle* h : EncodedHandles()) h->EncodeTo(dst);
  if (format_version >= kFormatVersionLogTail) {
    PutFixed64(dst, page_entries);
    PutFixed64(dst, tail_capacity);
    PutFixed64(dst, tail_slots);
    tail_index.EncodeTo(dst);
    tail_blocks.EncodeTo(dst);
  }
  PutFixed32(dst, footer_crc);
}

std::vector<const SectionHandle*> TableMeta::EncodedHandles() const {
  if (!HasFilterSection(format_version)) {
    return {&index, &block_table, &sparse_index, &range_dels, &properties,
            &metaindex};
  }
  return {&index,  &block_table, &sparse_index, &range_dels,
          &filter, &properties,  &metaindex};
}

std::vector<const SectionHandle*> TableMeta::Sections() const {
  std::vector<const SectionHandle*> out = EncodedHandles();
  if (has_log_tail()) out.insert(out.begin() + 1, {&tail_index, &tail_blocks});
  return out;
}

TableMeta TableMeta::PagesPart() const {
  TableMeta part = *this;
  part.flags = kPagedLayout;
  part.num_entries = page_entries;
  part.num_keys = page_entries;
  part.log_file_bytes = 0;
  part.log_logical_bytes = 0;
  part.log_block_size = 0;
  part.sparse_interval = 0;
  part.address_bits = 0;
  part.max_displacement = 0;
  part.log_offset = 0;
  return part;
}

TableMeta TableMeta::LogPart() const {
  TableMeta part = *this;
  part.flags = 0;
  part.num_entries = num_entries - page_entries;
  part.num_keys = num_keys - page_entries;
  part.index = tail_index;
  part.block_table = tail_blocks;
  part.index_capacity = tail_capacity;
  part.index_slots = tail_slots;
  return part;
}

std::vector<NamedSection> TableMeta::NamedSections() const {
  const LayoutKind& kind = LayoutKindOf(*this);
  std::vector<NamedSection> out;
  for (const SectionHandle* h : Sections()) {
    const char* name = h == &index           ? kind.index_part
                       : h == &block_table   ? kind.directory_part
                       : h == &tail_index    ? kind.tail_index_part
                       : h == &tail_blocks   ? kind.tail_directory_part
                       : h == &sparse_index  ? "sparse index"
                       : h == &range_dels    ? "range deletions"
                       : h == &filter        ? "filter"
                       : h == &properties    ? "properties"
                                             : "metaindex";
    out.push_back(NamedSection{h, name});
  }
  return out;
}

Status TableMeta::DecodeFrom(const Slice& input, uint64_t file_size,
                             const std::string& file) {
  uint64_t at = MetaHandleOf(file_size, kFormatVersionFilter).offset;
  auto bad = [&](const char* what) {
    return CorruptionAt(file, "meta block", what, at);
  };
  if (input.size() < 4) return bad("wrong size");
  format_version = DecodeFixed32(input.data());
  if (format_version > kFormatVersion || format_version == 0) {
    return Status::NotSupported(file + ": RobinHoodTable format version " +
                                std::to_string(format_version) +
                                " is not supported by this reader (max " +
                                std::to_string(kFormatVersion) + ")");
  }
  at = MetaHandleOf(file_size, format_version).offset;
  if (input.size() != EncodedLength(format_version)) return bad("wrong size");
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
  filter = SectionHandle();
  for (const SectionHandle* h : EncodedHandles()) {
    const_cast<SectionHandle*>(h)->DecodeFrom(&in);
  }
  page_entries = tail_capacity = tail_slots = 0;
  tail_index = tail_blocks = SectionHandle();
  if (format_version >= kFormatVersionLogTail) {
    page_entries = u64();
    tail_capacity = u64();
    tail_slots = u64();
    tail_index.DecodeFrom(&in);
    tail_blocks.DecodeFrom(&in);
  }
  footer_crc = u32();
  log_offset = 0;

  if ((flags & ~(kInlineLayout | kKeyOrderedSlots | kPagedLayout |
                 kLogTail)) != 0 ||
      (flags != 0 && format_version < kFormatVersionInline) ||
      (key_ordered() &&
       (format_version < kFormatVersionKeyOrder || !is_inline())) ||
      (is_paged() &&
       (format_version < kFormatVersionPaged || is_inline())) ||
      (has_log_tail() &&
       (format_version < kFormatVersionLogTail || !is_paged()))) {
    return bad("unknown flags");
  }
  if (!has_log_tail() &&
      (page_entries != 0 || tail_capacity != 0 || tail_slots != 0 ||
       tail_index.offset != 0 || tail_index.size != 0 ||
       tail_blocks.offset != 0 || tail_blocks.size != 0)) {
    return bad("log tail fields in a file without one");
  }
  if (num_keys > num_entries) return bad("more distinct keys than entries");
  if (log_file_bytes > file_size) return bad("log past end of file");
  // The pages' share of the entries, and the log's.
  const uint64_t paged_entries = has_log_tail() ? page_entries : num_entries;
  if (has_log_tail()) {
    // Every page entry is a key of its own, and the log has one at least.
    if (page_entries >= num_keys || num_keys - page_entries > tail_slots) {
      return bad("log tail entry counts");
    }
    if (address_bits < 32 || address_bits > 40 || log_file_bytes == 0) {
      return bad("log tail geometry");
    }
    // The log's hash index, as a log file's below.
    if (tail_capacity == 0 || tail_slots < tail_capacity ||
        tail_slots - tail_capacity > max_displacement + uint64_t{1} ||
        max_displacement >= tail_slots || tail_slots > file_size / 8 ||
        tail_index.size != tail_slots * 8) {
      return bad("log tail index geometry");
    }
  } else if (is_inline() || is_paged()) {
    if (log_file_bytes != 0 || log_logical_bytes != 0 || log_block_size != 0 ||
        address_bits != 0 || num_keys != num_entries) {
      return bad(is_paged() ? "paged file with a log" : "inline file with a log");
    }
  } else if (address_bits < 32 || address_bits > 40) {
    return bad("address bits");
  }
  if (is_paged()) {
    // Whole pages from offset 0, holding every entry (a log tail's file:
    // page_entries); pages of 4 KiB before version 7.
    if (index_capacity == 0 || index_slots != index_capacity ||
        (!has_log_tail() && max_displacement != 0) || index.offset != 0 ||
        index_slots > file_size / kEntryPageMinBytes ||
        index.size % index_slots != 0 ||
        !IsEntryPageSize(index.size / index_slots) ||
        (format_version < kFormatVersionPageSizes &&
         index.size / index_slots != kEntryPageMinBytes) ||
        paged_entries < index_slots ||
        paged_entries > index_slots * EntryPageMaxEntries(page_bytes())) {
      return bad("page geometry");
    }
  } else {
    if (index_capacity == 0 || index_slots < index_capacity ||
        index_slots - index_capacity > max_displacement + uint64_t{1} ||
        num_keys > index_slots) {
      return bad("index geometry");
    }
    if (max_displacement >= index_slots) return bad("max displacement");
    // index_slots * 8 must not wrap around to the right size. An inline
    // file's slot width is in its directory, which checks it.
    if (index_slots > file_size / (is_inline() ? 1 : 8) ||
        (!is_inline() && index.size != index_slots * 8)) {
      return bad("index size");
    }
  }
  // Sections follow the log in a fixed order, each with its trailer; a
  // log tail follows the pages.
  uint64_t pos = has_log_tail() ? 0 : log_file_bytes;
  for (const SectionHandle* h : Sections()) {
    if (h->offset != pos || h->size > file_size ||
        h->end_with_trailer() > file_size) {
      return bad("section out of place");
    }
    pos = h->end_with_trailer();
    if (h == &index && has_log_tail()) {
      log_offset = pos;
      pos += log_file_bytes;  // both at most file_size: no wrap
    }
  }
  if (pos + EncodedLength(format_version) + kTrailerSize + kFooterSize !=
      file_size) {
    return bad("sizes do not add up to the file size");
  }
  return Status::OK();
}

std::string EncodeFooter(const SectionHandle& metaindex,
                         const SectionHandle& meta, uint32_t version) {
  std::string out;
  out.push_back(static_cast<char>(kCRC32c));
  PutVarint64Varint64(&out, metaindex.offset, metaindex.size);
  PutVarint64Varint64(&out, meta.offset, meta.size);
  out.resize(TableFooter::kPaddedHandles, '\0');
  PutFixed32(&out, FooterVersionField(version));
  PutFixed64(&out, kMagicNumber);
  return out;
}

bool DecodeFooter(const Slice& bytes, TableFooter* footer) {
  if (bytes.size() != kFooterSize) return false;
  Slice in(bytes.data() + 1, TableFooter::kPaddedHandles - 1);
  footer->checksum_type = static_cast<uint8_t>(bytes[0]);
  if (!GetVarint64(&in, &footer->metaindex.offset) ||
      !GetVarint64(&in, &footer->metaindex.size) ||
      !GetVarint64(&in, &footer->meta.offset) ||
      !GetVarint64(&in, &footer->meta.size)) {
    return false;
  }
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] != 0) return false;
  }
  footer->format_version = VersionOfFooterField(
      DecodeFixed32(bytes.data() + TableFooter::kPaddedHandles));
  footer->magic = DecodeFixed64(bytes.data() + TableFooter::kPaddedHandles + 4);
  return true;
}

SectionHandle MetaHandleOf(uint64_t file_size, uint32_t version) {
  const uint64_t n = TableMeta::EncodedLength(version);
  return SectionHandle{file_size - kFooterSize - kTrailerSize - n, n};
}

namespace {
// The largest meta block a newer file's footer may name for a reader to
// read it (this version's is 196 bytes).
constexpr uint64_t kMaxNewerMetaBytes = 64 << 10;
}  // namespace

Status ReadTableTail(const SectionReader& file, TableTail* tail) {
  const std::string& fname = file.file_name();
  const uint64_t file_size = file.file_size();
  constexpr uint64_t kMinSize =
      TableMeta::kEncodedLengthV2 + kTrailerSize + kFooterSize;
  if (file_size < kMinSize) {
    return CorruptionAt(fname, "file",
                        "too short (" + std::to_string(file_size) +
                            " bytes) to be a RobinHoodTable file",
                        0);
  }
  const uint64_t footer_offset = file_size - kFooterSize;
  std::string buf;
  Slice bytes;
  Status s = file.ReadRange(footer_offset, kFooterSize, &buf, &bytes);
  if (!s.ok()) return s;
  tail->footer_bytes = bytes.ToString();
  const std::string& footer_bytes = tail->footer_bytes;
  if (DecodeFixed64(footer_bytes.data() + kFooterSize - 8) != kMagicNumber) {
    return CorruptionAt(fname, "footer",
                        "not a RobinHoodTable file (bad magic number)",
                        file_size - 8);
  }
  TableFooter& footer = tail->footer;
  if (!DecodeFooter(footer_bytes, &footer)) {
    return CorruptionAt(fname, "footer", "does not decode", footer_offset);
  }
  if (footer.format_version > kFormatVersion) {
    // A newer file, or a damaged version field. An intact meta block of a
    // version we know in its place (it says its own version) tells them
    // apart.
    for (uint32_t v = 1; v <= kFormatVersion; ++v) {
      Slice known;
      if (file_size < TableMeta::EncodedLength(v) + kTrailerSize +
                          kFooterSize ||
          !file.ReadSection(MetaHandleOf(file_size, v), "meta block", &buf,
                            &known)
               .ok() ||
          DecodeFixed32(known.data()) != v) {
        continue;
      }
      return CorruptionAt(fname, "footer",
                          "format version " +
                              std::to_string(footer.format_version) +
                              " but a version " + std::to_string(v) +
                              " meta block",
                          file_size - 12);
    }
    // A newer file keeps what every version has kept (docs/format.md,
    // "Footer"): the footer names its meta block, right before the footer,
    // whose trailer holds and whose first field is the footer's version.
    // Anything else is damage, not a newer file.
    const SectionHandle& named = footer.meta;
    Slice newer;
    if (named.size < 4 || named.size > kMaxNewerMetaBytes ||
        named.size + kTrailerSize > footer_offset ||
        named.offset != footer_offset - kTrailerSize - named.size ||
        !file.ReadSection(named, "meta block", &buf, &newer).ok() ||
        DecodeFixed32(newer.data()) != footer.format_version) {
      return CorruptionAt(fname, "footer",
                          "format version " +
                              std::to_string(footer.format_version) +
                              " without an intact meta block of it",
                          file_size - 12);
    }
    return Status::NotSupported(fname + ": RobinHoodTable format version " +
                                std::to_string(footer.format_version) +
                                " is newer than this reader's " +
                                std::to_string(kFormatVersion));
  }
  if (footer.format_version == 0 ||
      file_size < TableMeta::EncodedLength(footer.format_version) +
                      kTrailerSize + kFooterSize) {
    return CorruptionAt(fname, "footer", "bad fields", footer_offset);
  }
  const SectionHandle meta_handle =
      MetaHandleOf(file_size, footer.format_version);
  if (footer.checksum_type != kCRC32c ||
      footer.meta.offset != meta_handle.offset ||
      footer.meta.size != meta_handle.size) {
    return CorruptionAt(fname, "footer", "bad fields", footer_offset);
  }

  // The meta block vouches for the footer too.
  Slice meta_bytes;
  s = file.ReadSection(meta_handle, "meta block", &buf, &meta_bytes);
  if (!s.ok()) return s;
  TableMeta& meta = tail->meta;
  s = meta.DecodeFrom(meta_bytes, file_size, fname);
  if (!s.ok()) return s;
  if (meta.format_version != footer.format_version) {
    return CorruptionAt(fname, "footer",
                        "format version " +
                            std::to_string(footer.format_version) +
                            " but a version " +
                            std::to_string(meta.format_version) +
                            " meta block",
                        file_size - 12);
  }
  if (crc32c::Unmask(meta.footer_crc) !=
      Crc32c(footer_bytes.data(), footer_bytes.size())) {
    return CorruptionAt(fname, "footer", "checksum mismatch", footer_offset);
  }
  if (meta.metaindex.offset != footer.metaindex.offset ||
      meta.metaindex.size != footer.metaindex.size) {
    return CorruptionAt(fname, "footer", "disagrees with the meta block",
                        footer_offset);
  }
  return Status::OK();
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
