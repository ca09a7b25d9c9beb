#include "table/inline_directory.h"
#include "table/crc32c_fast.h"

#include "table/robinhood_format.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

bool InlineDirectory::crcs_in_pages() const {
  return format_version >= kFormatVersionAlignedPages;
}

uint32_t InlineDirectory::PageCrc(uint64_t page) const {
  return DecodeFixed32(page_crcs.data() + page * 4);
}

void InlineDirectory::EncodeTo(std::string* dst) const {
  const size_t start = dst->size();
  PutFixed32(dst, shape.key_width + shape.elided);
  PutFixed32(dst, shape.value_width);
  PutFixed32(dst, (shape.var_key ? kShapeVarKey : 0) |
                      (shape.var_value ? kShapeVarValue : 0) |
                      (key_ordered ? kShapeKeyOrdered : 0) |
                      (key_ordered && model.mapped_positions() != 0
                           ? kShapeDigitMap
                           : 0) |
                      (key_ordered && shape.elided != 0 ? kShapeElidedPrefix
                                                        : 0));
  PutFixed32(dst, page_slots);
  PutFixed32(dst, order_width);
  if (key_ordered) model.EncodeTo(dst);
  if (crcs_in_pages()) {
    PutFixed32(dst, crc32c::Mask(Crc32c(dst->data() + start,
                                               dst->size() - start)));
  } else {
    dst->append(page_crcs.data(), page_crcs.size());
  }
  dst->append(order.data(), order.size());
}

Status InlineDirectory::DecodeFrom(const Slice& in, const TableMeta& meta,
                                   const std::string& file) {
  auto bad = [&](const char* field, const std::string& what) {
    return CorruptionAt(file, "inline directory",
                        std::string(field) + ": " + what,
                        meta.block_table.offset);
  };
  if (in.size() < kInlineDirectoryHeader) {
    return bad("header", "shorter than its " +
                             std::to_string(kInlineDirectoryHeader) +
                             " bytes");
  }
  format_version = meta.format_version;
  const char* p = in.data();
  shape.key_width = DecodeFixed32(p);
  shape.value_width = DecodeFixed32(p + 4);
  const uint32_t bits = DecodeFixed32(p + 8);
  page_slots = DecodeFixed32(p + 12);
  order_width = DecodeFixed32(p + 16);
  if (shape.key_width > kInlineMaxKeyWidth) {
    return bad("key_width", std::to_string(shape.key_width) + " beyond " +
                                std::to_string(kInlineMaxKeyWidth));
  }
  if (shape.value_width > kInlineMaxValueWidth) {
    return bad("value_width", std::to_string(shape.value_width) + " beyond " +
                                  std::to_string(kInlineMaxValueWidth));
  }
  if ((bits & ~(kShapeVarKey | kShapeVarValue | kShapeKeyOrdered |
                kShapeDigitMap | kShapeElidedPrefix)) != 0) {
    return bad("shape", "unknown bits");
  }
  const bool mapped = (bits & kShapeDigitMap) != 0;
  if (mapped && ((bits & kShapeKeyOrdered) == 0 ||
                 format_version < kFormatVersionDigitMap)) {
    return bad("shape", "a digit map without key order, or before version 9");
  }
  const bool elided = (bits & kShapeElidedPrefix) != 0;
  if (elided && ((bits & kShapeKeyOrdered) == 0 ||
                 format_version < kFormatVersionElidedPrefix)) {
    return bad("shape",
               "an elided prefix without key order, or before version 11");
  }
  shape.var_key = (bits & kShapeVarKey) != 0;
  shape.var_value = (bits & kShapeVarValue) != 0;
  key_ordered = (bits & kShapeKeyOrdered) != 0;
  if (key_ordered != meta.key_ordered()) {
    return bad("shape", "key order disagrees with the meta block");
  }
  Slice rest(in.data() + kInlineDirectoryHeader,
             in.size() - kInlineDirectoryHeader);
  if (key_ordered) {
    if (order_width != 0) {
      return bad("order_width", "an order array with slots in key order");
    }
    std::string why;
    const uint32_t max_positions =
        !mapped ? 0
        : format_version >= kFormatVersionLongDigitMap ? kMaxMappedPositions
                                                       : kMaxShortMapPositions;
    // The model's prefix is at most key_width bytes: the key field's width
    // below cannot go negative.
    if (!model.DecodeFrom(&rest, meta.index_capacity, shape.key_width,
                          max_positions, &why)) {
      return bad("key order model", why);
    }
    if (elided) {
      shape.elided = static_cast<uint32_t>(model.prefix_len());
      shape.key_width -= shape.elided;
    }
  }
  // The slots' width, and so their pages, follow from the shape as
  // decoded, the elided prefix taken off.
  const SlotPages pg = paging();
  if (page_slots != pg.page_slots) {
    return bad("page_slots", std::to_string(page_slots) + ", not " +
                                 std::to_string(pg.page_slots));
  }
  if (pg.SectionBytes(meta.index_slots) != meta.index.size) {
    return bad("shape", "slots of " + std::to_string(pg.width) +
                            " bytes disagree with the slots' section size");
  }
  if (meta.max_displacement > kInlineMaxDisplacement) {
    return bad("max_displacement",
               "beyond a slot's distance byte (meta block)");
  }
  const uint64_t slots = meta.index_slots;
  const uint64_t pages = pg.Pages(slots);
  if (order_width == 0 && slots > kInlineMaxSortedSlots) {
    // Readers make the order themselves, in 32-bit slot numbers.
    return bad("order_width", "none, with too many slots to sort");
  }
  uint64_t crc_bytes = pages * 4;
  if (crcs_in_pages()) {
    crc_bytes = 0;
    if (rest.size() < 4) return bad("head", "no room for its CRC");
    const size_t covered = rest.data() - in.data();
    const uint32_t want = crc32c::Unmask(DecodeFixed32(rest.data()));
    if (Crc32c(in.data(), covered) != want) {
      return bad("head", "checksum mismatch");
    }
    rest.remove_prefix(4);
    head_bytes = covered + 4;
  } else if (rest.size() / 4 < pages) {
    return bad("page CRCs", "fewer than the " + std::to_string(pages) +
                                " pages");
  } else {
    head_bytes = rest.data() - in.data() + crc_bytes;
  }
  // The order array's bytes: the section's after the head (this may be
  // a prefix of it).
  if (meta.block_table.size < head_bytes) {
    return bad("head", "longer than the section");
  }
  if (in.size() > meta.block_table.size) {
    return bad("order", "bytes past the section");
  }
  const uint64_t order_bytes = meta.block_table.size - head_bytes;
  if (order_width == 0) {
    if (order_bytes != 0) {
      if (crcs_in_pages()) {
        return bad("head", "followed by bytes, with no order array");
      }
      return bad("page CRCs", "more than the " + std::to_string(pages) +
                                  " pages");
    }
  } else if (order_width != OrderWidthFor(slots)) {
    return bad("order_width", std::to_string(order_width) + ", not " +
                                  std::to_string(OrderWidthFor(slots)));
  } else if (order_bytes / order_width != meta.num_keys ||
             order_bytes % order_width != 0) {
    return bad("order", "size disagrees with the keys");
  }
  page_crcs = Slice(rest.data(), crc_bytes);
  order = in.size() == meta.block_table.size
              ? Slice(in.data() + head_bytes, order_bytes)
              : Slice();
  return Status::OK();
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
