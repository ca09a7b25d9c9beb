// The inline directory: what a reader of an inline file (inline_table.h)
// needs to interpret its slots. Written by the builder, decoded at open;
// both here, side by side. docs/format.md ("Directory") has the worked
// examples, byte for byte.
//
// The meta block's `block_table` handle, all fields little-endian:
//   fixed32 key_width      the longest user key, bytes (0..255)
//   fixed32 value_width    the longest value, bytes (0..255)
//   fixed32 shape          bit 0: klen bytes present; bit 1: vlen present;
//                          bit 2: slots in key order (meta block flag
//                          kKeyOrderedSlots, format version 4);
//                          bit 3: the model has a digit map (with bit 2,
//                          format version 9);
//                          bit 4: slots leave out the model's prefix (with
//                          bit 2, format version 11): their key fields
//                          are key_width - prefix_len bytes
//   fixed32 page_slots     slots per checksummed page (SlotPages,
//                          inline_table.h: max(1, 4096 / W) in versions
//                          2-4, (4096 - 4) / W from version 5)
//   fixed32 order_width    bytes per order entry (1..5), or 0: no order
//                          array (always 0 with slots in key order)
//   [key order model]      with shape bit 2 only (key_order_model.h)
//   versions 2-4: pages x fixed32   masked CRC32C of each page's slots
//   version 5 on: fixed32 head_crc  masked CRC32C of the bytes before it
//                                   (the pages hold their own CRCs)
//   num_keys x order_width the slot of each entry in key order
// From version 5 the part before the order array (the head) checks itself,
// so a reader opens a file reading the head only, and reads the order
// array, checked with the section's trailer, when an iterator first needs
// it.
#pragma once

#include <cstdint>
#include <string>

#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "table/inline_table.h"
#include "table/key_order_model.h"
#include "table/table_meta.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

constexpr uint32_t kInlineDirectoryHeader = 5 * 4;
constexpr uint32_t kShapeVarKey = 1;
constexpr uint32_t kShapeVarValue = 2;
constexpr uint32_t kShapeKeyOrdered = 4;
constexpr uint32_t kShapeDigitMap = 8;
constexpr uint32_t kShapeElidedPrefix = 16;
// The most bytes a directory's head can take (version 5 on): the header,
// the largest model and the head's CRC.
constexpr uint32_t kInlineDirectoryMaxHead =
    kInlineDirectoryHeader + kKeyOrderModelMaxBytes + 4;
static_assert(kInlineDirectoryMaxHead == 20 + 16408 + 255 + 1028 + 4,
              "docs/format.md, Inline directory, gives this bound");

struct InlineDirectory {
  uint32_t format_version = 0;  // the file's (the meta block's)
  InlineShape shape;  // key_width: the key field's (the longest key less
                      // shape.elided); the encoding holds the longest key's
  bool key_ordered = false;
  uint32_t page_slots = 1;
  uint32_t order_width = 0;
  KeyOrderModel model;  // key_ordered only
  // Slices into the bytes decoded (or the caller's, to encode).
  Slice page_crcs;  // pages x fixed32, versions 2-4
  Slice order;      // num_keys x order_width
  // Decoded: where the order array starts in the section.
  uint64_t head_bytes = 0;

  bool crcs_in_pages() const;
  SlotPages paging() const { return SlotPages::Of(shape, format_version); }
  // The masked CRC32C of page `page` (versions 2-4).
  uint32_t PageCrc(uint64_t page) const;

  void EncodeTo(std::string* dst) const;
  // Decodes `in`, the section's contents or (version 5 on) a prefix of
  // them that holds the head, and checks it against the meta block's slot
  // geometry: Corruption, naming the directory at `meta.block_table.offset`
  // and the field that is wrong, for every field out of range or
  // disagreeing with the meta block or the section's size. `order` is set
  // only when `in` is the whole section. `in` must outlive this (page_crcs
  // and order point into it).
  Status DecodeFrom(const Slice& in, const TableMeta& meta,
                    const std::string& file);
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
