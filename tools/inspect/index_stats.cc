#include "tools/inspect/index_stats.h"

#include <algorithm>
#include <cinttypes>
#include <random>
#include <string>

#include "tools/inspect/text_format.h"

namespace rh_inspect {

using namespace ROCKSDB_NAMESPACE::robinhood;

uint64_t IndexStats::ProbePercentile(double q) const {
  const double want = q * static_cast<double>(used);
  uint64_t seen = 0;
  for (size_t d = 0; d < histogram.size(); ++d) {
    seen += histogram[d];
    if (static_cast<double>(seen) >= want) return d + 1;
  }
  return histogram.size();
}

namespace {

// The same walk over an inline file's slots: every used slot's key must sit
// dist - 1 slots past its home, and misses probe with InlineTable::Probe,
// as lookups do.
Status InlineIndexStats(const TableFile& t, uint64_t samples,
                        IndexStats* st) {
  const InlineTable& in = *t.inline_table();
  const IndexGeometry& geo = in.geometry();
  const TableMeta& m = t.meta();
  const uint32_t width = in.shape().slot_width();
  const uint64_t page = in.paging().page_slots;
  std::string buf;
  Slice run;
  uint64_t run_first = 0, cluster = 0;
  auto slot = [&](uint64_t i, const char** p) {
    if (run.empty() || i < run_first || i >= run_first + run.size() / width) {
      run_first = i / page * page;
      Status s = in.ReadRun(run_first, std::min(page, geo.slots - run_first),
                            true, &buf, &run);
      if (!s.ok()) {
        run = Slice();
        return s;
      }
    }
    *p = run.data() + (i - run_first) * width;
    return Status::OK();
  };
  std::string key_buf;
  for (uint64_t i = 0; i < geo.slots; ++i) {
    const char* p = nullptr;
    Status s = slot(i, &p);
    if (!s.ok()) return s;
    const uint32_t dist = static_cast<uint8_t>(p[0]);
    if (dist == 0) {
      cluster = 0;
      continue;
    }
    if (cluster++ == 0) ++st->clusters;
    st->max_cluster = std::max(st->max_cluster, cluster);
    ++st->used;
    if (i >= geo.capacity) ++st->overflow_used;
    Slice stored, value;
    s = in.DecodeSlot(p, i, &stored, &value);
    if (!s.ok()) return s;
    const Slice key = in.UserKey(stored, &key_buf);
    const uint64_t home = in.key_ordered() ? in.key_order().Home(key)
                                           : in.Home(KeyHash(key, m.hash_seed));
    if (home > i || i - home != dist - 1) {
      return Status::Corruption(Format(
          "inline slots: slot %" PRIu64 " is not %u past its key's home", i,
          dist - 1));
    }
    const uint64_t d = dist - 1;
    if (st->histogram.size() <= d) st->histogram.resize(d + 1, 0);
    ++st->histogram[d];
    st->total_displacement += d;
  }
  if (st->used != m.num_keys) {
    return Status::Corruption(Format("inline slots: %" PRIu64
                                     " used slots for %" PRIu64 " keys",
                                     st->used, m.num_keys));
  }
  std::mt19937_64 rng(0x726820696e737063ULL);
  uint64_t total = 0;
  for (uint64_t n = 0; n < samples && m.num_keys > 0; ++n) {
    const uint64_t home = in.key_ordered()
                               ? rng() % geo.capacity
                               : in.Home(rng() & ~uint64_t{0xff});
    uint64_t read = 0;
    Status s = in.Probe(
        home, true, &buf, [](const char*, uint64_t) { return false; }, &read);
    if (!s.ok()) return s;
    total += read;
    st->miss_max = std::max(st->miss_max, read);
    ++st->samples;
  }
  if (st->samples > 0) st->miss_mean = static_cast<double>(total) / st->samples;
  return Status::OK();
}

// A paged file has no slots: each page is a "cluster" of the keys it
// holds, every key at displacement 0 (a lookup reads its one page), and a
// miss reads one page too.
Status PagedIndexStats(const TableFile& t, uint64_t samples, IndexStats* st) {
  const PagedLayout& paged = *t.paged();
  const TableMeta& m = t.meta();
  std::string buf;
  constexpr uint64_t kRun = 256;
  for (uint64_t first = 0; first < paged.pages(); first += kRun) {
    const uint64_t count = std::min(kRun, paged.pages() - first);
    Slice run;
    Status s = paged.ReadPages(first, count, &buf, &run);
    if (!s.ok()) return s;
    for (uint64_t i = 0; i < count; ++i) {
      EntryPage page;
      if (!page.Parse(run.data() + i * paged.page_bytes(), paged.page_bytes())) {
        return paged.Damaged(first + i, "bad entry count");
      }
      st->max_cluster = std::max<uint64_t>(st->max_cluster, page.size());
      st->used += page.size();
    }
  }
  st->clusters = paged.pages();
  if (m.num_keys > 0) st->histogram.assign(1, m.num_keys);
  st->samples = samples;
  st->miss_mean = samples > 0 ? 1 : 0;
  st->miss_max = samples > 0 ? 1 : 0;
  return Status::OK();
}

}  // namespace

Status ComputeIndexStats(const TableFile& t, uint64_t samples, IndexStats* st) {
  if (t.paged() != nullptr) return PagedIndexStats(t, samples, st);
  if (t.inline_table() != nullptr) return InlineIndexStats(t, samples, st);
  const HashIndex& index = t.hash_index();
  const IndexGeometry& geo = index.geometry();
  const TableMeta& m = t.meta();
  uint64_t run = 0;
  for (uint64_t i = 0; i < geo.slots; ++i) {
    const uint64_t w = index.Slot(i);
    if (w == 0) {
      run = 0;
      continue;
    }
    if (run++ == 0) ++st->clusters;
    st->max_cluster = std::max(st->max_cluster, run);
    ++st->used;
    if (i >= geo.capacity) ++st->overflow_used;
    // An address field of 0 in a used slot decodes as 2^64 - 1: past the log.
    const uint64_t address = index.AddressOf(w);
    if (address >= m.log_logical_bytes) {
      return Status::Corruption(Format(
          "hash index: slot %" PRIu64 " holds an address past the log", i));
    }
    uint64_t d = index.DisplacementOf(w);
    if (d == kSaturatedDisplacement) {  // 255 or more: find the home
      std::string key;
      Status s = t.UserKeyAt(address, &key);
      if (!s.ok()) return s;
      const uint64_t home = index.Home(KeyHash(key, m.hash_seed));
      if (home > i) {
        return Status::Corruption(
            Format("hash index: slot %" PRIu64 " before its home", i));
      }
      d = i - home;
    }
    if (d >= geo.slots) {
      return Status::Corruption(
          Format("hash index: slot %" PRIu64 " displaced past the index", i));
    }
    if (st->histogram.size() <= d) st->histogram.resize(d + 1, 0);
    ++st->histogram[d];
    st->total_displacement += d;
  }
  if (st->used != m.num_keys) {
    return Status::Corruption(Format("hash index: %" PRIu64
                                     " used slots for %" PRIu64 " keys",
                                     st->used, m.num_keys));
  }
  // Misses: probe random hashes (fixed seed, so runs agree). A hash of a
  // key in the file turns up with probability keys / 2^56: never, here.
  std::mt19937_64 rng(0x726820696e737063ULL);
  uint64_t total = 0, log_reads = 0;
  for (uint64_t n = 0; n < samples && m.num_keys > 0; ++n) {
    const uint64_t hash = rng() & ~uint64_t{0xff};
    const uint64_t read = index.Probe(hash, [&](uint64_t) {
      ++log_reads;
      return false;
    });
    total += read;
    st->miss_max = std::max(st->miss_max, read);
    ++st->samples;
  }
  if (st->samples > 0) {
    st->miss_mean = static_cast<double>(total) / st->samples;
    st->miss_log_reads = static_cast<double>(log_reads) / st->samples;
  }
  return Status::OK();
}

}  // namespace rh_inspect
