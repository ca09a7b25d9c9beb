// The builder's layouts (robinhood_table_builder.h): which layout a file
// takes as its entries arrive (inline slots, pages, or the log; each move
// one way), and the writers of each layout's own sections and of the
// properties that describe them. The entry path and Finish's common tail
// are in robinhood_table_builder.cc.
#include <algorithm>

#include "table/crc32c_fast.h"
#include "table/inline_directory.h"
#include "table/meta_blocks.h"
#include "table/robinhood_compress.h"
#include "table/robinhood_table_builder.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

void RobinHoodTableBuilder::ProbeCompression(const Slice& key,
                                             const Slice& value) {
  if (log_.compression() == kNoCompression) {
    paging_decided_ = true;
    return;
  }
  if (key.size() + value.size() > 0) {
    probe_.append(key.data(), key.size());
    probe_.append(value.data(), value.size());
  }
  if (probe_.size() >= kCompressionProbeBytes) DecideOnPages();
}

void RobinHoodTableBuilder::DecideOnPages() {
  if (paging_decided_) return;
  paging_decided_ = true;
  std::string compressed;
  // Pages are read in place and never compressed. Where the codec would
  // save an eighth of the first entries, as it must for a log block to be
  // stored compressed, the file keeps the log and its compressed blocks.
  if (log_.compression() != kNoCompression && !probe_.empty() &&
      Compress(log_.compression(), compression_opts_, probe_, &compressed) &&
      compressed.size() < probe_.size() - probe_.size() / 8) {
    paging_ = false;
    if (paged_ != nullptr) SpillToLog();
  }
  std::string().swap(probe_);
}

void RobinHoodTableBuilder::PageInline() {
  TrackMemory();
  std::unique_ptr<InlineEntryBuffer> waiting = std::move(inline_);
  sparse_ = SparseIndexBuilder();  // it held inline samples
  paged_.reset(new PagedEntryBuffer(hash_, options_.hash_seed));
  if (waiting->spilled()) {
    Status s = paged_->Spill(spill_dir_.get());
    if (!s.ok() && ok()) status_ = s;
  }
  Status s = waiting->ForEach([&](const Slice& k, const Slice& v) {
    paged_->Add(k, v);
    return true;
  });
  if (!s.ok() && ok()) status_ = s;
  TrackMemory();
}

void RobinHoodTableBuilder::SpillToLog() {
  TrackMemory();
  std::unique_ptr<InlineEntryBuffer> waiting = std::move(inline_);
  std::unique_ptr<PagedEntryBuffer> pages = std::move(paged_);
  sparse_ = SparseIndexBuilder();  // it held inline samples
  std::string ikey;
  auto to_log = [&](const Slice& k, const Slice& v) {
    ikey.assign(k.data(), k.size());
    PutFixed64(&ikey, PackSequenceAndType(0, kTypeValue));
    AppendToLog(ParsedInternalKey(k, 0, kTypeValue), ikey, v, true);
    return ok();
  };
  Status s;
  if (waiting != nullptr) s = waiting->ForEach(to_log);
  if (s.ok() && pages != nullptr) s = pages->ForEach(to_log);
  if (!s.ok() && ok()) status_ = s;
}

void RobinHoodTableBuilder::MaybeStreamPages() {
  // Pages stream from offset 0: nothing of the file precedes them.
  if (paged_->streaming() || paged_->page_bytes() == 0 || !paging_decided_ ||
      !ok()) {
    return;
  }
  assert(offset_ == 0);
  Status s = paged_->StreamTo([this](const Slice& piece) {
    Append(piece);
    return status_;
  });
  if (!s.ok() && ok()) status_ = s;
}

void RobinHoodTableBuilder::StartLogTail() {
  TrackMemory();
  std::unique_ptr<PagedEntryBuffer> pages = std::move(paged_);
  uint32_t crc = 0;
  Status s = pages->Write(
      [&](const Slice& piece) {
        Append(piece);
        return status_;
      },
      &crc, &tail_page_index_);
  if (!s.ok() && ok()) status_ = s;
  std::string trailer;
  AppendTrailerFromCrc(crc, kNoCompression, &trailer);
  Append(trailer);
  TableMeta& m = tail_pages_;
  m.index.offset = 0;
  m.index.size = pages->pages() * pages->page_bytes();
  m.index_capacity = m.index_slots = pages->pages();
  m.page_entries = pages->size();
  paged_entry_bytes_ = pages->EntryBytes();
  log_tail_ = true;
  TrackMemory();
}

void RobinHoodTableBuilder::WriteLogTail(IndexGeometry* geo,
                                         TableMeta* meta) {
  meta->flags = kPagedLayout | kLogTail;
  meta->format_version = kFormatVersionLogTail;
  props_.format_version = kFormatVersionLogTail;
  meta->index = tail_pages_.index;
  meta->index_capacity = meta->index_slots = tail_pages_.index_slots;
  meta->page_entries = tail_pages_.page_entries;
  meta->num_entries = meta->page_entries + log_entries_;
  meta->num_keys = meta->page_entries + index_.num_keys();
  meta->log_file_bytes = offset_ - meta->index.end_with_trailer();
  meta->log_logical_bytes = log_.next_address();
  meta->log_block_size = options_.log_block_size;
  meta->sparse_interval = log_.compression() == kNoCompression
                              ? options_.sparse_index_interval
                              : 0;
  props_.data_size = offset_;
  props_.num_data_blocks = meta->index_slots + log_.num_blocks();
  WriteIndex(geo, &meta->tail_index);
  meta->tail_capacity = geo->capacity;
  meta->tail_slots = geo->slots;
  meta->address_bits = geo->address_bits;
  meta->max_displacement = geo->max_displacement;
  WriteSection(log_.block_table().Finish(), &meta->tail_blocks);
  WriteSection(tail_page_index_, &meta->block_table);
  std::string().swap(tail_page_index_);
}

void RobinHoodTableBuilder::WriteIndex(IndexGeometry* geometry,
                                       SectionHandle* handle) {
  handle->offset = offset_;
  uint32_t crc = 0;
  Status s = index_.Finish(
      options_.load_factor, log_.next_address(),
      [&](const Slice& slots) {
        crc = Crc32cExtend(crc, slots.data(), slots.size());
        Append(slots);
        return status_;
      },
      geometry);
  if (!s.ok() && ok()) status_ = s;
  handle->size = geometry->slots * kSlotSize;
  std::string trailer;
  AppendTrailerFromCrc(crc, kNoCompression, &trailer);
  Append(trailer);
}

void RobinHoodTableBuilder::WriteProperties(const IndexGeometry& geo,
                                            const TableMeta& meta,
                                            SectionHandle* handle) {
  const bool inline_layout = meta.is_inline();
  using P = RobinHoodTablePropertyNames;
  auto& user = props_.user_collected_properties;
  user[P::kFactory] = kRobinHoodTableName;
  user[P::kFormatVersion] = std::to_string(props_.format_version);
  // A paged file's: the share of its pages' bytes its entries fill.
  // A log tail's: its pages'.
  user[P::kLoadFactor] = std::to_string(
      meta.is_paged()
          ? static_cast<double>(paged_entry_bytes_) /
                static_cast<double>(meta.index.size)
          : geo.keys / static_cast<double>(geo.capacity));
  user[P::kMaxDisplacement] = std::to_string(geo.max_displacement);
  user[P::kMeanDisplacement] = std::to_string(
      geo.keys ? geo.total_displacement / static_cast<double>(geo.keys) : 0.0);
  user[P::kIndexBytes] = std::to_string(
      inline_layout ? SlotPages::Of(inline_->shape(), kFormatVersionInlineFile)
                          .SectionBytes(geo.slots)
      : meta.has_log_tail() ? meta.block_table.size + geo.slots * kSlotSize
      : meta.is_paged()     ? meta.block_table.size
                            : geo.slots * kSlotSize);
  user[P::kLayout] = inline_layout         ? "inline"
                     : meta.has_log_tail() ? "paged+log"
                     : meta.is_paged()     ? "paged"
                                           : "log";
  if (inline_layout) {
    user[P::kSlotOrder] = inline_->key_order() != nullptr ? "key" : "hash";
  }
  user[P::kDistinctKeys] =
      std::to_string(meta.is_paged() ? meta.num_keys : geo.keys);
  user[P::kBuilderPeakBytes] = std::to_string(peak_memory_);

  PropertyBlockBuilder builder;
  builder.AddTableProperty(props_);
  builder.Add(user);
  compat::NotifyCollectorsOnFinish(collectors_, logger_, &builder, &props_);
  WriteSection(builder.Finish(), handle);
}

void RobinHoodTableBuilder::WriteInline(const IndexGeometry& geo,
                                        TableMeta* meta) {
  meta->flags = kInlineLayout;
  meta->num_entries = inline_->size();
  meta->num_keys = inline_->size();
  meta->sparse_interval = kInlineSampleInterval;
  meta->index_capacity = geo.capacity;
  meta->index_slots = geo.slots;
  meta->max_displacement = geo.max_displacement;
  const InlineShape shape = inline_->shape();
  const KeyOrderModel* model = inline_->key_order();
  // The oldest version that describes the file: a digit map needs 9, one
  // of more than 8 positions 10, slots without the keys' prefix 11.
  const uint32_t positions =
      model != nullptr ? model->mapped_positions() : 0;
  const uint32_t version = shape.elided != 0 ? kFormatVersionElidedPrefix
                           : positions > kMaxShortMapPositions
                               ? kFormatVersionLongDigitMap
                           : positions != 0 ? kFormatVersionDigitMap
                                            : kFormatVersionInlineFile;
  meta->format_version = version;
  props_.format_version = version;
  if (model != nullptr) meta->flags |= kKeyOrderedSlots;

  InlineDirectory dir;
  dir.format_version = version;
  dir.shape = shape;
  dir.key_ordered = model != nullptr;
  const SlotPages paging = dir.paging();
  dir.page_slots = paging.page_slots;
  // Readers build the order of a file without one in 32-bit slot numbers;
  // slots in key order are their own order.
  const bool order =
      model == nullptr &&
      (options_.inline_order_array || geo.slots > kInlineMaxSortedSlots);
  dir.order_width = order ? OrderWidthFor(geo.slots) : 0;
  if (model != nullptr) dir.model = *model;
  meta->index.offset = offset_;
  meta->index.size = paging.SectionBytes(geo.slots);
  uint32_t crc = 0;
  Status s = inline_->WriteSlots(
      [&](const Slice& piece) {
        Append(piece);
        return status_;
      },
      order, &crc);
  if (!s.ok() && ok()) status_ = s;
  std::string trailer;
  AppendTrailerFromCrc(crc, kNoCompression, &trailer);
  Append(trailer);
  props_.data_size = offset_;
  props_.num_data_blocks = paging.Pages(geo.slots);
  // The head, then the order array as it is made (InlineDirectory).
  WriteStreamedSection(
      [&](const Sink& sink) {
        std::string head;
        dir.EncodeTo(&head);
        Status st = sink(head);
        if (st.ok() && order) st = inline_->WriteOrder(sink);
        return st;
      },
      &meta->block_table);
}

void RobinHoodTableBuilder::WritePaged(TableMeta* meta) {
  meta->flags = kPagedLayout;
  // Readers of version 6 take pages of 4 KiB only.
  const uint32_t page_bytes = paged_->page_bytes();
  const uint32_t version = page_bytes == kEntryPageMinBytes
                               ? kFormatVersionPagedFile
                               : kFormatVersionPageSizes;
  meta->format_version = version;
  props_.format_version = version;
  meta->num_entries = paged_->size();
  meta->num_keys = paged_->size();
  const uint64_t pages = paged_->pages();
  meta->index_capacity = pages;
  meta->index_slots = pages;
  meta->index.offset = 0;  // streamed from there, or written now
  meta->index.size = pages * page_bytes;
  paged_entry_bytes_ = paged_->EntryBytes();
  TrackMemory();
  uint32_t crc = 0;
  std::string index;
  Status s = paged_->Write(
      [&](const Slice& piece) {
        Append(piece);
        return status_;
      },
      &crc, &index);
  if (!s.ok() && ok()) status_ = s;
  std::string trailer;
  AppendTrailerFromCrc(crc, kNoCompression, &trailer);
  Append(trailer);
  props_.data_size = offset_;
  props_.num_data_blocks = pages;
  WriteSection(index, &meta->block_table);
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
