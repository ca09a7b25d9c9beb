// stats: how good the hash index is (load factor, displacement histogram,
// clusters, probe lengths of hits and of random misses) and where the bytes
// of the file go.
#include <algorithm>
#include <cinttypes>
#include <cstring>
#include <string>
#include <vector>

#include "tools/inspect/command.h"
#include "tools/inspect/errors.h"
#include "tools/inspect/index_stats.h"
#include "tools/inspect/printer.h"
#include "tools/inspect/table_file.h"
#include "tools/inspect/text_format.h"

namespace rh_inspect {

using namespace ROCKSDB_NAMESPACE;
using namespace ROCKSDB_NAMESPACE::robinhood;

namespace {

// Where the bytes of the file go, as parts that add up to the file size.
// The log is split into what its entries hold (user keys, values) and what
// the format adds to them (entry headers, block trailers), which a scan of
// the log tells exactly; compression, if any, is a negative part. The other
// parts are the sections as the meta block places them.
struct Part {
  const char* name;
  int64_t bytes;
};

Status SpaceParts(const TableFile& t, std::vector<Part>* parts) {
  const TableMeta& m = t.meta();
  uint64_t keys = 0, values = 0;
  std::unique_ptr<InternalIterator> it = t.NewIterator();
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    keys += ExtractUserKey(it->key()).size();
    values += it->value().size();
  }
  if (!it->status().ok()) return it->status();
  const uint64_t trailers = t.blocks().num_blocks() * kTrailerSize;
  auto i64 = [](uint64_t v) { return static_cast<int64_t>(v); };
  if (m.has_log_tail()) {
    // Pages and a log hold the keys and values: the rest of the pages and
    // of the log's uncompressed bytes is the format's.
    *parts = {
        {"keys", i64(keys)},
        {"values", i64(values)},
        {"page_and_entry_overhead",
         i64(m.index.size + kTrailerSize + m.log_logical_bytes) - i64(keys) -
             i64(values)},
        {"block_trailers", i64(trailers)},
        {"compression",
         i64(m.log_file_bytes) - i64(m.log_logical_bytes) - i64(trailers)},
    };
    for (const Section& s : t.Sections()) {
      if (std::strcmp(s.name, "log") != 0 &&
          std::strcmp(s.name, "pages") != 0) {
        parts->push_back({s.name, i64(s.bytes)});
      }
    }
    return Status::OK();
  }
  if (m.is_inline() || m.is_paged()) {
    // The slots (pages) hold the keys and values; the rest of them is the
    // format's: distance, length and tail bytes, padding, empty slots, the
    // trailer.
    const char* holder = m.is_paged() ? "pages" : "inline_slots";
    *parts = {
        {"keys", i64(keys)},
        {"values", i64(values)},
        {m.is_paged() ? "page_overhead" : "slot_overhead",
         i64(m.index.size + kTrailerSize) - i64(keys) - i64(values)},
    };
    for (const Section& s : t.Sections()) {
      if (std::strcmp(s.name, "log") != 0 &&
          std::strcmp(s.name, holder) != 0) {
        parts->push_back({s.name, i64(s.bytes)});
      }
    }
    return Status::OK();
  }
  *parts = {
      {"keys", i64(keys)},
      {"values", i64(values)},
      {"entry_overhead", i64(m.log_logical_bytes - keys - values)},
      {"block_trailers", i64(trailers)},
      {"compression",
       i64(m.log_file_bytes) - i64(m.log_logical_bytes) - i64(trailers)},
  };
  for (const Section& s : t.Sections()) {
    if (std::strcmp(s.name, "log") != 0) {
      parts->push_back({s.name, i64(s.bytes)});
    }
  }
  return Status::OK();
}

void DescribeHistogram(Printer& out, const IndexStats& st, double keys) {
  const uint64_t top =
      st.histogram.empty()
          ? 1
          : *std::max_element(st.histogram.begin(), st.histogram.end());
  out.BeginArray("histogram",
                 Heading("displacement histogram (keys by slot - home)", 6));
  for (size_t d = 0; d < st.histogram.size(); ++d) {
    const uint64_t n = st.histogram[d];
    const std::string bar(static_cast<size_t>(40.0 * n / top + 0.5), '#');
    out.BeginObject(nullptr, Row(Format("%6zu", d),
                                 Format("%12" PRIu64 " %6.2f%%  %s", n,
                                        100.0 * static_cast<double>(n) / keys,
                                        bar.c_str())));
    out.Field("displacement", Uint(d));
    out.Field("keys", Uint(n));
    out.End();
  }
  out.End();
}

}  // namespace

int Stats(const Args& a, const TableFile& t) {
  IndexStats st;
  std::vector<Part> parts;
  Status s = ComputeIndexStats(t, a.samples, &st);
  if (s.ok()) s = SpaceParts(t, &parts);
  if (!s.ok()) return ReportFailure(a, Describe(a.file, s), kExitBadFile);

  const TableMeta& m = t.meta();
  const double keys = static_cast<double>(m.num_keys);
  const double entries = static_cast<double>(m.num_entries);
  const double load_factor = keys / static_cast<double>(m.index_capacity);
  const double mean_disp =
      m.num_keys ? static_cast<double>(st.total_displacement) / keys : 0;
  const double mean_cluster =
      st.clusters ? static_cast<double>(st.used) / st.clusters : 0.0;

  Printer out(a);
  out.Field("file", Str(a.file), Row("file"));
  out.Field("ok", Bool(true));
  out.Field("entries", Uint(m.num_entries), Row("entries"));
  out.Field("distinct_keys", Uint(m.num_keys), Row("distinct keys"));
  out.Field("load_factor", Real(load_factor),
            Row("load factor",
                Format("%.4f (%" PRIu64 " keys in %" PRIu64 " home slots)",
                       load_factor, m.num_keys, m.index_capacity)));

  out.BeginObject("index");
  out.Field("capacity", Uint(m.index_capacity));
  out.Field(
      "slots", Uint(m.index_slots),
      Row("slots",
          Format("%" PRIu64 " (%" PRIu64 " used, %" PRIu64 " empty, %" PRIu64
                 " overflow of which %" PRIu64 " used)",
                 m.index_slots, st.used, m.index_slots - st.used,
                 m.index_slots - m.index_capacity, st.overflow_used)));
  out.Field("used_slots", Uint(st.used));
  out.Field("empty_slots", Uint(m.index_slots - st.used));
  out.Field("overflow_slots_used", Uint(st.overflow_used));
  out.Field("clusters", Uint(st.clusters),
            Row("clusters", Format("%" PRIu64 " runs of used slots, mean "
                                   "%.2f, max %" PRIu64,
                                   st.clusters, mean_cluster, st.max_cluster)));
  out.Field("mean_cluster_length", Real(mean_cluster));
  out.Field("max_cluster_length", Uint(st.max_cluster));
  out.End();

  // JSON nests the histogram in "displacement"; text puts it after the
  // summary rows.
  out.BeginObject(
      "displacement",
      Row("displacement",
          Format("mean %.3f, max %" PRIu64, mean_disp, st.max_displacement())));
  out.Field("mean", Real(mean_disp));
  out.Field("max", Uint(st.max_displacement()));
  {
    Printer::Only json(out, Printer::Form::kJson);
    DescribeHistogram(out, st, keys);
  }
  out.End();

  out.BeginObject(
      "probe_length_hit",
      Row("probe length (hit)",
          m.num_keys ? Format("mean %.3f, max %" PRIu64 ", p50 %" PRIu64
                              ", p90 %" PRIu64 ", p99 %" PRIu64 " slots",
                              mean_disp + 1, st.max_displacement() + 1,
                              st.ProbePercentile(0.5), st.ProbePercentile(0.9),
                              st.ProbePercentile(0.99))
                     : std::string("no keys")));
  out.Field("mean", Real(m.num_keys ? mean_disp + 1 : 0));
  out.Field("max", Uint(m.num_keys ? st.max_displacement() + 1 : 0));
  out.Field("p50", Uint(st.ProbePercentile(0.5)));
  out.Field("p90", Uint(st.ProbePercentile(0.9)));
  out.Field("p99", Uint(st.ProbePercentile(0.99)));
  out.End();

  out.BeginObject(
      "probe_length_miss",
      Row("probe length (miss)",
          st.samples
              ? Format("mean %.3f, max %" PRIu64
                       " slots, %.2g log reads per miss (%" PRIu64
                       " random hashes)",
                       st.miss_mean, st.miss_max, st.miss_log_reads, st.samples)
              : std::string("not sampled")));
  out.Field("samples", Uint(st.samples));
  out.Field("mean", Real(st.miss_mean));
  out.Field("max", Uint(st.miss_max));
  out.Field("log_reads_per_miss", Real(st.miss_log_reads));
  out.End();
  {
    Printer::Only text(out, Printer::Form::kText);
    DescribeHistogram(out, st, keys);
  }

  // Text shows each part's bytes beside its bytes per entry; JSON has them
  // in two objects.
  out.BeginObject("bytes");
  for (const Part& p : parts) out.Field(p.name, Int(p.bytes));
  out.Field("file", Uint(t.file_size()));
  out.End();
  auto per_entry = [&](int64_t bytes) {
    return entries ? static_cast<double>(bytes) / entries : 0.0;
  };
  auto part_text = [&](int64_t bytes) {
    return Format("%10.2f  (%" PRId64 " bytes, %.1f%% of the file)",
                  per_entry(bytes), bytes,
                  100.0 * static_cast<double>(bytes) / t.file_size());
  };
  out.BeginObject(
      "bytes_per_entry",
      Heading("bytes per entry by part (parts add up to the file size)", 16));
  for (const Part& p : parts) {
    out.Field(p.name, Real(per_entry(p.bytes)),
              Row(p.name, part_text(p.bytes)));
  }
  const auto file_size = static_cast<int64_t>(t.file_size());
  out.Field("total", Real(per_entry(file_size)),
            Row("total", part_text(file_size)));
  out.End();
  return kExitOk;
}

}  // namespace rh_inspect
