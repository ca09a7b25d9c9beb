#include "table/robinhood_table_reader.h"

#include <algorithm>

#include "rocksdb/db.h"
#include "table/compat.h"
#include "table/sst_file_writer_collectors.h"
#include "table/property_block_check.h"
#include "table/robinhood_table_iterator.h"
#include "table/robinhood_uncompress.h"
#include "util/coding.h"
#include "util/crc32c.h"
#include "util/vector_iterator.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

namespace {
// Bytes a lookup without mmap reads for an entry, if the block has them:
// most entries fit, so one read serves the common case.
constexpr size_t kEntryReadBytes = 512;
}  // namespace

RobinHoodTableReader::RobinHoodTableReader(
    const ImmutableOptions& ioptions, const InternalKeyComparator& icmp,
    std::unique_ptr<RandomAccessFileReader>&& file, uint64_t file_size,
    HashFunction hash)
    : ioptions_(ioptions),
      icmp_(icmp),
      file_(std::move(file)),
      file_size_(file_size),
      hash_(hash),
      mmap_(ioptions.allow_mmap_reads) {}

RobinHoodTableReader::~RobinHoodTableReader() = default;

const std::string& RobinHoodTableReader::file_name() const {
  return file_->file_name();
}

Status RobinHoodTableReader::Open(
    const ImmutableOptions& ioptions, const InternalKeyComparator& icmp,
    std::unique_ptr<RandomAccessFileReader>&& file, uint64_t file_size,
    SequenceNumber largest_seqno, std::unique_ptr<TableReader>* reader,
    HashFunction hash) {
  std::unique_ptr<RobinHoodTableReader> r(new RobinHoodTableReader(
      ioptions, icmp, std::move(file), file_size, hash));
  Status s = r->Init(largest_seqno);
  if (s.ok()) *reader = std::move(r);
  return s;
}

Status RobinHoodTableReader::ReadRange(uint64_t offset, size_t n,
                                       std::string* buf, Slice* result) const {
  if (offset > file_size_ || n > file_size_ - offset) {
    return Status::Corruption(
        CorruptionMessage(file_name(), "read past the end of the file", offset));
  }
  if (mmap_) {
    *result = Slice(file_data_.data() + offset, n);
    return Status::OK();
  }
  buf->resize(n);
  Status s = compat::ReadAt(file_.get(), offset, n, result, &(*buf)[0]);
  if (s.ok() && result->size() != n) {
    s = Status::Corruption(
        CorruptionMessage(file_name(), "truncated read", offset));
  }
  return s;
}

Status RobinHoodTableReader::ReadSection(const SectionHandle& h,
                                         const char* what, std::string* buf,
                                         Slice* contents) const {
  Slice raw;
  Status s = ReadRange(h.offset, h.size + kTrailerSize, buf, &raw);
  if (!s.ok()) return s;
  *contents = Slice(raw.data(), h.size);
  return VerifyTrailer(*contents, raw.data() + h.size, file_name(), what,
                       h.offset);
}

Status RobinHoodTableReader::Init(SequenceNumber largest_seqno) {
  const std::string& fname = file_name();
  constexpr uint64_t kMinSize =
      TableMeta::kEncodedLength + kTrailerSize + kFooterSize;
  if (file_size_ < kMinSize) {
    return Status::Corruption(fname + ": file too short (" +
                              std::to_string(file_size_) +
                              " bytes) to be a RobinHoodTable file");
  }
  std::string buf;
  if (mmap_) {
    // With mmap the file system hands back a slice of the mapping.
    Status s = compat::ReadAt(file_.get(), 0, file_size_, &file_data_, nullptr);
    if (!s.ok()) return s;
    if (file_data_.size() != file_size_) {
      return Status::Corruption(fname + ": short mmap read");
    }
  }

  // Footer: RocksDB's layout with our magic number.
  Slice footer_bytes;
  const uint64_t footer_offset = file_size_ - kFooterSize;
  Status s = ReadRange(footer_offset, kFooterSize, &buf, &footer_bytes);
  if (!s.ok()) return s;
  const std::string footer_copy = footer_bytes.ToString();
  if (DecodeFixed64(footer_copy.data() + kFooterSize - 8) != kMagicNumber) {
    return Status::Corruption(
        CorruptionMessage(fname, "not a RobinHoodTable file (bad magic number)",
                          file_size_ - 8));
  }
  Footer footer;
  s = compat::DecodeFooter(footer_copy, footer_offset, &footer);
  if (!s.ok()) {
    return Status::Corruption(CorruptionMessage(
        fname, ("bad footer: " + s.ToString()).c_str(), footer_offset));
  }
  if (footer.format_version() > kFormatVersion) {
    // A newer file, or a damaged version field. An intact version 1 meta
    // block in its place (it would say its own version) tells them apart.
    const SectionHandle v1_meta{
        footer_offset - kTrailerSize - TableMeta::kEncodedLength,
        TableMeta::kEncodedLength};
    Slice v1;
    if (ReadSection(v1_meta, "meta block", &buf, &v1).ok() &&
        DecodeFixed32(v1.data()) == kFormatVersion) {
      return Status::Corruption(CorruptionMessage(
          fname,
          ("bad footer: format version " +
           std::to_string(footer.format_version()) +
           " but a version 1 meta block")
              .c_str(),
          file_size_ - 12));
    }
    return Status::NotSupported(fname + ": RobinHoodTable format version " +
                                std::to_string(footer.format_version()) +
                                " is newer than this reader's " +
                                std::to_string(kFormatVersion));
  }
  const SectionHandle meta_handle{footer.index_handle().offset(),
                                  footer.index_handle().size()};
  if (footer.checksum_type() != kCRC32c ||
      meta_handle.size != TableMeta::kEncodedLength ||
      meta_handle.end_with_trailer() != footer_offset) {
    return Status::Corruption(
        CorruptionMessage(fname, "bad footer fields", footer_offset));
  }

  // Meta block, which vouches for the footer too.
  Slice meta_bytes;
  s = ReadSection(meta_handle, "meta block", &buf, &meta_bytes);
  if (!s.ok()) return s;
  s = meta_.DecodeFrom(meta_bytes, file_size_, fname);
  if (!s.ok()) return s;
  if (crc32c::Unmask(meta_.footer_crc) !=
      crc32c::Value(footer_copy.data(), footer_copy.size())) {
    return Status::Corruption(
        CorruptionMessage(fname, "footer checksum mismatch", footer_offset));
  }
  if (meta_.metaindex.offset != footer.metaindex_handle().offset() ||
      meta_.metaindex.size != footer.metaindex_handle().size()) {
    return Status::Corruption(
        CorruptionMessage(fname, "footer and meta disagree", footer_offset));
  }

  // Hash index: in place with mmap, else in memory.
  Slice slots;
  s = ReadSection(meta_.index, "hash index", &index_buf_, &slots);
  if (!s.ok()) return s;
  IndexGeometry geo;
  geo.capacity = meta_.index_capacity;
  geo.slots = meta_.index_slots;
  geo.address_bits = meta_.address_bits;
  geo.max_displacement = meta_.max_displacement;
  geo.keys = meta_.num_keys;
  index_.Init(slots.data(), geo);

  Slice contents;
  s = ReadSection(meta_.block_table, "block table", &buf, &contents);
  if (s.ok()) {
    s = blocks_.Init(contents, meta_.log_file_bytes, meta_.log_logical_bytes,
                     meta_.log_block_size, fname, meta_.block_table.offset);
  }
  if (s.ok() && meta_.log_logical_bytes >> meta_.address_bits) {
    s = Status::Corruption(fname + ": log too large for the address width");
  }
  if (!s.ok()) return s;
  verified_.reset(new std::atomic<uint64_t>[blocks_.num_blocks() / 64 + 1]());

  s = ReadSection(meta_.sparse_index, "sparse index", &buf, &contents);
  if (s.ok()) s = sparse_.Init(contents, meta_.log_logical_bytes, &icmp_, fname);
  if (!s.ok()) return s;

  std::unique_ptr<TableProperties> props;
  s = CheckProperties(&props);
  if (!s.ok()) return s;
  properties_ = std::move(props);
  s = ApplyGlobalSeqno(largest_seqno);
  if (!s.ok()) return s;

  s = ReadSection(meta_.range_dels, "range deletions", &buf, &contents);
  if (s.ok()) s = LoadRangeDels(contents);
  return s;
}

Status RobinHoodTableReader::CheckProperties(
    std::unique_ptr<TableProperties>* out) const {
  // Check the block before RocksDB's parser sees it: the parser trusts the
  // bytes it is given (damage can trip its assertions).
  std::string buf;
  Slice raw;
  Status s = ReadRange(meta_.properties.offset,
                       meta_.properties.size + kTrailerSize, &buf, &raw);
  if (!s.ok()) return s;
  const Slice contents(raw.data(), meta_.properties.size);
  const char* trailer = raw.data() + meta_.properties.size;
  s = VerifyTrailer(contents, trailer, file_name(), "properties",
                    meta_.properties.offset);
  // Ingestion may have written the global seqno into the block after its
  // checksum was taken (with 0 there): check again with it zeroed. Keys are
  // stored after the bytes they share with the previous key, so look for
  // the end of the name; the 8-byte value follows it.
  uint64_t zeroed_at = 0;
  if (!s.ok()) {
    const std::string& name = ExternalSstFilePropertyNames::kGlobalSeqno;
    const std::string tail = name.substr(name.rfind('.') + 1);
    const std::string str = contents.ToString();
    for (size_t pos = str.find(tail); pos != std::string::npos;
         pos = str.find(tail, pos + 1)) {
      const size_t value_at = pos + tail.size();
      if (value_at + 8 > str.size()) break;
      std::string copy = str;
      EncodeFixed64(&copy[value_at], 0);
      if (VerifyTrailer(copy, trailer, file_name(), "properties",
                        meta_.properties.offset)
              .ok()) {
        s = Status::OK();
        zeroed_at = meta_.properties.offset + value_at;
        break;
      }
    }
  }
  if (!s.ok()) return s;
  s = CheckPropertyBlock(contents);
  if (!s.ok()) {
    return CorruptionAt(file_name(), "properties", s.getState(),
                        meta_.properties.offset);
  }

  Footer footer;  // ReadTablePropertiesHelper wants one.
  std::string footer_buf;
  Slice footer_bytes;
  s = ReadRange(file_size_ - kFooterSize, kFooterSize, &footer_buf,
                &footer_bytes);
  if (s.ok()) {
    s = compat::DecodeFooter(footer_bytes, file_size_ - kFooterSize, &footer);
  }
  std::unique_ptr<TableProperties> props;
  if (s.ok()) {
    s = compat::ReadProperties(
        file_.get(),
        BlockHandle(meta_.properties.offset, meta_.properties.size), footer,
        ioptions_, &props);
  }
  if (!s.ok()) {
    return Status::Corruption(file_name() + ": properties: " + s.ToString());
  }
  if (zeroed_at != 0 &&
      props->external_sst_file_global_seqno_offset != zeroed_at) {
    return Status::Corruption(CorruptionMessage(
        file_name(), "properties: checksum mismatch", meta_.properties.offset));
  }
  if (props->num_entries != meta_.num_entries) {
    return Status::Corruption(file_name() +
                              ": properties and meta disagree on entries");
  }
  *out = std::move(props);
  return Status::OK();
}

// The rules of RocksDB's block-based reader, so both formats agree on every
// ingested file: only external files (version property 2) carry one.
Status RobinHoodTableReader::ApplyGlobalSeqno(SequenceNumber largest_seqno) {
  const auto& user = properties_->user_collected_properties;
  auto version = user.find(ExternalSstFilePropertyNames::kVersion);
  auto seqno = user.find(ExternalSstFilePropertyNames::kGlobalSeqno);
  global_seqno_ = kDisableGlobalSequenceNumber;
  auto bad = [&](const std::string& what) {
    return Status::Corruption(file_name() + ": " + what);
  };
  if (version == user.end()) {
    if (seqno != user.end()) return bad("global seqno in a non-external file");
    return Status::OK();
  }
  if (version->second.size() < 4) return bad("bad external file version");
  if (DecodeFixed32(version->second.data()) < 2) {
    if (seqno != user.end()) return bad("global seqno in a version 1 file");
    return Status::OK();
  }
  SequenceNumber global = 0;
  if (seqno != user.end()) {
    if (seqno->second.size() < 8) return bad("bad global seqno property");
    global = DecodeFixed64(seqno->second.data());
  }
  if (largest_seqno < kMaxSequenceNumber) {
    if (global == 0) global = largest_seqno;
    if (global != largest_seqno) {
      return bad("global seqno " + std::to_string(global) +
                 " differs from the largest seqno " +
                 std::to_string(largest_seqno));
    }
  }
  if (global > kMaxSequenceNumber) return bad("global seqno out of range");
  global_seqno_ = global;
  return Status::OK();
}

Status RobinHoodTableReader::LoadRangeDels(const Slice& contents) {
  auto bad = [&](const char* what) {
    return CorruptionAt(file_name(), "range deletions", what,
                        meta_.range_dels.offset);
  };
  Slice in = contents;
  uint64_t count = 0;
  if (!GetVarint64(&in, &count) || count > in.size() / 2 ||
      count != properties_->num_range_deletions) {
    return bad("bad count");
  }
  if (count == 0) return Status::OK();
  const Comparator* ucmp = icmp_.user_comparator();
  std::vector<std::string> keys, values;
  keys.reserve(count);
  values.reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    Slice k, v;
    if (!GetLengthPrefixedSlice(&in, &k) || !GetLengthPrefixedSlice(&in, &v) ||
        k.size() < kNumInternalBytes) {
      return bad("bad record");
    }
    // Decoded here, not by ParseInternalKey: that asserts on type bytes
    // beyond the enum, and only one type belongs in this section.
    const uint64_t packed = DecodeFixed64(k.data() + k.size() - 8);
    if ((packed & 0xff) != kTypeRangeDeletion) return bad("bad record type");
    const Slice start(k.data(), k.size() - kNumInternalBytes);
    // The fragmenter assumes every tombstone's start is not past its end.
    if (ucmp->Compare(start, v) > 0) return bad("tombstone ends before it starts");
    std::string key;
    AppendInternalKey(&key, ParsedInternalKey(start, Surfaced(packed >> 8),
                                              kTypeRangeDeletion));
    keys.push_back(std::move(key));
    values.push_back(v.ToString());
  }
  if (!in.empty()) return bad("trailing bytes");
  std::unique_ptr<InternalIterator> iter(
      new VectorIterator(std::move(keys), std::move(values), &icmp_));
  range_dels_ =
      std::make_shared<FragmentedRangeTombstoneList>(std::move(iter), icmp_);
  return Status::OK();
}

bool RobinHoodTableReader::IsVerified(size_t b) const {
  return (verified_[b / 64].load(std::memory_order_relaxed) >> (b % 64)) & 1;
}

void RobinHoodTableReader::MarkVerified(size_t b) const {
  verified_[b / 64].fetch_or(uint64_t{1} << (b % 64),
                             std::memory_order_relaxed);
}

Status RobinHoodTableReader::ReadBlock(size_t b, bool verify, std::string* buf,
                                       Slice* contents) const {
  const BlockLocation loc = blocks_.Get(b);
  Slice raw;
  Status s = ReadRange(loc.file_offset, loc.contents_bytes + kTrailerSize, buf,
                       &raw);
  if (!s.ok()) return s;
  return DecodeBlock(b, raw, verify, buf, contents);
}

Status RobinHoodTableReader::DecodeBlock(size_t b, const Slice& raw,
                                         bool verify, std::string* buf,
                                         Slice* contents) const {
  const BlockLocation loc = blocks_.Get(b);
  *contents = Slice(raw.data(), loc.contents_bytes);
  const char* trailer = raw.data() + loc.contents_bytes;
  const bool verified = mmap_ && IsVerified(b);
  // A verified raw block in the mapping needs nothing more: its type byte
  // was checked with its checksum, and not reading the trailer again saves
  // a lookup a cache line (often a page) outside its entry.
  if (verified && !loc.compressed()) return Status::OK();
  // A compressed block is verified whatever the caller asked: the checksum
  // costs a fraction of the decompression, and a codec should only ever
  // see the bytes the builder wrote.
  if (!verified && (verify || loc.compressed())) {
    Status s = VerifyTrailer(*contents, trailer, file_name(), "log block",
                             loc.file_offset);
    if (!s.ok()) return s;
    MarkVerified(b);
  }
  // The block table's sizes say whether a block is raw; the type byte is
  // only trusted once its checksum is. Unverified raw blocks are read on
  // the sizes alone, as the positioned-read path of Lookup reads entries
  // without their trailer, so every path answers the same.
  if (!loc.compressed()) {
    if (verify && static_cast<CompressionType>(trailer[0]) != kNoCompression) {
      return Status::Corruption(CorruptionMessage(
          file_name(), "log block: compression type disagrees with its size",
          loc.file_offset));
    }
    return Status::OK();
  }
  const auto type = static_cast<CompressionType>(trailer[0]);
  if (type == kNoCompression) {
    return Status::Corruption(CorruptionMessage(
        file_name(), "log block: compression type disagrees with its size",
        loc.file_offset));
  }
  // `*contents` may lie in `*buf` (a positioned read): decompress beside it.
  std::string out;
  Status s = Uncompress(type, *contents, loc.logical_bytes, &out);
  buf->swap(out);
  if (!s.ok()) {
    return Status::Corruption(CorruptionMessage(
        file_name(),
        ("log block does not decompress: " + s.ToString()).c_str(),
        loc.file_offset));
  }
  *contents = Slice(*buf);
  return Status::OK();
}

Status RobinHoodTableReader::Lookup(const Slice& user_key, uint64_t hash,
                                    bool verify, std::string* buf,
                                    LogEntry* entry, size_t* block,
                                    uint64_t* next_address,
                                    bool* found) const {
  Status s;
  *found = false;
  index_.Probe(hash, [&](uint64_t address) {
    if (address >= meta_.log_logical_bytes) {
      s = Status::Corruption(file_name() + ": hash index: address " +
                             std::to_string(address) + " past the log");
      return true;
    }
    const size_t b = blocks_.Find(address);
    const BlockLocation loc = blocks_.Get(b);
    const uint64_t in_block = address - loc.logical_offset;
    Slice view;
    if (mmap_ || loc.compressed() || (verify && !IsVerified(b))) {
      Slice contents;
      s = ReadBlock(b, verify, buf, &contents);
      if (!s.ok()) return true;
      view = Slice(contents.data() + in_block, contents.size() - in_block);
    } else {
      const uint64_t rest = loc.logical_bytes - in_block;
      s = ReadRange(loc.file_offset + in_block,
                    static_cast<size_t>(std::min<uint64_t>(rest, kEntryReadBytes)),
                    buf, &view);
      if (!s.ok()) return true;
      if (DecodeLogEntry(view.data(), view.data() + view.size(), entry) ==
              nullptr &&
          rest > view.size()) {
        s = ReadRange(loc.file_offset + in_block, static_cast<size_t>(rest),
                      buf, &view);
        if (!s.ok()) return true;
      }
    }
    const char* end = DecodeLogEntry(view.data(), view.data() + view.size(),
                                     entry);
    if (end == nullptr) {
      s = Status::Corruption(CorruptionMessage(
          file_name(), "log entry does not decode",
          loc.file_offset + in_block));
      return true;
    }
    if (entry->user_key != user_key) return false;  // tag collision
    *found = true;
    *block = b;
    *next_address = address + static_cast<uint64_t>(end - view.data());
    return true;
  });
  return s;
}

Status RobinHoodTableReader::Get(const ReadOptions& ro, const Slice& key,
                                 GetContext* get_context,
                                 const SliceTransform* /*prefix_extractor*/,
                                 bool /*skip_filters*/) {
  ParsedInternalKey target;
  Status s = ParseInternalKey(key, &target, /*log_err_key=*/false);
  if (!s.ok()) return s;
  return GetHashed(ro, target, hash_(target.user_key, meta_.hash_seed),
                   get_context);
}

Status RobinHoodTableReader::GetHashed(const ReadOptions& ro,
                                       const ParsedInternalKey& target,
                                       uint64_t hash,
                                       GetContext* get_context) const {
  Status s;
  std::string buf;
  LogEntry entry;
  size_t b = 0;
  uint64_t next = 0;
  bool found = false;
  s = Lookup(target.user_key, hash, ro.verify_checksums, &buf, &entry, &b,
             &next, &found);
  if (!s.ok() || !found) return s;

  // Versions of a key are adjacent, newest first; they may run on into the
  // following blocks.
  std::string block_buf;
  Slice contents;
  uint64_t block_start = 0;
  while (true) {
    const SequenceNumber seq = Surfaced(entry.sequence);
    if (seq <= target.sequence) {
      bool matched = false;
      if (!compat::SaveValue(get_context,
                             ParsedInternalKey(entry.user_key, seq, entry.type),
                             entry.value, &matched)) {
        return Status::OK();
      }
    }
    BlockLocation loc = blocks_.Get(b);
    if (next == loc.logical_offset + loc.logical_bytes) {
      if (++b == blocks_.num_blocks()) return Status::OK();
      contents = Slice();
      loc = blocks_.Get(b);
    }
    if (contents.empty()) {
      s = ReadBlock(b, ro.verify_checksums, &block_buf, &contents);
      if (!s.ok()) return s;
      block_start = loc.logical_offset;
    }
    const char* p = contents.data() + (next - block_start);
    const char* end = DecodeLogEntry(p, contents.data() + contents.size(),
                                     &entry);
    if (end == nullptr) {
      return Status::Corruption(CorruptionMessage(
          file_name(), "log entry does not decode",
          loc.file_offset + (next - block_start)));
    }
    if (entry.user_key != target.user_key) return Status::OK();
    next += static_cast<uint64_t>(end - p);
  }
}

void RobinHoodTableReader::MultiGet(const ReadOptions& ro,
                                    const MultiGetContext::Range* range,
                                    const SliceTransform* /*prefix_extractor*/,
                                    bool /*skip_filters*/) {
  // Three passes over the batch, so its cache misses overlap instead of
  // coming one after another: prefetch every home slot; probe each and
  // prefetch the first candidate entry (with mmap, where the entry is
  // addressable); then look each key up, now mostly from cache.
  uint64_t hashes[MultiGetContext::MAX_BATCH_SIZE];
  size_t n = 0;
  for (auto it = range->begin(); it != range->end(); ++it, ++n) {
    hashes[n] = hash_(ExtractUserKey(it->ikey), meta_.hash_seed);
    index_.PrefetchHome(hashes[n]);
  }
  if (mmap_) {
    for (size_t i = 0; i < n; ++i) {
      index_.Probe(hashes[i], [this](uint64_t address) {
        if (address < meta_.log_logical_bytes) {
          __builtin_prefetch(file_data_.data() + FileOffsetOf(address));
        }
        return true;
      });
    }
  }
  size_t i = 0;
  for (auto it = range->begin(); it != range->end(); ++it, ++i) {
    ParsedInternalKey target;
    *it->s = ParseInternalKey(it->ikey, &target, /*log_err_key=*/false);
    if (it->s->ok()) {
      *it->s = GetHashed(ro, target, hashes[i], it->get_context);
    }
  }
}

InternalIterator* RobinHoodTableReader::NewIterator(
    const ReadOptions& ro, const SliceTransform* /*prefix_extractor*/,
    Arena* arena, bool /*skip_filters*/, TableReaderCaller caller,
    size_t compaction_readahead_size, bool /*allow_unprepared_value*/) {
  size_t readahead = ro.readahead_size;
  if (caller == TableReaderCaller::kCompaction) {
    // Compaction reads the whole log in order: read ahead from the start.
    readahead = std::max<size_t>(compaction_readahead_size, 2 << 20);
  }
  if (arena == nullptr) return new RobinHoodTableIterator(this, ro, readahead);
  auto* mem = arena->AllocateAligned(sizeof(RobinHoodTableIterator));
  return new (mem) RobinHoodTableIterator(this, ro, readahead);
}

FragmentedRangeTombstoneIterator*
RobinHoodTableReader::NewRangeTombstoneIterator(const ReadOptions& ro) {
  if (range_dels_ == nullptr || range_dels_->empty()) return nullptr;
  SequenceNumber snapshot = kMaxSequenceNumber;
  if (ro.snapshot != nullptr) snapshot = ro.snapshot->GetSequenceNumber();
  return new FragmentedRangeTombstoneIterator(range_dels_, icmp_, snapshot);
}

uint64_t RobinHoodTableReader::FileOffsetOf(uint64_t address) const {
  if (address >= meta_.log_logical_bytes) return meta_.log_file_bytes;
  const BlockLocation loc = blocks_.Get(blocks_.Find(address));
  return loc.file_offset + (address - loc.logical_offset);
}

uint64_t RobinHoodTableReader::ApproximateOffsetOf(const Slice& key,
                                                   TableReaderCaller) {
  if (sparse_.size() == 0) return 0;
  if (icmp_.Compare(key, sparse_.key(sparse_.size() - 1)) > 0) {
    // Past the last record: somewhere in the tail; count the tail as past.
    return meta_.log_file_bytes;
  }
  return FileOffsetOf(sparse_.SeekAddress(key));
}

uint64_t RobinHoodTableReader::ApproximateSize(const Slice& start,
                                               const Slice& end,
                                               TableReaderCaller caller) {
  const uint64_t a = ApproximateOffsetOf(start, caller);
  const uint64_t b = ApproximateOffsetOf(end, caller);
  return b > a ? b - a : 0;
}

size_t RobinHoodTableReader::ApproximateMemoryUsage() const {
  return sizeof(*this) + index_buf_.capacity() + blocks_.MemoryUsage() +
         sparse_.MemoryUsage() + (blocks_.num_blocks() / 64 + 1) * 8;
}

Status RobinHoodTableReader::VerifyChecksum(const ReadOptions& /*ro*/,
                                            TableReaderCaller /*caller*/) {
  std::string buf;
  Slice contents;
  for (size_t b = 0; b < blocks_.num_blocks(); ++b) {
    const BlockLocation loc = blocks_.Get(b);
    Slice raw;
    Status s = ReadRange(loc.file_offset, loc.contents_bytes + kTrailerSize,
                         &buf, &raw);
    if (s.ok()) {
      s = VerifyTrailer(Slice(raw.data(), loc.contents_bytes),
                        raw.data() + loc.contents_bytes, file_name(),
                        "log block", loc.file_offset);
    }
    if (!s.ok()) return s;
  }
  for (auto section : {std::make_pair(&meta_.index, "hash index"),
                       std::make_pair(&meta_.block_table, "block table"),
                       std::make_pair(&meta_.sparse_index, "sparse index"),
                       std::make_pair(&meta_.range_dels, "range deletions"),
                       std::make_pair(&meta_.metaindex, "metaindex")}) {
    Status s = ReadSection(*section.first, section.second, &buf, &contents);
    if (!s.ok()) return s;
  }
  // Meta (which vouches for the footer) and properties.
  const SectionHandle meta_handle{
      file_size_ - kFooterSize - kTrailerSize - TableMeta::kEncodedLength,
      TableMeta::kEncodedLength};
  Status s = ReadSection(meta_handle, "meta block", &buf, &contents);
  if (!s.ok()) return s;
  std::string expected;
  meta_.EncodeTo(&expected);
  if (contents != Slice(expected)) {
    return Status::Corruption(
        CorruptionMessage(file_name(), "meta block changed", meta_handle.offset));
  }
  Slice footer;
  s = ReadRange(file_size_ - kFooterSize, kFooterSize, &buf, &footer);
  if (!s.ok()) return s;
  if (crc32c::Unmask(meta_.footer_crc) !=
      crc32c::Value(footer.data(), footer.size())) {
    return Status::Corruption(CorruptionMessage(
        file_name(), "footer checksum mismatch", file_size_ - kFooterSize));
  }
  std::unique_ptr<TableProperties> props;
  return CheckProperties(&props);
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
