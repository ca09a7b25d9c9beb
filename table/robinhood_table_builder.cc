#include "table/robinhood_table_builder.h"
#include "table/robinhood_table_factory.h"
#include "table/crc32c_fast.h"

#include <algorithm>
#include <cassert>
#include <cstring>

#include "rocksdb/merge_operator.h"
#include "table/compat.h"
#include "table/log_entry.h"
#include "table/meta_blocks.h"
#include "util/coding.h"
#include "util/compression.h"
#include "util/crc32c.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

RobinHoodTableBuilder::RobinHoodTableBuilder(
    const RobinHoodTableOptions& options, const TableBuilderOptions& tbo,
    WritableFileWriter* file, HashFunction hash)
    : options_(options),
      logger_(tbo.ioptions.logger),
      ucmp_(tbo.internal_comparator.user_comparator()),
      file_(file),
      hash_(hash),
      log_(options.log_block_size, tbo.compression_type, tbo.compression_opts,
           [this](const Slice& data) { Append(data); }),
      paging_(options.page_layout && IsBytewise(ucmp_)),
      compression_opts_(tbo.compression_opts) {
  assert(RobinHoodTableFactory::Validate(options).ok());
  // `tbo` lives only as long as this call: take what Finish needs now.
  for (auto& factory : *compat::FactoriesOf(tbo)) {
    // A factory may decline to collect for this file (RocksDB 8.10 made
    // null a documented answer).
    if (factory == nullptr) continue;
    compat::Collector* c = compat::NewCollector(factory.get(), tbo);
    if (c != nullptr) collectors_.emplace_back(c);
  }
  props_.column_family_id = tbo.column_family_id;
  props_.column_family_name = tbo.column_family_name;
  props_.oldest_key_time = tbo.oldest_key_time;
  props_.file_creation_time = tbo.file_creation_time;
  props_.orig_file_number = tbo.cur_file_num;
  props_.db_id = tbo.db_id;
  props_.db_session_id = tbo.db_session_id;
  props_.db_host_id = tbo.ioptions.db_host_id;
  if (!ReifyDbHostIdProperty(tbo.ioptions.env, &props_.db_host_id).ok()) {
    props_.db_host_id.clear();
  }
  props_.format_version = kFormatVersionLogFile;
  const auto& io = tbo.ioptions;
  props_.comparator_name =
      io.user_comparator ? io.user_comparator->Name() : "nullptr";
  props_.merge_operator_name =
      io.merge_operator ? io.merge_operator->Name() : "nullptr";
  props_.prefix_extractor_name =
      tbo.moptions.prefix_extractor ? tbo.moptions.prefix_extractor->AsString()
                                    : "nullptr";
  props_.compression_name = CompressionTypeToString(log_.compression());
  CompressionOptions opts_copy = tbo.compression_opts;  // takes a non-const ref
  props_.compression_options = CompressionOptionsToString(opts_copy);
  std::string names = "[";
  for (size_t i = 0; i < io.table_properties_collector_factories.size(); ++i) {
    if (i > 0) names += ",";
    names += io.table_properties_collector_factories[i]->Name();
  }
  props_.property_collectors_names = names + "]";
  if (options.build_memory_limit > 0) {
    const std::string& path = file_ ? file_->file_name() : std::string();
    const size_t slash = path.rfind('/');
    std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
    if (base.empty()) base = "robinhood-build";
    spill_dir_.reset(new SpillDir(tbo.ioptions.fs.get(),
                                  options.build_spill_dir.empty()
                                      ? SpillDir::DirOf(path)
                                      : options.build_spill_dir,
                                  base));
    index_.SpillPast(spill_dir_.get(), options.build_memory_limit / 2);
  }
  if (options.inline_slot_limit > 0) {
    inline_.reset(new InlineEntryBuffer(
        options.inline_slot_limit,
        options.inline_key_order && IsBytewise(ucmp_)));
  } else if (paging_) {
    paged_.reset(new PagedEntryBuffer(hash_, options_.hash_seed));
  }
  // optimize_filters_for_hits asks for no filter at the bottommost level,
  // where every lookup that reaches a file is meant to find its key;
  // SstFileWriter's skip_filters for none at all. As BlockBasedTable does.
  FilterSpec filter;
  status_ = ResolveFilterPolicy(options.filter_policy, &filter);
#if RH_HAS_BUILDER_SKIP_FILTERS
  const bool asked_none = tbo.skip_filters;
#else
  const bool asked_none = false;
#endif
  const bool skip = asked_none || (tbo.ioptions.optimize_filters_for_hits &&
                                   tbo.is_bottommost);
  if (!filter.none() && !skip) {
    filter_.reset(new FilterSectionBuilder(std::move(filter)));
    props_.filter_policy_name = filter_->policy_name();
  }
}

RobinHoodTableBuilder::~RobinHoodTableBuilder() = default;

Status RobinHoodTableBuilder::CheckOrder(const ParsedInternalKey& ikey) const {
  if (point_entries_ == 0) return Status::OK();
  const int c = ucmp_->Compare(ikey.user_key, last_user_key_);
  const uint64_t packed = PackSequenceAndType(ikey.sequence, ikey.type);
  // Versions of one user key come newest (largest packed) first.
  if (c < 0 || (c == 0 && packed >= last_packed_)) {
    return Status::InvalidArgument(
        "RobinHoodTable: keys added out of internal-key order");
  }
  return Status::OK();
}

void RobinHoodTableBuilder::Add(const Slice& key, const Slice& value) {
  if (closed_) {
    status_ = Status::InvalidArgument("RobinHoodTable: Add after Finish");
    return;
  }
  if (!ok()) return;
  ParsedInternalKey ikey;
  Status s = ParseInternalKey(key, &ikey, /*log_err_key=*/false);
  if (!s.ok()) {
    status_ = s;
    return;
  }
  if (ikey.user_key.size() > UINT32_MAX || value.size() > UINT32_MAX) {
    status_ = Status::InvalidArgument("RobinHoodTable: key or value over 4 GiB");
    return;
  }
  if (ikey.type == kTypeRangeDeletion) {
    PutLengthPrefixedSlice(&range_dels_, key);
    PutLengthPrefixedSlice(&range_dels_, value);
    // Counted in num_entries and num_deletions too, as BlockBasedTable
    // counts them: RocksDB 9.x checks a compaction's input count against
    // num_entries - num_range_deletions of its input files.
    props_.num_range_deletions++;
    props_.num_entries++;
    props_.num_deletions++;
    props_.raw_key_size += key.size();
    props_.raw_value_size += value.size();
    NotifyCollectTableCollectorsOnAdd(key, value, offset_, collectors_,
                                      logger_);
    return;
  }
  if (static_cast<uint8_t>(ikey.type) & kCompactPutFlag) {
    status_ = Status::NotSupported("RobinHoodTable: value type " +
                                   std::to_string(ikey.type));
    return;
  }

  s = CheckOrder(ikey);
  if (!s.ok()) {
    status_ = s;
    return;
  }
  const bool new_key =
      point_entries_ == 0 || ikey.user_key != Slice(last_user_key_);
  // The key's hash, taken once for the filter and a page's tag.
  uint64_t hash = 0;
  bool hashed = false;
  auto key_hash = [&]() {
    if (!hashed) hash = hash_(ikey.user_key, options_.hash_seed);
    hashed = true;
    return hash;
  };
  if (new_key) {
    last_user_key_.assign(ikey.user_key.data(), ikey.user_key.size());
    if (filter_ != nullptr) {
      s = filter_->AddKey(ikey.user_key, key_hash());
      if (!s.ok()) {
        status_ = s;
        return;
      }
    }
  }
  last_packed_ = PackSequenceAndType(ikey.sequence, ikey.type);
  point_entries_++;
  const bool compacted_put = ikey.sequence == 0 && ikey.type == kTypeValue;
  if (compacted_put && paging_ && !paging_decided_) {
    ProbeCompression(ikey.user_key, value);
  }
  if (inline_ != nullptr) {
    if (compacted_put && inline_->Fits(ikey.user_key, value.size())) {
      // Samples for Seek, at positions in key order (inline_table.h).
      if (inline_->size() % kInlineSampleInterval == 0) {
        sparse_.Add(key, inline_->size());
      }
      inline_->Add(ikey.user_key, value);
      if (inline_->size() % 4096 == 0) TrackMemory();
    } else if (compacted_put && FitsPages(ikey.user_key, value)) {
      PageInline();
    } else {
      SpillToLog();
    }
  }
  if (paged_ != nullptr) {
    if (compacted_put && FitsPages(ikey.user_key, value) &&
        paged_->IndexHasRoom()) {
      paged_->Add(ikey.user_key, value, key_hash());
      if (!paged_->streaming()) MaybeStreamPages();
      if (paged_->size() % 4096 == 0) TrackMemory();
    } else if (!paged_->streaming()) {
      SpillToLog();
    } else if (!new_key) {
      // Only RocksDB's order of versions forbids this: a key's compacted
      // put is its oldest version. Its page is out; the log cannot hold
      // the key too.
      status_ = Status::InvalidArgument(
          "RobinHoodTable: an entry of a user key after its compacted put");
      return;
    } else {
      StartLogTail();
    }
  }
  if (inline_ == nullptr && paged_ == nullptr) {
    AppendToLog(ikey, key, value, new_key);
  }
  if (!ok()) return;

  props_.num_entries++;
  props_.raw_key_size += key.size();
  props_.raw_value_size += value.size();
  if (ikey.type == kTypeDeletion || ikey.type == kTypeSingleDeletion ||
      ikey.type == kTypeDeletionWithTimestamp) {
    props_.num_deletions++;
  } else if (ikey.type == kTypeMerge) {
    props_.num_merge_operands++;
  }
  NotifyCollectTableCollectorsOnAdd(key, value, offset_, collectors_,
                                    logger_);
}

void RobinHoodTableBuilder::AppendToLog(const ParsedInternalKey& ikey,
                                        const Slice& key, const Slice& value,
                                        bool new_key) {
  const uint64_t address = log_.next_address();
  if (new_key) {
    if (address >> kMaxAddressBits) {
      status_ = Status::NotSupported(
          "RobinHoodTable: a file's log is limited to 1 TiB");
      return;
    }
    index_.Add(hash_(ikey.user_key, options_.hash_seed), address);
  }
  // Every block's first entry, and every interval's where blocks are not
  // compressed: a compressed block is decoded whole before any entry in it
  // is read, so a record inside one saves a Seek nothing (it halves the
  // block's entries) and costs a key's bytes.
  if (log_.open_block_bytes() == 0 ||
      (log_.compression() == kNoCompression &&
       entries_since_sparse_ >= options_.sparse_index_interval)) {
    sparse_.Add(key, address);
    entries_since_sparse_ = 0;
  }
  EncodeLogEntry(ikey.user_key, ikey.sequence, ikey.type, value,
                 log_.open_block());
  entries_since_sparse_++;
  log_entries_++;
  if (log_.open_block_bytes() >= options_.log_block_size) {
    log_.CloseBlock();
    props_.num_data_blocks = log_.num_blocks();
    TrackMemory();
  }
}

Status RobinHoodTableBuilder::Finish() {
  if (closed_) {
    status_ = Status::InvalidArgument("RobinHoodTable: Finish called twice");
    return status_;
  }
  closed_ = true;
  TableMeta meta;
  meta.format_version = kFormatVersionLogFile;
  meta.hash_seed = options_.hash_seed;
  IndexGeometry geo;
  if (inline_ != nullptr && ok()) {
    // Only a file with entries, all of them within the displacement a
    // slot records, is inline (the plans decide without writing). Key
    // order first: where it places the entries as well as a hash, it
    // saves the order array and makes Seek one probe.
    const double load = options_.inline_load_factor;
    const bool key_order = inline_->plans_key_order() && inline_->size() > 0;
    // Planning in memory takes 12 bytes an entry for the hash order and
    // up to 5 for the order array, on top of the entries.
    if (spill_dir_ != nullptr && !inline_->spilled() &&
        MemoryUsage() + inline_->size() * 17 > options_.build_memory_limit / 2) {
      Status s = inline_->Spill(spill_dir_.get(), options_.build_memory_limit / 2);
      if (!s.ok() && ok()) status_ = s;
    }
    // A large file in hash order would be read whole, or at random, by
    // every scan that compacts it: past the limit it takes pages. Its
    // slots hold whole keys, which must fit the slot limit too.
    auto hash_order_allowed = [&]() {
      const uint64_t limit = options_.inline_hash_order_limit;
      return inline_->FitsWhole() &&
             (limit == 0 || inline_->EstimatedHashOrderBytes(
                                load, options_.inline_order_array) <= limit);
    };
    if (ok() && inline_->size() > 0 &&
        ((key_order && inline_->PlanKeyOrder(load, &geo)) ||
         (hash_order_allowed() &&
          inline_->Plan(load, hash_, options_.hash_seed, &geo)))) {
      TrackMemory();
      WriteInline(geo, &meta);
    } else {
      // Entries that fit a slot fit a page, if pages may be taken.
      if (paging_) DecideOnPages();
      if (inline_->size() > 0 && paging_) {
        PageInline();
      } else {
        SpillToLog();
      }
    }
  }
  if (paged_ != nullptr && ok()) DecideOnPages();  // may spill to the log
  if (paged_ != nullptr && ok()) {
    if (paged_->size() > 0) paged_->Close();
    // The radix table and the separator ends are 32-bit (page_index.h);
    // streamed pages never outgrow them (IndexHasRoom).
    if (paged_->size() > 0 &&
        (paged_->streaming() || (paged_->pages() < UINT32_MAX &&
                                 paged_->SeparatorBytes() < UINT32_MAX))) {
      WritePaged(&meta);
    } else {
      SpillToLog();
    }
  }
  if (log_tail_ && ok()) {
    log_.CloseBlock();
    TrackMemory();
    WriteLogTail(&geo, &meta);
  } else if (inline_ == nullptr && paged_ == nullptr) {
    log_.CloseBlock();
    props_.num_data_blocks = log_.num_blocks();
    TrackMemory();
    meta.num_entries = log_entries_;
    meta.num_keys = index_.num_keys();
    meta.log_file_bytes = offset_;
    meta.log_logical_bytes = log_.next_address();
    meta.log_block_size = options_.log_block_size;
    meta.sparse_interval = log_.compression() == kNoCompression
                               ? options_.sparse_index_interval
                               : 0;
    props_.data_size = offset_;

    WriteIndex(&geo, &meta.index);
    meta.index_capacity = geo.capacity;
    meta.index_slots = geo.slots;
    meta.address_bits = geo.address_bits;
    meta.max_displacement = geo.max_displacement;
    WriteSection(log_.block_table().Finish(), &meta.block_table);
  }
  WriteStreamedSection(
      [this](const Sink& sink) { return sparse_.Finish(sink); },
      &meta.sparse_index);
  std::string range_dels;
  PutVarint64(&range_dels, props_.num_range_deletions);
  range_dels.append(range_dels_);
  WriteSection(range_dels, &meta.range_dels);
  if (filter_ != nullptr && ok()) {
    uint64_t filter_bytes = 0;
    WriteStreamedSection(
        [&](const Sink& sink) {
          return filter_->Finish(offset_, sink, &filter_bytes);
        },
        &meta.filter);
    props_.filter_size = meta.filter.size;
    props_.num_filter_entries = filter_->num_keys();
  } else {
    WriteSection(Slice(), &meta.filter);
  }
  // Inline slots are the data; their directory and samples the index.
  props_.index_size = (meta.is_inline() || meta.is_paged()
                           ? 0
                           : meta.index.size + kTrailerSize) +
                      meta.block_table.size + meta.sparse_index.size +
                      2 * kTrailerSize +
                      (meta.has_log_tail() ? meta.tail_index.size +
                                                 meta.tail_blocks.size +
                                                 2 * kTrailerSize
                                           : 0);
  WriteProperties(geo, meta, &meta.properties);

  MetaIndexBuilder metaindex;
  metaindex.Add(kPropertiesBlockName,
                BlockHandle(meta.properties.offset, meta.properties.size));
  WriteSection(metaindex.Finish(), &meta.metaindex);

  const SectionHandle meta_handle{
      offset_, TableMeta::EncodedLength(meta.format_version)};
  const std::string footer =
      EncodeFooter(meta.metaindex, meta_handle, meta.format_version);
  meta.footer_crc = crc32c::Mask(Crc32c(footer.data(), footer.size()));
  std::string encoded;
  meta.EncodeTo(&encoded);
  SectionHandle written;
  WriteSection(encoded, &written);
  Append(footer);
  WriteOut(staged_);
  staged_.clear();
  staged_.shrink_to_fit();
  return status_;
}

bool RobinHoodTableBuilder::IsBytewise(const Comparator* ucmp) {
  return strcmp(ucmp->Name(), BytewiseComparator()->Name()) == 0;
}

uint64_t RobinHoodTableBuilder::EstimatedFileSize() const {
  if (inline_ != nullptr && !closed_) {
    return offset_ + inline_->EstimatedFileBytes(options_.inline_load_factor,
                                                options_.inline_order_array);
  }
  if (paged_ != nullptr && !closed_) {
    return offset_ + paged_->EstimatedFileBytes();
  }
  const uint64_t keys = index_.num_keys();
  return offset_ + log_.open_block_bytes() +
         static_cast<uint64_t>(keys / options_.load_factor) * kSlotSize +
         sparse_.SectionBytes() + tail_page_index_.size();
}

std::string RobinHoodTableBuilder::GetFileChecksum() const {
  return file_ ? file_->GetFileChecksum() : kUnknownFileChecksum;
}

const char* RobinHoodTableBuilder::GetFileChecksumFuncName() const {
  return file_ ? file_->GetFileChecksumFuncName()
               : kUnknownFileChecksumFuncName;
}

void RobinHoodTableBuilder::SetSeqnoTimeTableProperties(
    const compat::SeqnoTimeMapping& mapping, uint64_t oldest_ancestor_time) {
  props_.seqno_to_time_mapping = compat::Encode(mapping);
  props_.creation_time = oldest_ancestor_time;
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
