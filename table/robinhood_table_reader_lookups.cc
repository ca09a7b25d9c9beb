// RobinHoodTableReader's point lookups: Get, MultiGet and Prepare, with
// the filter first and the layout's home prefetched (on a mapped file in
// memory whose lookups mostly hit, without the filter: SkipsFilter); a
// batch past memory asks the kernel for its keys' pages (residency.h).
// The reader's open, scans, approximations and checks are in
// robinhood_table_reader.cc.
#include "table/robinhood_table_reader.h"

#include "rocksdb/system_clock.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

Status RobinHoodTableReader::Get(const ReadOptions& ro, const Slice& key,
                                 GetContext* get_context,
                                 const SliceTransform* /*prefix_extractor*/,
                                 bool skip_filters) {
  ParsedInternalKey target;
  Status s;
  if (!SplitLookupKey(key, &target)) {
    s = ParseInternalKey(key, &target, /*log_err_key=*/false);
    if (!s.ok()) return s;
  }
  const uint64_t hash = layout_->HashOf(target.user_key);
  // What the shares of misses and of reads from disk sample by; the
  // key's KeyHash is taken only for a filter's probe (a key-ordered
  // file's `hash` is the key's home).
  const uint64_t sample = SampleHash(hash);
  Layout::Hint hint = Layout::kNoHint;
  const bool filtered = filter_.usable() && !skip_filters;
  // A mapped file whose lookups mostly hit reads its home alone.
  const bool skip_filter = filtered && SkipsFilter();
  if (filtered && !skip_filter) {
    // The filter's line and the home's are asked for before either is
    // read, so a key waits on the two at once, not one after the other.
    // The home first where the layout computes it (slots, a log's index:
    // the longer wait, started before the filter's hash is taken); the
    // filter's line first where the home takes a search (the paged
    // layout's), which the line arrives during. There, while a quarter or
    // more of the file's lookups miss, the home's lines wait for the
    // filter's yes, and past three in four the search too (miss_share.h).
    const bool search = layout_->SearchesForHome();
    const bool expect_miss = search && misses_.MostlyMisses();
    const bool search_after = expect_miss && misses_.NearlyAllMiss();
    if (!search) hint = layout_->PrefetchHome(target.user_key, hash);
    // RocksDB's filters hash the key themselves.
    const uint64_t key_hash =
        filter_.hashed() ? KeyHashOf(target.user_key, hash) : 0;
    if (filter_.hashed()) filter_.Prefetch(key_hash);
    if (search && !search_after) {
      hint = expect_miss ? layout_->FindHome(target.user_key, hash)
                         : layout_->PrefetchHome(target.user_key, hash);
    }
    bool may = true;
    s = filter_.KeyMayMatch(target.user_key, key_hash, &may);
    if (!s.ok()) return s;
    RecordTick(may ? BLOOM_FILTER_FULL_POSITIVE : BLOOM_FILTER_USEFUL);
    misses_.Note(!may, sample);
    if (!may) return Status::OK();
    if (search_after) {
      hint = layout_->PrefetchHome(target.user_key, hash);
    } else if (expect_miss) {
      layout_->PrefetchFoundHome(hint);
    }
    layout_->PrefetchEntry(hint);
  } else {
    // A computed home's hint spares the read computing it again (inline,
    // 10M keys: 3-4% off a hit). A searched one (the paged layout's) is
    // left to the read, which asks for the page's tail and the entry's
    // guessed lines together: its hint taken here, each way tried made
    // hits 4% to 15% slower.
    if (skip_filter && !layout_->SearchesForHome()) {
      hint = layout_->PrefetchHome(target.user_key, hash);
    }
  }
  const ReadUse use = UseOf(ro);
  // The common read returns the layout's answer as it comes.
  if (!use.no_io) {
    if (!skip_filter) {
      return LayoutGet(target, hash, sample, hint, use, get_context);
    }
    // What the filter would have said, for the share of misses past which
    // lookups ask it again.
    const GetContext::GetState before = get_context->State();
    s = LayoutGet(target, hash, sample, hint, use, get_context);
    misses_.Note(s.ok() && get_context->State() == before, sample);
    return s;
  }
  Status r = LookupMayNotRead(ro)
                 ? CachedBlock::NeedsRead()
                 : LayoutGet(target, hash, sample, hint, use, get_context);
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
  const ReadUse use = UseOf(ro);
  bool may_match[MultiGetContext::MAX_BATCH_SIZE];
  uint64_t hashes[MultiGetContext::MAX_BATCH_SIZE];
  Layout::Hint hints[MultiGetContext::MAX_BATCH_SIZE];
  // While the file's lookups mostly hit, the batch asks for the homes
  // alone, as Get does.
  const bool skip_filter = !skip_filters && SkipsFilter();
  const bool filtered = filter_.usable() && !skip_filters && !skip_filter;
  const bool hashed = filtered && filter_.hashed();
  Slice user_keys[MultiGetContext::MAX_BATCH_SIZE];
  Slice* key_ptrs[MultiGetContext::MAX_BATCH_SIZE];
  uint64_t samples[MultiGetContext::MAX_BATCH_SIZE];
  // A hash filter's, taken for it alone.
  uint64_t key_hashes[MultiGetContext::MAX_BATCH_SIZE];
  // The batch's keys, taken once: the range's iterator skips the keys
  // done with every step, and the passes below would step it again.
  KeyContext* keys[MultiGetContext::MAX_BATCH_SIZE];
  int k = 0;
  for (auto it = range->begin(); it != range->end(); ++it, ++k) {
    keys[k] = &*it;
    user_keys[k] = ExtractUserKey(it->ikey);
    key_ptrs[k] = &user_keys[k];
    hashes[k] = layout_->HashOf(user_keys[k]);
    samples[k] = SampleHash(hashes[k]);
    if (hashed) {
      key_hashes[k] = KeyHashOf(user_keys[k], hashes[k]);
      filter_.Prefetch(key_hashes[k]);
    }
  }
  // Past memory a mapped filter's pages are on disk as well as the homes:
  // asked for together, not faulted in one probe after another.
  if (hashed && mmap() && !use.no_io && residency_.MostlyOnDisk()) {
    for (int n = 0; n < k; ++n) {
      uint64_t offset = 0;
      size_t bytes = 0;
      if (FilterPageOnDisk(key_hashes[n], &offset, &bytes)) {
        file().AskFor(offset, bytes);
      }
    }
  }
  if (hashed) {
    for (int n = 0; n < k; ++n) {
      // A damaged filter's key gets its Corruption and no lookup.
      *keys[n]->s = filter_.KeyMayMatch(user_keys[n], key_hashes[n],
                                        &may_match[n]);
      if (!keys[n]->s->ok()) may_match[n] = false;
    }
  } else if (filtered) {
    filter_.BuiltinKeysMayMatch(k, key_ptrs, may_match);
  }
  // A read that must not block starts none; in memory none is needed.
  const bool ask_disk = !use.no_io && residency_.MostlyOnDisk();
  for (int n = 0; n < k; ++n) {
    hints[n] = Layout::kNoHint;
    if (filtered) {
      RecordTick(may_match[n] ? BLOOM_FILTER_FULL_POSITIVE
                              : BLOOM_FILTER_USEFUL);
      misses_.Note(!may_match[n], samples[n]);
      if (!may_match[n]) continue;
    }
    hints[n] = layout_->PrefetchHome(user_keys[n], hashes[n]);
    if (ask_disk) {
      AskForHomeOnDisk(user_keys[n], hashes[n], samples[n], hints[n],
                       filtered);
    }
  }
  if (prefetches_after_home_) {
    for (int n = 0; n < k; ++n) {
      if (filtered && !may_match[n]) continue;
      layout_->PrefetchAfterHome(user_keys[n], hashes[n], hints[n]);
    }
  }
  const bool may_not_read = LookupMayNotRead(ro);
  for (int i = 0; i < k; ++i) {
    KeyContext* it = keys[i];
    if (filtered && !may_match[i]) {
      // A hashed filter's probe has left its status.
      if (!hashed) *it->s = Status::OK();
      continue;
    }
    if (may_not_read) {
      *it->s = CachedBlock::NeedsRead();
      NoteNeedsRead(*it->s, use, it->get_context);
      continue;
    }
    ParsedInternalKey target;
    if (!SplitLookupKey(it->ikey, &target)) {
      *it->s = ParseInternalKey(it->ikey, &target, /*log_err_key=*/false);
      if (!it->s->ok()) continue;
    }
    const GetContext::GetState before =
        skip_filter ? it->get_context->State() : GetContext::kNotFound;
    Status r = LayoutGet(target, hashes[i], samples[i], hints[i], use,
                         it->get_context);
    // An OK left OK: moving a Status in costs some 25 instructions, a
    // fifth of what the rest of a hit's pass here takes.
    if (!r.ok() || !it->s->ok()) *it->s = std::move(r);
    NoteNeedsRead(*it->s, use, it->get_context);
    // What the filter would have said (Get's note).
    if (skip_filter) {
      misses_.Note(it->s->ok() && it->get_context->State() == before,
                   samples[i]);
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
  const Layout::Hint hint = layout_->PrefetchHome(user_key, hash);
  // Where the Get that follows skips the filter, no filter line here: a
  // batch keeps half the misses in flight.
  if (hint != Layout::kNoHint && SkipsFilter()) return;
  if (filter_.hashed()) filter_.Prefetch(KeyHashOf(user_key, hash));
  AskForHomeOnDisk(user_key, hash, SampleHash(hash), hint,
                   /*filtered=*/false);
}

void RobinHoodTableReader::AskForHomeOnDisk(const Slice& user_key,
                                            uint64_t hash, uint64_t sample,
                                            Layout::Hint hint, bool filtered) {
  // Most keys of a batch in memory end at the first test, before any call:
  // this runs for every key of the compacted DB's MultiGet. The sampled
  // keys' pages are not asked for: their Gets would time the asking, and
  // while it worked, stop it.
  if (!residency_.MostlyOnDisk() || Residency::Sampled(sample)) return;
  // Prepare asks no filter (its Get does); a read from disk for a key the
  // filter rules out is worth its probe, taken before the home is sought
  // (a search of an index, for some layouts). But a mapped filter's page
  // may be on disk too, and probing it here would wait on it, key after
  // key: then both pages are asked for, a read wasted if the filter rules
  // the key out.
  bool filter_page_on_disk = false;
  uint64_t filter_offset = 0;
  size_t filter_n = 0;
  if (!filtered && filter_.usable()) {
    const uint64_t key_hash =
        filter_.hashed() ? KeyHashOf(user_key, hash) : 0;
    if (mmap() && filter_.hashed()) {
      filter_page_on_disk =
          FilterPageOnDisk(key_hash, &filter_offset, &filter_n);
    }
    bool may = true;
    if (!filter_page_on_disk &&
        (!filter_.KeyMayMatch(user_key, key_hash, &may).ok() || !may)) {
      return;
    }
  }
  uint64_t offset = 0;
  size_t n = 0;
  if (!layout_->HomeInFile(user_key, hash, hint, &offset, &n)) return;
  if (filter_page_on_disk) file().AskFor(filter_offset, filter_n);
  file().AskFor(offset, n);
}

bool RobinHoodTableReader::FilterPageOnDisk(uint64_t key_hash,
                                            uint64_t* offset,
                                            size_t* n) const {
  if (filter_.PageSeenResident(key_hash)) return false;
  filter_.PageInFile(key_hash, offset, n);
  if (!file().Resident(*offset, *n)) return true;
  filter_.NotePageResident(key_hash);
  return false;
}

Status RobinHoodTableReader::TimedGet(const ParsedInternalKey& target,
                                      uint64_t hash, uint64_t sample,
                                      Layout::Hint hint, const ReadUse& use,
                                      GetContext* get_context) {
  // The DB's clock (SystemClock::Default() unless the user set an Env):
  // a clock_gettime, and a test's to stand for a slow device.
  SystemClock* clock = ioptions_.clock;
  const uint64_t start = clock->NowNanos();
  Status s = layout_->Get(target, hash, hint, use, get_context);
  residency_.NoteTime(static_cast<int64_t>(clock->NowNanos() - start),
                      sample);
  return s;
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
