#include "tests/fuzz/rechecksum.h"

#include <algorithm>
#include <cstdint>

#include "table/entry_page.h"
#include "table/inline_directory.h"
#include "table/robinhood_format.h"
#include "table/table_meta.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace rh_fuzz {

using ROCKSDB_NAMESPACE::DecodeFixed64;
using ROCKSDB_NAMESPACE::EncodeFixed32;
using ROCKSDB_NAMESPACE::GetVarint64;
using ROCKSDB_NAMESPACE::Slice;
using ROCKSDB_NAMESPACE::robinhood::kFooterSize;
using ROCKSDB_NAMESPACE::robinhood::kTrailerSize;
using ROCKSDB_NAMESPACE::robinhood::TableMeta;
namespace crc32c = ROCKSDB_NAMESPACE::crc32c;

namespace {

// Field offsets in the meta block (robinhood_format.h). Decoded here by hand
// because TableMeta::DecodeFrom refuses exactly the damaged metas whose
// sections we still want to re-checksum.
constexpr size_t kFlagsAt = 4;
constexpr size_t kLogFileBytesAt = 32;
constexpr size_t kIndexSlotsAt = 64;
constexpr size_t kHandlesAt = 80;
constexpr size_t kNumHandles = 7;  // format version 3: the filter's too
constexpr size_t kBlockTableHandle = 1;  // index, block table, sparse, ...
constexpr size_t kFooterCrcAt = kHandlesAt + kNumHandles * 16;
static_assert(kFooterCrcAt + 4 == TableMeta::kEncodedLength,
              "meta block layout changed: update the offsets above");
// Version 8 on: a log tail's handles after the seven (page_entries and the
// log's index geometry first), the footer's CRC after them.
constexpr size_t kTailIndexAt = kFooterCrcAt + 3 * 8;
constexpr size_t kTailBlocksAt = kTailIndexAt + 16;
constexpr size_t kFooterCrcAtV8 = kTailBlocksAt + 16;
static_assert(kFooterCrcAtV8 + 4 == TableMeta::kEncodedLengthV8,
              "version 8's meta block changed: update the offsets above");

// True if [offset, offset + n) lies inside [0, limit); overflow-safe.
bool Fits(uint64_t offset, uint64_t n, uint64_t limit) {
  return offset <= limit && n <= limit - offset;
}

// Rewrites the trailer after the `size` bytes at `offset`, if all of it
// fits in the file.
bool FixTrailer(std::string* f, uint64_t offset, uint64_t size) {
  if (!Fits(offset, size, f->size()) ||
      !Fits(offset + size, kTrailerSize, f->size())) {
    return false;
  }
  char* p = &(*f)[0] + offset;
  const uint32_t crc =
      crc32c::Extend(crc32c::Value(p, static_cast<size_t>(size)), p + size, 1);
  EncodeFixed32(p + size + 1, crc32c::Mask(crc));
  return true;
}

}  // namespace

size_t Rechecksum(std::string* file) {
  if (file->size() < kFooterSize) return 0;
  // The footer's version says the meta block's length (version 8's is
  // longer).
  const uint32_t version =
      ROCKSDB_NAMESPACE::robinhood::VersionOfFooterField(
          ROCKSDB_NAMESPACE::DecodeFixed32(file->data() + file->size() - 12));
  const bool v8 =
      version >= ROCKSDB_NAMESPACE::robinhood::kFormatVersionLogTail;
  const uint64_t meta_len =
      v8 ? TableMeta::kEncodedLengthV8 : TableMeta::kEncodedLength;
  const uint64_t footer_crc_at = v8 ? kFooterCrcAtV8 : kFooterCrcAt;
  const uint64_t kTail = meta_len + kTrailerSize + kFooterSize;
  if (file->size() < kTail) return 0;
  // The reader insists the meta block ends where the footer starts.
  const uint64_t meta_at = file->size() - kTail;
  // A copy: trailers fixed below may land on the meta block if it lies.
  const std::string meta = file->substr(meta_at, meta_len);
  auto meta_u64 = [&](size_t at) { return DecodeFixed64(meta.data() + at); };
  size_t fixed = 0;

  // Log blocks, contiguous from 0, as the block table lists them. A copy of
  // the table, since fixing trailers could overwrite it if it lies.
  const uint64_t bt_offset = meta_u64(kHandlesAt + kBlockTableHandle * 16);
  const uint64_t bt_size = meta_u64(kHandlesAt + kBlockTableHandle * 16 + 8);
  // Blocks stay below the meta block, and below the claimed log end when
  // that is sane, as the reader wants them.
  uint64_t log_end = meta_u64(kLogFileBytesAt);
  if (log_end > meta_at) log_end = meta_at;
  const uint32_t flags = ROCKSDB_NAMESPACE::DecodeFixed32(meta.data() + kFlagsAt);
  const bool inline_layout = (flags & ROCKSDB_NAMESPACE::robinhood::kInlineLayout) != 0;
  const bool paged = (flags & ROCKSDB_NAMESPACE::robinhood::kPagedLayout) != 0;
  if (paged && !inline_layout) {
    // Paged file (entry_page.h): each page's CRC in its last 4 bytes, for
    // the pages the meta block claims.
    const uint64_t pages_offset = meta_u64(kHandlesAt);
    const uint64_t pages_size = meta_u64(kHandlesAt + 8);
    // The page size, as the reader derives it: the section over the count.
    const uint64_t count = meta_u64(kIndexSlotsAt);
    const uint64_t kPage =
        count != 0 && pages_size % count == 0 &&
                ROCKSDB_NAMESPACE::robinhood::IsEntryPageSize(pages_size / count)
            ? pages_size / count
            : ROCKSDB_NAMESPACE::robinhood::kEntryPageMinBytes;
    for (uint64_t at = pages_offset; at - pages_offset + kPage <= pages_size;
         at += kPage) {
      if (!Fits(at, kPage, file->size())) break;
      const uint32_t c = crc32c::Mask(
          crc32c::Value(file->data() + at, static_cast<size_t>(kPage - 4)));
      EncodeFixed32(&(*file)[at + kPage - 4], c);
      ++fixed;
    }
    // A log tail (version 8): its blocks from the pages' trailer on, as
    // its own block table lists them.
    if (v8 && (flags & ROCKSDB_NAMESPACE::robinhood::kLogTail) != 0) {
      const uint64_t tb_offset = meta_u64(kTailBlocksAt);
      const uint64_t tb_size = meta_u64(kTailBlocksAt + 8);
      uint64_t pos = pages_offset + pages_size + kTrailerSize;
      const uint64_t log_bytes = meta_u64(kLogFileBytesAt);
      const uint64_t limit =
          Fits(pos, log_bytes, meta_at) ? pos + log_bytes : meta_at;
      if (pos >= pages_offset && Fits(tb_offset, tb_size, file->size())) {
        const std::string table = file->substr(tb_offset, tb_size);
        Slice in(table);
        uint64_t count = 0;
        if (GetVarint64(&in, &count)) {
          for (uint64_t i = 0; i < count; ++i) {
            uint64_t stored = 0, logical = 0;
            if (!GetVarint64(&in, &stored) || !GetVarint64(&in, &logical)) {
              break;
            }
            if (stored < kTrailerSize || pos > limit ||
                !Fits(pos, stored, limit)) {
              break;
            }
            fixed += FixTrailer(file, pos, stored - kTrailerSize);
            pos += stored;
          }
        }
      }
    }
  } else if (inline_layout) {
    // Inline file (inline_table.h): the directory's page checksums, over
    // the slots, with the widths the directory claims.
    const uint64_t slots_offset = meta_u64(kHandlesAt);
    const uint64_t slots_size = meta_u64(kHandlesAt + 8);
    const uint64_t slots = meta_u64(kIndexSlotsAt);
    const uint32_t version = ROCKSDB_NAMESPACE::DecodeFixed32(meta.data());
    const bool crc_in_page =
        version >= ROCKSDB_NAMESPACE::robinhood::kFormatVersionAlignedPages;
    if (Fits(bt_offset, bt_size, file->size()) && bt_size >= 20 &&
        Fits(slots_offset, slots_size, file->size()) && slots > 0) {
      const char* dir = file->data() + bt_offset;
      // The slots' geometry, from the directory's shape (inline_directory.h)
      // and the version, as the reader derives it.
      ROCKSDB_NAMESPACE::robinhood::InlineShape shape;
      shape.key_width = ROCKSDB_NAMESPACE::DecodeFixed32(dir);
      shape.value_width = ROCKSDB_NAMESPACE::DecodeFixed32(dir + 4);
      const uint32_t bits = ROCKSDB_NAMESPACE::DecodeFixed32(dir + 8);
      shape.var_key = (bits & ROCKSDB_NAMESPACE::robinhood::kShapeVarKey) != 0;
      shape.var_value = (bits & ROCKSDB_NAMESPACE::robinhood::kShapeVarValue) != 0;
      // The page checksums (or the head's) follow the header, and in key
      // order the model (key_order_model.h): prefix_len, shift, buckets,
      // base, (buckets + 1) starts, the prefix, and with shape bit 3 a
      // digit map: positions, then 32 bytes a position.
      uint64_t crcs_at = ROCKSDB_NAMESPACE::robinhood::kInlineDirectoryHeader;
      if ((bits & ROCKSDB_NAMESPACE::robinhood::kShapeKeyOrdered) != 0 && bt_size >= crcs_at + 20) {
        const uint64_t prefix_len = ROCKSDB_NAMESPACE::DecodeFixed32(dir + crcs_at);
        const uint64_t buckets = ROCKSDB_NAMESPACE::DecodeFixed32(dir + crcs_at + 8);
        // Shape bit 4: the slots' key fields leave the prefix out (a
        // prefix longer than the keys is refused before the geometry).
        if ((bits & ROCKSDB_NAMESPACE::robinhood::kShapeElidedPrefix) != 0 &&
            prefix_len <= shape.key_width) {
          shape.key_width -= static_cast<uint32_t>(prefix_len);
        }
        crcs_at += 20 + (buckets + 1) * 4 + prefix_len;  // past bt_size if it lies
        if ((bits & ROCKSDB_NAMESPACE::robinhood::kShapeDigitMap) != 0 &&
            crcs_at + 4 <= bt_size) {
          const uint64_t positions = ROCKSDB_NAMESPACE::DecodeFixed32(dir + crcs_at);
          crcs_at += 4 + positions * 32;  // past bt_size if it lies
        }
      }
      // Widths past a byte are refused by the reader before it derives
      // the geometry; they could wrap the slot width to zero here.
      if (shape.key_width <= 255 && shape.value_width <= 255) {
        const ROCKSDB_NAMESPACE::robinhood::SlotPages paging =
            ROCKSDB_NAMESPACE::robinhood::SlotPages::Of(shape, version);
        const uint64_t pages = paging.Pages(slots);
        for (uint64_t pg = 0; pg < pages; ++pg) {
          const uint64_t at = slots_offset + paging.PageOffset(pg);
          const uint64_t bytes = paging.PageBytes(pg, slots);
          // Version 5: a page's CRC is its last 4 bytes, over the rest.
          const uint64_t covered = crc_in_page ? bytes - 4 : bytes;
          if (!Fits(at, bytes, file->size())) break;
          const uint32_t c = crc32c::Mask(crc32c::Value(file->data() + at, static_cast<size_t>(covered)));
          if (crc_in_page) {
            EncodeFixed32(&(*file)[at + covered], c);
          } else {
            if (crcs_at + pg * 4 + 4 > bt_size) break;
            EncodeFixed32(&(*file)[bt_offset + crcs_at + pg * 4], c);
          }
          ++fixed;
        }
      }
      if (crc_in_page && crcs_at + 4 <= bt_size) {
        // The directory's head checks itself.
        const uint32_t c = crc32c::Value(file->data() + bt_offset, static_cast<size_t>(crcs_at));
        EncodeFixed32(&(*file)[bt_offset + crcs_at], crc32c::Mask(c));
        ++fixed;
      }
    }
  } else if (Fits(bt_offset, bt_size, file->size())) {
    const std::string table = file->substr(bt_offset, bt_size);
    Slice in(table);
    uint64_t count = 0;
    uint64_t pos = 0;
    // Every record takes at least 2 bytes of `in`, so this loop is bounded
    // by the section's size whatever `count` claims.
    if (GetVarint64(&in, &count)) {
      for (uint64_t i = 0; i < count; ++i) {
        uint64_t stored = 0, logical = 0;
        if (!GetVarint64(&in, &stored) || !GetVarint64(&in, &logical)) break;
        if (stored < kTrailerSize || !Fits(pos, stored, log_end)) break;
        fixed += FixTrailer(file, pos, stored - kTrailerSize);
        pos += stored;
      }
    }
  }

  // Sections, each where the meta block says (wherever that is).
  for (size_t h = 0; h < kNumHandles; ++h) {
    fixed += FixTrailer(file, meta_u64(kHandlesAt + h * 16),
                        meta_u64(kHandlesAt + h * 16 + 8));
  }
  // Only a file with a log tail has those sections (an inline file of
  // version 9 has the longer meta block with the handles empty).
  if (v8 && (flags & ROCKSDB_NAMESPACE::robinhood::kLogTail) != 0) {
    for (size_t at : {kTailIndexAt, kTailBlocksAt}) {
      fixed += FixTrailer(file, meta_u64(at), meta_u64(at + 8));
    }
  }

  // Last, since section trailers may have landed in the footer or the meta
  // block: the footer's CRC, then the meta block's trailer over it.
  const char* footer = file->data() + file->size() - kFooterSize;
  EncodeFixed32(&(*file)[meta_at + footer_crc_at],
                crc32c::Mask(crc32c::Value(footer, kFooterSize)));
  fixed += 1 + FixTrailer(file, meta_at, meta_len);
  return fixed;
}

}  // namespace rh_fuzz
