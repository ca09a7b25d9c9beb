#include "table/robinhood_table_reader.h"

#include <algorithm>
#include <chrono>

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
    : TableView(std::move(file), file_size, ioptions.allow_mmap_reads, icmp,
                hash, std::move(block_cache), immortal),
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

Status RobinHoodTableReader::Get(const ReadOptions& ro, const Slice& key,
                                 GetContext* get_context,
                                 const SliceTransform* /*prefix_extractor*/,
                                 bool skip_filters) {
  ParsedInternalKey target;
  Status s = ParseInternalKey(key, &target, /*log_err_key=*/false);
  if (!s.ok()) return s;
  const uint64_t hash = layout_->HashOf(target.user_key);
  // Only a file read without mmap samples its Gets: the key's KeyHash then,
  // taken once.
  uint64_t key_hash = hash;
  bool have_key_hash = hash_is_key_hash_;
  Layout::Hint hint = Layout::kNoHint;
  if (filter_.usable() && !skip_filters) {
    // The filter's line and the home's are asked for before either is
    // read, so a key waits on the two at once, not one after the other.
    // The home first where the layout computes it (slots, a log's index:
    // the longer wait, started before the filter's hash is taken); the
    // filter's line first where the home takes a search (the paged
    // layout's), which the line arrives during. There, while a quarter or
    // more of the file's lookups miss, the home's lines wait for the
    // filter's yes (miss_share.h).
    const bool search = layout_->SearchesForHome();
    const bool expect_miss = search && misses_.MostlyMisses();
    if (!search) hint = layout_->PrefetchHome(target.user_key, hash);
    const uint64_t filter_hash =
        filter_.hashed() ? KeyHashOf(target.user_key, hash) : 0;
    if (filter_.hashed()) {
      filter_.Prefetch(filter_hash);
      key_hash = filter_hash;
      have_key_hash = true;
    }
    if (search) {
      hint = expect_miss ? layout_->FindHome(target.user_key, hash)
                         : layout_->PrefetchHome(target.user_key, hash);
    }
    bool may = true;
    s = filter_.KeyMayMatch(target.user_key, filter_hash, &may);
    if (!s.ok()) return s;
    RecordTick(may ? BLOOM_FILTER_FULL_POSITIVE : BLOOM_FILTER_USEFUL);
    if (search) misses_.Note(!may, hash);
    if (!may) return Status::OK();
    if (expect_miss) layout_->PrefetchFoundHome(hint);
    layout_->PrefetchEntry(hint);
  }
  if (!have_key_hash && !mmap()) key_hash = Hash(target.user_key);
  const CacheUse use = UseOf(ro);
  // The common read returns the layout's answer as it comes.
  if (!use.no_io) {
    return LayoutGet(target, hash, key_hash, hint, use, get_context);
  }
  Status r = LookupMayNotRead(ro)
                 ? CachedBlock::NeedsRead()
                 : LayoutGet(target, hash, key_hash, hint, use, get_context);
  NoteNeedsRead(r, use, get_context);
  return r;
}

// A read that must not block (kBlockCacheTier: KeyMayExist, a caller's
// non-blocking try) takes what is in memory: a mapped file is, as it is for
// PlainTable and CuckooTable; otherwise the filter, whose no is an answer,
// and for lookups the block cache; what needs more is Incomplete, as
// BlockBasedTable's lookups are for a block not in its cache.
bool RobinHoodTableReader::ScanMayNotRead(const ReadOptions& ro) const {
  return ro.read_tier == kBlockCacheTier && !mmap() &&
         !layout_->ScansThroughCache();
}

bool RobinHoodTableReader::LookupMayNotRead(const ReadOptions& ro) const {
  return ro.read_tier == kBlockCacheTier && !mmap() &&
         block_cache() == nullptr;
}

void RobinHoodTableReader::NoteNeedsRead(const Status& s, CacheUse use,
                                         GetContext* get_context) {
  if (use.no_io && s.IsIncomplete()) get_context->MarkKeyMayExist();
}

void RobinHoodTableReader::MultiGet(const ReadOptions& ro,
                                    const MultiGetContext::Range* range,
                                    const SliceTransform* /*prefix_extractor*/,
                                    bool skip_filters) {
  // Passes over the batch, so its cache misses overlap instead of coming
  // one after another: the filter's lines, the filter's answers, the
  // homes of the keys it passes; then each probe prefetches its first
  // candidate entry (with mmap, where the entry is addressable); then
  // each key is looked up, now mostly from cache. Not the filter's lines
  // and the homes at once, as Get asks for them: a batch of both keeps
  // more misses in flight than the core tracks (at 10M keys both at once
  // ran at 0.90x the speed without a filter, the filter first at 0.97x).
  const CacheUse use = UseOf(ro);
  bool may_match[MultiGetContext::MAX_BATCH_SIZE];
  uint64_t hashes[MultiGetContext::MAX_BATCH_SIZE];
  Layout::Hint hints[MultiGetContext::MAX_BATCH_SIZE];
  const bool filtered = filter_.usable() && !skip_filters;
  const bool hashed = filtered && filter_.hashed();
  Slice user_keys[MultiGetContext::MAX_BATCH_SIZE];
  Slice* key_ptrs[MultiGetContext::MAX_BATCH_SIZE];
  uint64_t key_hashes[MultiGetContext::MAX_BATCH_SIZE];
  int k = 0;
  for (auto it = range->begin(); it != range->end(); ++it, ++k) {
    user_keys[k] = ExtractUserKey(it->ikey);
    key_ptrs[k] = &user_keys[k];
    hashes[k] = layout_->HashOf(user_keys[k]);
    key_hashes[k] = KeyHashOf(user_keys[k], hashes[k]);
    if (hashed) filter_.Prefetch(key_hashes[k]);
  }
  // Past memory a mapped filter's pages are on disk as well as the homes:
  // asked for together, not faulted in one probe after another.
  if (hashed && mmap() && !use.no_io && residency_.MostlyOnDisk(false)) {
    for (int n = 0; n < k; ++n) {
      uint64_t offset = 0;
      size_t bytes = 0;
      filter_.PageInFile(key_hashes[n], &offset, &bytes);
      file().AskFor(offset, bytes);
    }
  }
  Status damaged[MultiGetContext::MAX_BATCH_SIZE];
  if (hashed) {
    for (int n = 0; n < k; ++n) {
      damaged[n] = filter_.KeyMayMatch(user_keys[n], key_hashes[n],
                                       &may_match[n]);
      if (!damaged[n].ok()) may_match[n] = false;
    }
  } else if (filtered) {
    filter_.BuiltinKeysMayMatch(k, key_ptrs, may_match);
  }
  for (int n = 0; n < k; ++n) {
    hints[n] = Layout::kNoHint;
    if (filtered) {
      RecordTick(may_match[n] ? BLOOM_FILTER_FULL_POSITIVE
                              : BLOOM_FILTER_USEFUL);
      if (!may_match[n]) continue;
    }
    hints[n] = layout_->PrefetchHome(user_keys[n], hashes[n]);
    // A read that must not block starts none.
    if (!use.no_io) {
      AskForHomeOnDisk(user_keys[n], hashes[n], key_hashes[n], hints[n],
                       filtered);
    }
  }
  size_t j = 0;
  for (auto it = range->begin(); it != range->end(); ++it, ++j) {
    if (filtered && !may_match[j]) continue;
    layout_->PrefetchAfterHome(ExtractUserKey(it->ikey), hashes[j], hints[j]);
  }
  const bool may_not_read = LookupMayNotRead(ro);
  size_t i = 0;
  for (auto it = range->begin(); it != range->end(); ++it, ++i) {
    if (filtered && !may_match[i]) {
      *it->s = hashed ? damaged[i] : Status::OK();
      continue;
    }
    if (may_not_read) {
      *it->s = CachedBlock::NeedsRead();
      NoteNeedsRead(*it->s, use, it->get_context);
      continue;
    }
    ParsedInternalKey target;
    *it->s = ParseInternalKey(it->ikey, &target, /*log_err_key=*/false);
    if (it->s->ok()) {
      *it->s =
          LayoutGet(target, hashes[i], key_hashes[i], hints[i], use,
                    it->get_context);
      NoteNeedsRead(*it->s, use, it->get_context);
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
  // out only wastes one prefetch. A hash filter's line is prefetched too,
  // so that Get finds both in cache.
  const uint64_t hash = layout_->HashOf(user_key);
  const uint64_t key_hash = KeyHashOf(user_key, hash);
  if (filter_.hashed()) filter_.Prefetch(key_hash);
  AskForHomeOnDisk(user_key, hash, key_hash,
                   layout_->PrefetchHome(user_key, hash), /*filtered=*/false);
}

void RobinHoodTableReader::AskForHomeOnDisk(const Slice& user_key,
                                            uint64_t hash, uint64_t key_hash,
                                            Layout::Hint hint, bool filtered) {
  // Most keys of a batch in memory end at the first test, before any call:
  // this runs for every key of the compacted DB's MultiGet. A mapped file
  // samples here, by the key's KeyHash (mincore); one read with positioned
  // reads, which mincore cannot see, samples in its Gets (TimedGet), and
  // asks for none of the sampled keys' pages: their Gets would time the
  // asking, and while it worked, stop it.
  const bool sampled = mmap() ? Residency::Sampled(key_hash)
                               : Residency::TimedSampled(key_hash);
  const bool sample = sampled && mmap();
  if (!sample && !residency_.MostlyOnDisk(/*timed=*/!mmap())) return;
  if (sampled && !mmap()) return;
  uint64_t offset = 0;
  size_t n = 0;
  if (!layout_->HomeInFile(user_key, hash, hint, &offset, &n)) return;
  if (sample) {
    const bool resident = file().Resident(offset, n);
    residency_.Note(resident, key_hash);
    if (resident) return;
  }
  if (!filtered && filter_.usable()) {
    // Prepare asks no filter (its Get does); a read from disk for a key the
    // filter rules out is worth its probe. But a mapped filter's page may
    // be on disk too, and probing it here would wait on it, key after key:
    // then both pages are asked for, a read wasted if the filter rules the
    // key out.
    if (mmap() && filter_.hashed()) {
      uint64_t filter_offset = 0;
      size_t filter_n = 0;
      filter_.PageInFile(key_hash, &filter_offset, &filter_n);
      if (!file().Resident(filter_offset, filter_n)) {
        file().AskFor(filter_offset, filter_n);
        file().AskFor(offset, n);
        return;
      }
    }
    bool may = true;
    if (!filter_.KeyMayMatch(user_key, key_hash, &may).ok() || !may) return;
  }
  file().AskFor(offset, n);
}

Status RobinHoodTableReader::TimedGet(const ParsedInternalKey& target,
                                      uint64_t hash, uint64_t key_hash,
                                      Layout::Hint hint, CacheUse use,
                                      GetContext* get_context) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  Status s = layout_->Get(target, hash, hint, use, get_context);
  residency_.NoteTime(
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start)
          .count(),
      key_hash);
  return s;
}

InternalIterator* RobinHoodTableReader::NewIterator(
    const ReadOptions& ro, const SliceTransform* /*prefix_extractor*/,
    Arena* arena, bool /*skip_filters*/, TableReaderCaller caller,
    size_t compaction_readahead_size, bool /*allow_unprepared_value*/) {
  if (ScanMayNotRead(ro)) {
    return NewErrorInternalIterator<Slice>(CachedBlock::NeedsRead(), arena);
  }
  const bool compaction = caller == TableReaderCaller::kCompaction;
  size_t readahead = ro.readahead_size;
  if (compaction) {
    // Compaction reads every entry in order: read ahead from the start.
    readahead = std::max<size_t>(compaction_readahead_size, 2 << 20);
  }
  return layout_->NewIterator(arena, compaction, UseOf(ro), readahead);
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
    const ReadOptions& /*ro*/, TableReaderCaller /*caller*/
    RH_VERIFY_CHECKSUM_EXTRA) {
  std::string buf;
  Status entries = layout_->VerifyEntries(&buf);
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
