#include "table/robinhood_table_reader.h"

#include <algorithm>

#include "rocksdb/snapshot.h"
#include "table/compat.h"
#include "table/internal_iterator.h"
#include "table/ingestion_rules.h"
#include "table/properties_section.h"
#include "util/coding.h"
#include "util/vector_iterator.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

RobinHoodTableReader::RobinHoodTableReader(
    const ImmutableOptions& ioptions, const InternalKeyComparator& icmp,
    std::unique_ptr<RandomAccessFileReader>&& file, uint64_t file_size,
    HashFunction hash, std::shared_ptr<Cache> block_cache, bool immortal)
    : TableView(std::move(file), file_size, ioptions.allow_mmap_reads,
                ioptions.clock, icmp, hash, std::move(block_cache), immortal),
      ioptions_(ioptions) {}

RobinHoodTableReader::~RobinHoodTableReader() = default;

Status RobinHoodTableReader::Open(
    const ImmutableOptions& ioptions, const InternalKeyComparator& icmp,
    std::unique_ptr<RandomAccessFileReader>&& file, uint64_t file_size,
    SequenceNumber largest_seqno, std::unique_ptr<TableReader>* reader,
    HashFunction hash, std::shared_ptr<Cache> block_cache, bool immortal) {
  std::unique_ptr<RobinHoodTableReader> r(new RobinHoodTableReader(
      ioptions, icmp, std::move(file), file_size, hash,
      std::move(block_cache), immortal));
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
  std::unique_ptr<TableProperties> props;
  s = ReadPropertiesSection(file_, tail_, ioptions_, &props);
  if (!s.ok()) return s;
  properties_ = std::move(props);
  if (block_cache_ != nullptr) block_cache_id_ = BlockCacheId();

  layout_ = LayoutKindOf(meta).make();
  s = layout_->Open(this, meta);
  if (!s.ok()) return s;
  hash_is_key_hash_ = layout_->HashIsKeyHash();
  prefetches_after_home_ = layout_->PrefetchesAfterHome();
  // Damage there is left for the lookups that need it to report, as
  // before: a file that opens keeps its other parts readable (its scans,
  // its properties), and a DB that opens every file at once still opens.
  if (!mmap()) layout_->LoadForLookups().PermitUncheckedError();
  s = GlobalSeqnoOf(*properties_, largest_seqno, fname, meta.properties.offset,
                    &global_seqno_);
  if (!s.ok()) return s;

  s = file_.ReadSection(meta.range_dels, "range deletions", &buf, &contents);
  if (s.ok()) s = LoadRangeDels(contents);
  if (s.ok() && HasFilterSection(meta.format_version)) {
    // Checked whatever verify_checksums says (filter_section.h).
    s = filter_.Open(file_, meta.filter);
  }
  return s;
}

uint64_t RobinHoodTableReader::BlockCacheId() const {
  // Both are needed: ingestion and imports give a file a new number, and
  // SstFileWriter numbers its files within a session of its own (0: none).
  const TableProperties& p = *properties_;
  if (p.db_session_id.empty() || p.orig_file_number == 0) {
    return block_cache_->NewId();
  }
  std::string id = p.db_id;
  id.push_back('\0');
  id.append(p.db_session_id);
  id.push_back('\0');
  PutFixed64(&id, p.orig_file_number);
  // The top bit keeps it apart from the cache's own ids, which count up
  // from 1.
  return KeyHash(id, /*seed=*/0x5eed) | (uint64_t{1} << 63);
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

InternalIterator* RobinHoodTableReader::NewIterator(
    const ReadOptions& ro, const SliceTransform* /*prefix_extractor*/,
    Arena* arena, bool /*skip_filters*/, TableReaderCaller caller,
    size_t compaction_readahead_size, bool /*allow_unprepared_value*/) {
  if (ScanMayNotRead(ro)) {
    return NewErrorInternalIterator<Slice>(CachedBlock::NeedsRead(), arena);
  }
  const bool compaction = caller == TableReaderCaller::kCompaction;
  ScanAhead ahead;
  ahead.bytes = ro.readahead_size;
  ahead.upper = ro.iterate_upper_bound;
  if (compaction) {
    // Compaction reads every entry in order: read ahead from the start.
    ahead.bytes = std::max<size_t>(compaction_readahead_size, 2 << 20);
    ahead.upper = nullptr;
  }
  return layout_->NewIterator(arena, compaction, UseOf(ro), ahead);
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

uint64_t RobinHoodTableReader::ApproximateOffsetOf(
    RH_APPROXIMATE_READ_OPTIONS const Slice& key, TableReaderCaller) {
  return OffsetOf(key);
}

uint64_t RobinHoodTableReader::OffsetOf(const Slice& key) const {
  return layout_->OffsetOf(key);
}

uint64_t RobinHoodTableReader::ApproximateSize(
    RH_APPROXIMATE_READ_OPTIONS const Slice& start, const Slice& end,
    TableReaderCaller) {
  const uint64_t a = OffsetOf(start);
  const uint64_t b = OffsetOf(end);
  return b > a ? b - a : 0;
}

Status RobinHoodTableReader::ApproximateKeyAnchors(
    const ReadOptions& ro, std::vector<Anchor>& anchors) {
  // The runs begin at the first key and end at the last: an iterator
  // finds both (a file of range deletions alone has no runs).
  std::unique_ptr<InternalIterator> it(NewIterator(
      ro, nullptr, nullptr, false, TableReaderCaller::kUncategorized));
  it->SeekToFirst();
  if (!it->Valid()) return it->status();
  const std::string first = ExtractUserKey(it->key()).ToString();
  it->SeekToLast();
  if (!it->Valid()) return it->status();
  const std::string last = ExtractUserKey(it->key()).ToString();
  std::vector<std::string> keys;
  Status s = layout_->AnchorKeys(128, &keys);
  if (!s.ok()) return s;
  const Comparator* ucmp = icmp_.user_comparator();
  auto begin_of = [&](const Slice& user_key) {
    return OffsetOf(
        InternalKey(user_key, kMaxSequenceNumber, kValueTypeForSeek).Encode());
  };
  uint64_t prev = begin_of(first);
  Slice prev_key = first;
  for (const std::string& k : keys) {
    if (ucmp->Compare(k, prev_key) <= 0 || ucmp->Compare(k, last) >= 0) {
      continue;
    }
    const uint64_t at = begin_of(k);
    if (at <= prev) continue;  // an empty run
    anchors.emplace_back(k, at - prev);
    prev = at;
    prev_key = k;
  }
  // Sequence 0 and type 0 sort after every entry of the last key: where
  // the data ends. The paged layout answers with the last page's start;
  // the data's size (from the file's start, within the file) is its end.
  const uint64_t end =
      std::max(OffsetOf(InternalKey(last, 0, kTypeDeletion).Encode()),
               std::min(properties_->data_size, file_.file_size()));
  anchors.emplace_back(last, end > prev ? end - prev : 0);
  return Status::OK();
}

size_t RobinHoodTableReader::ApproximateMemoryUsage() const {
  return sizeof(*this) + filter_.MemoryUsage() + layout_->MemoryUsage();
}

Status RobinHoodTableReader::VerifyChecksum(
    const ReadOptions& ro, TableReaderCaller /*caller*/
    RH_VERIFY_CHECKSUM_EXTRA) {
  std::string buf;
  Status entries = layout_->VerifyEntries(UseOf(ro), &buf);
  if (!entries.ok()) return entries;
  // The samples' order and bounds, which open leaves to their first use.
  const SparseIndex* samples = nullptr;
  entries = layout_->Samples(&samples);
  if (!entries.ok()) return entries;
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
                        MetaHandleOf(file_.file_size(), m.format_version)
                            .offset);
  }
  std::unique_ptr<TableProperties> props;
  return ReadPropertiesSection(file_, tail_, ioptions_, &props);
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
