// The meta block and the footer: the end of every RocksDB table file, read
// first and once by the reader (ReadTableTail), and written last by the
// builder.
//
//   ...[meta block: TableMeta, 196 bytes][trailer: 5][footer: 53]
// (180 bytes in format versions 1 and 2, which have no filter handle; 252
// from version 8 on)
//
// The footer has the layout of RocksDB's (table/format.h) with our magic
// number. Its "index handle" points at the meta block, whose trailer guards
// it and which in turn holds the CRC32C of the footer's 53 bytes: every byte
// of the tail is checksummed. Since format version 2 its version field keeps
// RocksDB's own readers out (robinhood_format.h says why).
//
// Byte layout: docs/format.md, "Meta block" and "Footer (53 bytes)".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "table/robinhood_format.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

class SectionReader;

// The meta block: everything a reader needs to interpret the other sections.
// Fixed layout, all fields little-endian:
//   format_version        fixed32
//   flags                 fixed32   bit 0: kInlineLayout (version 2 on);
//                                   bit 1: kKeyOrderedSlots (version 4
//                                   on, inline files only);
//                                   bit 2: kPagedLayout (version 6 on);
//                                   other bits reserved, 0
//   hash_seed             fixed64
//   num_entries           fixed64   entries in the log
//   num_keys              fixed64   distinct user keys (= used index slots)
//   log_file_bytes        fixed64   log size in the file, trailers included
//   log_logical_bytes     fixed64   sum of uncompressed block contents
//   log_block_size        fixed32   target block size it was written with
//   sparse_interval       fixed32
//   index_capacity        fixed64   home slots
//   index_slots           fixed64   home slots + overflow slots
//   address_bits          fixed32   32..40 (0 in inline files)
//   max_displacement      fixed32
//   index, block_table, sparse_index, range_dels, [filter], properties,
//   metaindex:            6 or 7 x (fixed64 offset, fixed64 size); the
//                         filter's only from version 3 on (filter_section.h;
//                         size 0: no filter)
//   version 8 on:
//   page_entries          fixed64   entries in the pages (kLogTail)
//   tail_capacity         fixed64   the log's hash index: home slots
//   tail_slots            fixed64   home slots + overflow slots
//   tail_index, tail_blocks: 2 x (fixed64 offset, fixed64 size): the
//                         log's hash index and block table
//                         (all 0 without kLogTail)
//   footer_crc            fixed32   masked CRC32C of the 53 footer bytes
// The sections lie in the file in this order (Sections()), each after the
// previous one's trailer; a paged file with a log tail has the pages, the
// log, tail_index and tail_blocks, then block_table and the rest.
// Inline files (inline_table.h) have no log: log_file_bytes,
// log_logical_bytes, log_block_size and address_bits are 0, every entry is
// a distinct key (num_keys = num_entries), `index` holds the slots and
// `block_table` the inline directory.
constexpr uint32_t kInlineLayout = 1;
// Version 4 on, with kInlineLayout: the slots are in key order.
constexpr uint32_t kKeyOrderedSlots = 2;
// Version 6 on: entries in pages (paged_layout.h). Such files have no log
// either: the log fields are 0, num_keys = num_entries, `index` holds the
// pages (index_slots = index_capacity = their count, max_displacement 0)
// and `block_table` the page index.
constexpr uint32_t kPagedLayout = 4;
// Version 8 on, with kPagedLayout: the pages are followed by a log of the
// file's last entries, from the first that no page took (a longer entry,
// or one that is not a compacted put), found through its own hash index.
// index, index_capacity, index_slots and block_table describe the pages
// (page_entries of the entries, each a distinct key, all before the log's
// keys); the log fields, address_bits, max_displacement, sparse_interval
// and sparse_index the log, which starts right after the pages' trailer,
// tail_index and tail_blocks its hash index and block table. num_entries
// and num_keys count both parts.
constexpr uint32_t kLogTail = 8;

struct NamedSection {
  const SectionHandle* handle;
  const char* name;
};

struct TableMeta {
  uint32_t format_version = kFormatVersionLogFile;
  uint32_t flags = 0;
  uint64_t hash_seed = 0;
  uint64_t num_entries = 0;
  uint64_t num_keys = 0;
  uint64_t log_file_bytes = 0;
  uint64_t log_logical_bytes = 0;
  uint32_t log_block_size = 0;
  uint32_t sparse_interval = 0;
  uint64_t index_capacity = 0;
  uint64_t index_slots = 0;
  uint32_t address_bits = 0;
  uint32_t max_displacement = 0;
  SectionHandle index;
  SectionHandle block_table;
  SectionHandle sparse_index;
  SectionHandle range_dels;
  SectionHandle properties;
  SectionHandle metaindex;
  SectionHandle filter;  // version 3 on
  // Version 8 on: a log tail's (kLogTail).
  uint64_t page_entries = 0;
  uint64_t tail_capacity = 0;
  uint64_t tail_slots = 0;
  SectionHandle tail_index;
  SectionHandle tail_blocks;
  uint32_t footer_crc = 0;
  // Not encoded: where the log starts in the file (after a log tail's
  // pages; 0 otherwise). Set by DecodeFrom.
  uint64_t log_offset = 0;

  // Versions 1 and 2; version 3 adds the filter handle (versions 3 to 7),
  // version 8 the log tail's fields.
  static constexpr size_t kEncodedLengthV2 = 4 * 2 + 8 * 5 + 4 * 2 + 8 * 2 +
                                             4 * 2 + 6 * 16 + 4;
  static constexpr size_t kEncodedLength = kEncodedLengthV2 + 16;
  static constexpr size_t kEncodedLengthV8 = kEncodedLength + 3 * 8 + 2 * 16;
  static size_t EncodedLength(uint32_t version) {
    return version >= kFormatVersionLogTail ? kEncodedLengthV8
           : HasFilterSection(version)      ? kEncodedLength
                                            : kEncodedLengthV2;
  }

  bool is_inline() const { return (flags & kInlineLayout) != 0; }
  bool key_ordered() const { return (flags & kKeyOrderedSlots) != 0; }
  bool is_paged() const { return (flags & kPagedLayout) != 0; }
  bool has_log_tail() const { return (flags & kLogTail) != 0; }
  // Where the log ends in the file.
  uint64_t log_end() const { return log_offset + log_file_bytes; }
  // A log tail file's parts, each as a file of that layout alone would
  // describe it, for the layouts that read them (paged_log_layout.h).
  // REQUIRES: has_log_tail(), decoded.
  TableMeta PagesPart() const;
  TableMeta LogPart() const;
  // A paged file's page size (entry_page.h), once Decode has checked it.
  uint32_t page_bytes() const {
    return index_slots == 0 ? 0 : static_cast<uint32_t>(index.size / index_slots);
  }
  // The section handles in file order for this version and layout.
  std::vector<const SectionHandle*> Sections() const;
  // The handles of every version's meta block, in encoding order (a log
  // tail's two follow them).
  std::vector<const SectionHandle*> EncodedHandles() const;
  // The same, each with the name errors give its part in this file's
  // layout (layout.h): a log file's `index` is its "hash index", an inline
  // file's its "inline slots".
  std::vector<NamedSection> NamedSections() const;

  void EncodeTo(std::string* dst) const;
  // Decodes and checks every invariant that does not need the other
  // sections: versions, sizes adding up, sections inside `file_size`.
  Status DecodeFrom(const Slice& input, uint64_t file_size,
                    const std::string& file);
};

// The footer, kFooterSize (53) bytes: RocksDB's layout for its table
// format versions 1 to 5 (table/format.h), written and decoded by our own
// code (RocksDB 11.0's encoder asserts on magic numbers it does not know).
// Version 1 files carry a plain 1 in the version field, which RocksDB's
// decoder accepts; version 2 files carry FooterVersionField(2), which every
// RocksDB refuses, so only our reader parses the blocks the footer names.
//   checksum_type    1 byte     kCRC32c (1)
//   metaindex        varint64 offset, varint64 size
//   meta block       varint64 offset, varint64 size  (RocksDB's index handle)
//   padding          zeros up to byte 41
//   format_version   fixed32    FooterVersionField(version): 1, 0x52480002
//   magic            fixed64    kMagicNumber
struct TableFooter {
  uint8_t checksum_type = 0;
  SectionHandle metaindex;
  SectionHandle meta;
  uint32_t format_version = 0;  // decoded: 0 if the field names none
  uint64_t magic = 0;

  static constexpr size_t kPaddedHandles = 41;  // up to format_version
};
std::string EncodeFooter(const SectionHandle& metaindex,
                         const SectionHandle& meta,
                         uint32_t version = kFormatVersionLogFile);
// False if `bytes` is not kFooterSize long, a handle does not decode, or
// the padding is not zeros.
bool DecodeFooter(const Slice& bytes, TableFooter* footer);

// Where the meta block of a file of `file_size` bytes and format version
// `version` lies.
SectionHandle MetaHandleOf(uint64_t file_size, uint32_t version);

// The tail of an open file: the decoded meta block, and the footer (its
// bytes too, which RocksDB's property reader wants before 10.2).
struct TableTail {
  TableMeta meta;
  std::string footer_bytes;
  TableFooter footer;
};

// Reads and checks the footer and the meta block: the magic number, the
// format version (NotSupported for a newer file, Corruption for a damaged
// version field), the meta block's checksum and invariants, and the
// footer's CRC in the meta block.
Status ReadTableTail(const SectionReader& file, TableTail* tail);

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
