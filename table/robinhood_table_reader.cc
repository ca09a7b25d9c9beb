#include "table/robinhood_table_reader.h"

#include <algorithm>

#include "rocksdb/snapshot.h"
#include "table/compat.h"
#include "table/ingestion_rules.h"
#include "table/inline_table_iterator.h"
#include "table/properties_section.h"
#include "table/robinhood_table_iterator.h"
#include "util/coding.h"
#include "util/vector_iterator.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

RobinHoodTableReader::RobinHoodTableReader(
    const ImmutableOptions& ioptions, const InternalKeyComparator& icmp,
    std::unique_ptr<RandomAccessFileReader>&& file, uint64_t file_size,
    HashFunction hash)
    : TableView(std::move(file), file_size, ioptions.allow_mmap_reads, icmp),
      ioptions_(ioptions),
      hash_(hash) {}

RobinHoodTableReader::~RobinHoodTableReader() = default;

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

Status RobinHoodTableReader::Init(SequenceNumber largest_seqno) {
  Status s = file_.Init();
  if (s.ok()) s = ReadTableTail(file_, &tail_);
  if (!s.ok()) return s;
  const TableMeta& meta = tail_.meta;
  const std::string& fname = file_name();
  std::string buf;
  Slice contents;
  if (meta.is_inline()) {
    s = InitInline();
  } else {
    s = InitLog();
  }
  if (!s.ok()) return s;

  std::unique_ptr<TableProperties> props;
  s = ReadPropertiesSection(file_, tail_, ioptions_, &props);
  if (!s.ok()) return s;
  properties_ = std::move(props);
  s = GlobalSeqnoOf(*properties_, largest_seqno, fname, meta.properties.offset,
                    &global_seqno_);
  if (!s.ok()) return s;

  s = file_.ReadSection(meta.range_dels, "range deletions", &buf, &contents);
  if (s.ok()) s = LoadRangeDels(contents);
  if (s.ok() && HasFilterSection(meta.format_version)) {
    // Checked here whatever verify_checksums says (filter_section.h).
    s = file_.ReadSection(meta.filter, "filter", &buf, &contents);
    if (s.ok()) {
      s = filter_.Init(contents, meta.filter.offset, mmap(), fname);
    }
  }
  return s;
}

Status RobinHoodTableReader::InitInline() {
  const TableMeta& meta = tail_.meta;
  // The slots stay in the file (pages are checked as lookups reach them);
  // the directory and the samples come into memory, checked.
  std::string buf;
  Slice contents;
  Status s = file_.ReadSection(meta.block_table, "inline directory", &buf,
                               &contents);
  if (!s.ok()) return s;
  inline_.reset(new InlineTable);
  s = inline_->Init(&file_, meta, std::move(buf), contents,
                    icmp_.user_comparator());
  if (!s.ok()) return s;
  std::string sparse_buf;
  s = file_.ReadSection(meta.sparse_index, "sparse index", &sparse_buf,
                        &contents);
  if (s.ok()) {
    // Addresses are positions in the key order.
    s = sparse_.Init(contents, meta.num_keys, &icmp_, file_name(),
                     meta.sparse_index.offset);
  }
  return s;
}

Status RobinHoodTableReader::InitLog() {
  const TableMeta& meta = tail_.meta;
  const std::string& fname = file_name();
  // Hash index: in place with mmap, else in memory.
  Slice slots;
  Status s = file_.ReadSection(meta.index, "hash index", &index_buf_, &slots);
  if (!s.ok()) return s;
  IndexGeometry geo;
  geo.capacity = meta.index_capacity;
  geo.slots = meta.index_slots;
  geo.address_bits = meta.address_bits;
  geo.max_displacement = meta.max_displacement;
  geo.keys = meta.num_keys;
  index_.Init(slots.data(), geo);

  std::string buf;
  Slice contents;
  s = file_.ReadSection(meta.block_table, "block table", &buf, &contents);
  if (s.ok()) {
    s = blocks_.Init(contents, meta.log_file_bytes, meta.log_logical_bytes,
                     meta.log_block_size, fname, meta.block_table.offset);
  }
  if (!s.ok()) return s;
  log_.reset(new LogBlockReader(&file_, &blocks_));

  s = file_.ReadSection(meta.sparse_index, "sparse index", &buf, &contents);
  if (s.ok()) {
    s = sparse_.Init(contents, meta.log_logical_bytes, &icmp_, fname,
                     meta.sparse_index.offset);
  }
  return s;
}

// Range deletions:
//   varint64 count (= the properties' num_range_deletions)
//   count x { varint32-prefixed internal start key, varint32-prefixed end }
Status RobinHoodTableReader::LoadRangeDels(const Slice& contents) {
  auto bad = [&](const char* what) {
    return CorruptionAt(file_name(), "range deletions", what,
                        meta().range_dels.offset);
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
    if (ucmp->Compare(start, v) > 0) {
      return bad("tombstone ends before it starts");
    }
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

Status RobinHoodTableReader::Get(const ReadOptions& ro, const Slice& key,
                                 GetContext* get_context,
                                 const SliceTransform* /*prefix_extractor*/,
                                 bool skip_filters) {
  ParsedInternalKey target;
  Status s = ParseInternalKey(key, &target, /*log_err_key=*/false);
  if (!s.ok()) return s;
  if (filter_.usable() && !skip_filters) {
    const bool may = filter_.KeyMayMatch(target.user_key);
    RecordTick(may ? BLOOM_FILTER_FULL_POSITIVE : BLOOM_FILTER_USEFUL);
    if (!may) return Status::OK();
  }
  return GetHashed(ro, target, HashOf(target.user_key), get_context);
}

Status RobinHoodTableReader::GetHashed(const ReadOptions& ro,
                                       const ParsedInternalKey& target,
                                       uint64_t hash,
                                       GetContext* get_context) const {
  std::string buf;
  bool found = false;
  if (inline_ != nullptr) {
    // One entry per key, a compacted put: surfaced at the file's sequence.
    Slice value;
    Status s = inline_->Find(target.user_key, hash, kVerifyReads, &buf,
                             &value, &found);
    if (!s.ok() || !found) return s;
    const SequenceNumber seq = Surfaced(0);
    if (seq > target.sequence) return Status::OK();
    bool matched = false;
    Status read_status;
    if (!compat::SaveValue(get_context,
                           ParsedInternalKey(target.user_key, seq, kTypeValue),
                           value, &matched, &read_status)) {
      return read_status;
    }
    return Status::OK();
  }
  EntryRef at;
  Status s = FindNewest(target.user_key, hash, kVerifyReads, &buf, &at,
                        &found);
  if (!s.ok() || !found) return s;

  // Versions of a key are adjacent, newest first; they may run on into the
  // following blocks.
  LogEntry& entry = at.entry;
  size_t b = at.block;
  uint64_t next = at.next_address;
  std::string block_buf;
  Slice contents;
  uint64_t block_start = 0;
  while (true) {
    const SequenceNumber seq = Surfaced(entry.sequence);
    if (seq <= target.sequence) {
      bool matched = false;
      // A merge whose operator fails, or a blob that does not read, is
      // reported here (RocksDB 9.1 on); earlier hosts mark the context.
      Status read_status;
      if (!compat::SaveValue(get_context,
                             ParsedInternalKey(entry.user_key, seq, entry.type),
                             entry.value, &matched, &read_status)) {
        return read_status;
      }
    }
    BlockLocation loc = blocks_.Get(b);
    if (next == loc.logical_offset + loc.logical_bytes) {
      if (++b == blocks_.num_blocks()) return Status::OK();
      contents = Slice();
      loc = blocks_.Get(b);
    }
    if (contents.empty()) {
      s = log_->ReadBlock(b, kVerifyReads, &block_buf, &contents);
      if (!s.ok()) return s;
      block_start = loc.logical_offset;
    }
    const char* p = contents.data() + (next - block_start);
    const char* end =
        DecodeLogEntry(p, contents.data() + contents.size(), &entry);
    if (end == nullptr) {
      return log_->Damaged(b, "entry does not decode", next - block_start);
    }
    if (entry.user_key != target.user_key) return Status::OK();
    next += static_cast<uint64_t>(end - p);
  }
}

void RobinHoodTableReader::MultiGet(const ReadOptions& ro,
                                    const MultiGetContext::Range* range,
                                    const SliceTransform* /*prefix_extractor*/,
                                    bool skip_filters) {
  // The filter first, for the whole batch (RocksDB's reader prefetches
  // its lines), so keys it rules out cost no slot reads.
  bool may_match[MultiGetContext::MAX_BATCH_SIZE];
  const bool filtered = filter_.usable() && !skip_filters;
  if (filtered) {
    Slice user_keys[MultiGetContext::MAX_BATCH_SIZE];
    Slice* key_ptrs[MultiGetContext::MAX_BATCH_SIZE];
    int k = 0;
    for (auto it = range->begin(); it != range->end(); ++it, ++k) {
      user_keys[k] = ExtractUserKey(it->ikey);
      key_ptrs[k] = &user_keys[k];
    }
    filter_.KeysMayMatch(k, key_ptrs, may_match);
  }
  // Then three passes over what is left, so its cache misses overlap
  // instead of coming one after another: prefetch every home slot; probe
  // each and prefetch the first candidate entry (with mmap, where the entry
  // is addressable); then look each key up, now mostly from cache.
  uint64_t hashes[MultiGetContext::MAX_BATCH_SIZE];
  size_t n = 0;
  for (auto it = range->begin(); it != range->end(); ++it, ++n) {
    if (filtered) {
      RecordTick(may_match[n] ? BLOOM_FILTER_FULL_POSITIVE
                              : BLOOM_FILTER_USEFUL);
      if (!may_match[n]) continue;
    }
    const Slice user_key = ExtractUserKey(it->ikey);
    hashes[n] = HashOf(user_key);
    PrefetchHome(user_key, hashes[n]);
  }
  if (mmap() && inline_ == nullptr) {
    for (size_t i = 0; i < n; ++i) {
      if (filtered && !may_match[i]) continue;
      index_.Probe(hashes[i], [this](uint64_t address) {
        if (address < meta().log_logical_bytes) {
          __builtin_prefetch(file_.mapping().data() + FileOffsetOf(address));
        }
        return true;
      });
    }
  }
  size_t i = 0;
  for (auto it = range->begin(); it != range->end(); ++it, ++i) {
    if (filtered && !may_match[i]) {
      *it->s = Status::OK();
      continue;
    }
    ParsedInternalKey target;
    *it->s = ParseInternalKey(it->ikey, &target, /*log_err_key=*/false);
    if (it->s->ok()) {
      *it->s = GetHashed(ro, target, hashes[i], it->get_context);
    }
  }
}

void RobinHoodTableReader::Prepare(const Slice& internal_key) {
  // Hosts pass what they will pass Get, but a key too short to carry the
  // sequence and type names nothing here (ExtractUserKey would assert).
  if (internal_key.size() < kNumInternalBytes) return;
  const Slice user_key(internal_key.data(),
                       internal_key.size() - kNumInternalBytes);
  // No filter probe: the Get that follows probes it anyway, so a probe
  // here would add a cache miss to every key, where a key the filter rules
  // out only wastes one prefetch.
  PrefetchHome(user_key, HashOf(user_key));
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
  if (inline_ != nullptr) {
    const bool whole = caller == TableReaderCaller::kCompaction;
    if (arena == nullptr) return new InlineTableIterator(this, ro, whole);
    auto* mem = arena->AllocateAligned(sizeof(InlineTableIterator));
    return new (mem) InlineTableIterator(this, ro, whole);
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

#if RH_HAS_SEQNO_TOMBSTONE_ITERATOR
FragmentedRangeTombstoneIterator*
RobinHoodTableReader::NewRangeTombstoneIterator(SequenceNumber read_seqno,
                                                const Slice* /*timestamp*/) {
  // User-defined timestamps are refused at open (the factory), so only the
  // sequence number bounds what is seen.
  if (range_dels_ == nullptr || range_dels_->empty()) return nullptr;
  return new FragmentedRangeTombstoneIterator(range_dels_, icmp_, read_seqno);
}
#endif

uint64_t RobinHoodTableReader::FileOffsetOf(uint64_t address) const {
  if (address >= meta().log_logical_bytes) return meta().log_file_bytes;
  const BlockLocation loc = blocks_.Get(blocks_.Find(address));
  return loc.file_offset + (address - loc.logical_offset);
}

uint64_t RobinHoodTableReader::ApproximateOffsetOf(
    RH_APPROXIMATE_READ_OPTIONS const Slice& key, TableReaderCaller) {
  return OffsetOf(key);
}

uint64_t RobinHoodTableReader::OffsetOf(const Slice& key) const {
  if (sparse_.size() == 0) return 0;
  if (inline_ != nullptr) {
    // Entries are spread over the slots in hash order: a key's share of
    // them is its position in key order.
    const SectionHandle& slots = meta().index;
    if (icmp_.Compare(key, sparse_.key(sparse_.size() - 1)) > 0) {
      return slots.end_with_trailer();  // the data size, as for a log
    }
    const uint64_t position = sparse_.SeekAddress(key);
    return slots.offset +
           static_cast<uint64_t>(static_cast<unsigned __int128>(position) *
                                 slots.size / meta().num_keys);
  }
  if (icmp_.Compare(key, sparse_.key(sparse_.size() - 1)) > 0) {
    // Past the last record: somewhere in the tail; count the tail as past.
    return meta().log_file_bytes;
  }
  return FileOffsetOf(sparse_.SeekAddress(key));
}

uint64_t RobinHoodTableReader::ApproximateSize(
    RH_APPROXIMATE_READ_OPTIONS const Slice& start, const Slice& end,
    TableReaderCaller) {
  const uint64_t a = OffsetOf(start);
  const uint64_t b = OffsetOf(end);
  return b > a ? b - a : 0;
}

size_t RobinHoodTableReader::ApproximateMemoryUsage() const {
  return sizeof(*this) + index_buf_.capacity() + blocks_.MemoryUsage() +
         filter_.MemoryUsage() +
         (inline_ ? inline_->MemoryUsage() : 0) +
         sparse_.MemoryUsage() + (blocks_.num_blocks() / 64 + 1) * 8;
}

Status RobinHoodTableReader::VerifyChecksum(
    const ReadOptions& /*ro*/, TableReaderCaller /*caller*/
    RH_VERIFY_CHECKSUM_EXTRA) {
  std::string buf;
  if (inline_ != nullptr) {
    Status s = inline_->VerifyAll(&buf);
    if (!s.ok()) return s;
  }
  for (size_t b = 0; log_ != nullptr && b < blocks_.num_blocks(); ++b) {
    Status s = log_->VerifyBlock(b, &buf);
    if (!s.ok()) return s;
  }
  const TableMeta& m = meta();
  Slice contents;
  for (const NamedSection& section : m.NamedSections()) {
    // Properties are checked below, with what open decoded of them.
    if (section.handle == &m.properties) continue;
    Status s = file_.ReadSection(*section.handle, section.name, &buf,
                                 &contents);
    if (!s.ok()) return s;
  }
  // The tail and the properties, read again from the file: they must
  // still say what open decoded.
  TableTail now;
  Status s = ReadTableTail(file_, &now);
  if (!s.ok()) return s;
  std::string was, is;
  m.EncodeTo(&was);
  now.meta.EncodeTo(&is);
  if (was != is || now.footer_bytes != tail_.footer_bytes) {
    return CorruptionAt(file_name(), "meta block", "changed since open",
                        MetaHandleOf(file_.file_size()).offset);
  }
  std::unique_ptr<TableProperties> props;
  return ReadPropertiesSection(file_, tail_, ioptions_, &props);
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
