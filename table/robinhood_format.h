// The fixed parts of a RobinHoodTable file: magic number, format version,
// section trailers and handles, and the one shape of its corruption
// errors. The meta block and footer are in table_meta.h. docs/format.md
// draws the whole file.
//
//   [log block 0] ... [log block n-1]      entries (log_entry.h), each block
//                                           followed by a 5-byte trailer
//   [hash index][trailer]                   slots (hash_index.h)
//   [block table][trailer]                  block sizes (block_table.h)
//   [sparse index][trailer]                 ordered keys (sparse_index.h)
//   [range deletions][trailer]              tombstones (docs/format.md,
//                                           "Range deletions")
//   [filter][trailer]                       optional (filter_section.h;
//                                           version 3 on)
//   [properties][trailer]                   RocksDB's standard block
//   [metaindex][trailer]                    RocksDB's standard block
//   [meta][trailer]                         TableMeta, below
//   [footer]                                RocksDB's 53-byte footer
//
// Trailer (5 bytes), after every block and section:
//   +------------------+--------------------------------------------+
//   | type: 1 byte     | crc: fixed32 LE, masked CRC32C of the      |
//   | (CompressionType)|      contents followed by the type byte    |
//   +------------------+--------------------------------------------+
// A BlockHandle names the contents only; the trailer follows it.
//
// The footer is RocksDB's (table/format.h), so RocksDB's own readers
// (ReadTableProperties, sst_dump's property dump) find the metaindex and the
// properties. Its "index handle" points at our meta block, whose trailer
// guards it and which in turn holds the CRC32C of the footer's 53 bytes.
#pragma once

#include <cstdint>
#include <string>

#include "rocksdb/compression_type.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "table/format.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

// "RobinHoo" "d-table" in ASCII would not fit; these are the bytes of
// "rh-table" (0x72 0x68 0x2d 0x74 0x61 0x62 0x6c 0x65) read as a little-endian
// uint64, chosen to differ from every RocksDB magic number.
constexpr uint64_t kMagicNumber = 0x656c6261742d6872ULL;

// Our format version. Files of a greater version are refused.
//   1: the footer's format_version field holds a plain 1, which RocksDB's
//      own footer decoder accepts.
//   2: the field holds kFooterVersionTag | 2, which every RocksDB refuses.
//      RocksDB reads the properties of a table missing from its table cache
//      with its own reader (Version::GetTableProperties), which takes the
//      footer's metaindex handle and parses the blocks it names with no
//      checksum for magic numbers not its own: one bit flipped in the footer
//      makes release builds parse arbitrary bytes as a block and crash
//      (CompactionReadFaultTest, on 9.11.2). Its callers treat a refusal as
//      missing statistics; only our reader parses our files.
//   3: the meta block holds a seventh handle, the filter section's
//      (filter_section.h), before the properties; it is empty in a file
//      without a filter. Versions 1 and 2 stay readable.
//   4: inline files may have their slots in key order (meta block flag
//      kKeyOrderedSlots, key_order_model.h). Only such files are written
//      as version 4; the builder writes every other file as version 3, so
//      that readers of version 3 still read them.
//   5: an inline file's slots lie in pages of 4096 bytes, each holding its
//      own checksum (SlotPages, inline_table.h), so a lookup reads one
//      device page; its directory's head checks itself, so opening reads
//      the head only (inline_directory.h). The builder writes every inline
//      file as version 5.
//   6: the paged layout (meta block flag kPagedLayout, paged_layout.h):
//      compacted puts too long for a slot, in key order in pages of 4096
//      bytes, found through a page index. Only paged files are version 6;
//      the builder writes every log file as version 3.
//   7: a paged file's pages may be larger than 4096 bytes, a power of two
//      up to 65536 (entry_page.h): the pages' section size over their
//      count. Only paged files of larger pages are version 7.
//   8: a paged file may end in a log (meta block flag kLogTail): the
//      builder writes pages as they fill, and entries from the first one
//      that no page takes on go to a log after the pages, with its own
//      hash index. Only such files are version 8.
//   9: an inline file's key order model may map bytes to digits of the
//      values its keys use (inline directory shape bit 3,
//      key_order_model.h), for keys such as zero-padded decimal counters.
//      Only inline files with such a map are version 9.
//  10: the digit map may read up to 32 positions, not 8 (a long map, for
//      keys whose first bytes vary little). Only inline files with a map
//      of more than 8 positions are version 10.
//  11: an inline file's slots in key order may leave out the prefix every
//      key shares, the model's (inline directory shape bit 4): a slot's key
//      field holds the rest. Only inline files that leave it out are
//      version 11.
// Each version by what it brought; kFormatVersion is the newest.
constexpr uint32_t kFormatVersionInline = 2;  // and the tagged footer
constexpr uint32_t kFormatVersionFilter = 3;
constexpr uint32_t kFormatVersionKeyOrder = 4;
constexpr uint32_t kFormatVersionAlignedPages = 5;
constexpr uint32_t kFormatVersionPaged = 6;
constexpr uint32_t kFormatVersionPageSizes = 7;
constexpr uint32_t kFormatVersionLogTail = 8;
constexpr uint32_t kFormatVersionDigitMap = 9;
constexpr uint32_t kFormatVersionLongDigitMap = 10;
constexpr uint32_t kFormatVersionElidedPrefix = 11;
constexpr uint32_t kFormatVersion = kFormatVersionElidedPrefix;
// What the builder writes a log file as, an inline file and a paged one.
constexpr uint32_t kFormatVersionLogFile = kFormatVersionFilter;
constexpr uint32_t kFormatVersionInlineFile = kFormatVersionAlignedPages;
constexpr uint32_t kFormatVersionPagedFile = kFormatVersionPaged;
// Whether files of `version` have a filter section (and its handle in the
// meta block).
constexpr bool HasFilterSection(uint32_t version) {
  return version >= kFormatVersionFilter;
}
// "RH" in the two high bytes: a value more than one bit flip away from every
// format version RocksDB knows (0 to 7 as of 11.x, and the next thousands).
constexpr uint32_t kFooterVersionTag = 0x52480000;

// The footer's format_version field for our format version `v`, and back:
// the version a field names, 0 if it names none.
inline uint32_t FooterVersionField(uint32_t v) {
  return v == 1 ? 1 : (kFooterVersionTag | v);
}
inline uint32_t VersionOfFooterField(uint32_t field) {
  if (field == 1) return 1;
  if ((field & 0xffff0000u) != kFooterVersionTag) return 0;
  const uint32_t v = field & 0xffffu;
  return v >= 2 ? v : 0;
}

constexpr size_t kTrailerSize = 1 + 4;  // type byte + masked crc32c

// Whether reads check the checksums of the log blocks and pages of slots
// they take from the file: always, whatever ReadOptions::verify_checksums
// says. Unchecked, a damaged raw block or page answers wrongly (db_stress,
// which reads with verify_checksums=false, read a flipped bit as a value),
// and no option may buy a wrong answer. With mmap a block or page is
// checked on its first read and then trusted, so it costs once; without
// mmap a lookup reads and checks its whole block or page.
constexpr bool kVerifyReads = true;
// RocksDB's compressed-block framing (a varint32 of the uncompressed size
// before the codec's data, where the codec lacks one), as in block-based
// tables of format_version >= 2.
constexpr uint32_t kCompressFormatVersion = 2;
// RocksDB's footer length for its table format versions 1 to 5; ours has
// that layout (table_meta.h).
constexpr size_t kFooterSize = 53;

// A compressed log block holds at most this many times its stored contents
// once decompressed. Readers refuse larger claims, so no file can make a
// read allocate more than this multiple of what it stores; the builder
// stores a block raw rather than exceed it (only runs of one byte do).
constexpr uint64_t kMaxCompressionRatio = 1024;

// Our user-collected properties' names are public:
// RobinHoodTablePropertyNames in rocksdb_robinhood/robinhood_table.h.

// Writes the trailer for `contents` (type byte and masked CRC) to `dst`.
void AppendTrailer(const Slice& contents, CompressionType type,
                   std::string* dst);
// Same, for contents whose unmasked CRC32C was computed incrementally.
void AppendTrailerFromCrc(uint32_t contents_crc, CompressionType type,
                          std::string* dst);

// Checks `trailer` (kTrailerSize bytes) against `contents`. `what` and
// `offset` name the section in the error, e.g. "hash index" at 1234.
Status VerifyTrailer(const Slice& contents, const char* trailer,
                     const std::string& file, const char* what,
                     uint64_t offset);

// The handle of a section: offset and size of its contents.
struct SectionHandle {
  uint64_t offset = 0;
  uint64_t size = 0;

  void EncodeTo(std::string* dst) const;
  bool DecodeFrom(Slice* input);
  uint64_t end_with_trailer() const { return offset + size + kTrailerSize; }
};

// The one shape of a corruption error: "<file>: <part>: <detail> at offset
// <offset>", `offset` being where in the file the damage was seen (or the
// start of the part that holds it).
Status CorruptionAt(const std::string& file, const char* part,
                    const std::string& detail, uint64_t offset);

// The fields of a corruption error. A Status carries only text, so tools
// (rh_inspect) that want the part and offset ask CorruptionFields instead
// of parsing the message.
struct CorruptionRecord {
  std::string file;
  std::string part;
  std::string detail;
  uint64_t offset = 0;
  // "<part>: <detail> at offset <offset>": the message without the file.
  std::string WithoutFile() const;
};
// The fields of `s`, if the calling thread's most recent CorruptionAt made
// it (reads report damage on the thread that read); else null.
const CorruptionRecord* CorruptionFields(const Status& s);

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
