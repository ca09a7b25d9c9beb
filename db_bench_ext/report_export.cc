// Report::WriteJson and WriteCsv: a run's results for machines (report.h).
#include <algorithm>
#include <cinttypes>
#include <string>
#include <vector>

#include "db_bench_ext/report.h"
#include "tools/common/json_writer.h"

namespace db_bench_ext {

bool Report::WriteJson(const std::string& path, const RunInfo& info) const {
  using rh_tools::JsonWriter;
  constexpr JsonWriter::Layout kInline = JsonWriter::Layout::kInline;
  FILE* f = fopen(path.c_str(), "w");
  if (!f) return false;
  std::vector<PhaseResult> med = Medians();
  bool written = false;
  {  // the writer flushes as it goes out of scope: before fclose
    // One line per workload and per result: the file stays readable and
    // diffable by line however many results a run has.
    JsonWriter j(f);
    j.BeginObject();
    j.Key("tool").String("db_bench_ext");
    j.Key("command_line").String(info.command_line);
    j.Key("config").BeginObject(kInline);
    j.Key("num").Uint(info.num);
    j.Key("reads").Uint(info.reads);
    j.Key("threads").Int(info.threads);
    j.Key("repetitions").Int(info.repetitions);
    j.Key("batch_size").Int(info.batch_size);
    j.Key("seek_nexts").Int(info.seek_nexts);
    j.Key("seed").Uint(info.seed);
    j.EndObject();
    j.Key("machine").String(info.machine);
    j.Key("rocksdb_version").String(info.rocksdb_version);
    j.Key("total_seconds").Real(info.total_seconds);
    j.Key("workloads").BeginObject();
    for (const auto& w : info.workload_order) {
      j.Key(w).BeginObject(kInline);
      j.Key("description")
          .String(info.workload_desc.count(w) ? info.workload_desc.at(w) : "");
      j.Key("formats").BeginArray(kInline);
      if (info.format_desc.count(w)) {
        for (const auto& d : info.format_desc.at(w)) j.String(d);
      }
      j.EndArray();
      j.EndObject();
    }
    j.EndObject();
    j.Key("results").BeginArray();
    for (const auto& r : med) {
      const PhaseResult* rh = Find(med, r.workload, "robinhood", r.phase);
      double vs_rh = 0;
      if (rh && !r.skipped) {
        vs_rh = r.IsBuild() ? r.entries_per_sec / rh->entries_per_sec
                            : r.ops_per_sec / rh->ops_per_sec;
      }
      j.BeginObject(kInline);
      j.Key("workload").String(r.workload);
      j.Key("format").String(r.format);
      j.Key("phase").String(r.phase);
      j.Key("skipped").Bool(r.skipped);
      if (r.skipped) {
        j.Key("reason").String(r.reason);
        j.EndObject();
        continue;
      }
      if (!r.note.empty()) j.Key("note").String(r.note);
      j.Key("repetitions").Int(r.repetition);
      if (r.IsBuild()) {
        j.Key("entries_per_sec").Real(r.entries_per_sec);
        j.Key("seconds").Real(r.build_seconds);
        j.Key("stage1_seconds").Real(r.stage1_seconds);
        j.Key("stage2_seconds").Real(r.stage2_seconds);
        j.Key("entries").Uint(r.entries);
        j.Key("files").Uint(r.files);
        j.Key("file_bytes").Uint(r.file_bytes);
        j.Key("bytes_per_entry").Real(r.BytesPerEntry());
        j.Key("index_bytes").Uint(r.index_bytes);
        j.Key("filter_bytes").Uint(r.filter_bytes);
        // -1: not measured, which null says without a sentinel.
        j.Key("builder_peak_bytes");
        r.builder_peak_bytes >= 0 ? j.Int(r.builder_peak_bytes) : j.Null();
        j.Key("heap_peak_bytes");
        r.heap_peak_bytes >= 0 ? j.Int(r.heap_peak_bytes) : j.Null();
        if (rh && rh->file_bytes) {
          j.Key("size_vs_robinhood")
              .Real(double(r.file_bytes) / double(rh->file_bytes));
        }
      } else {
        j.Key("ops").Uint(r.ops);
        j.Key("found").Uint(r.found);
        j.Key("ops_per_sec").Real(r.ops_per_sec);
        j.Key("micros_per_op").Real(r.micros_per_op);
        j.Key("seconds").Real(r.seconds);
        j.Key("p50_us").Real(r.p50_us);
        j.Key("p99_us").Real(r.p99_us);
        j.Key("p999_us").Real(r.p999_us);
        j.Key("latency_per_batch").Bool(r.latency_per_batch);
        j.Key("major_faults").Uint(r.major_faults);
        j.Key("disk_read_bytes").Uint(r.disk_read_bytes);
      }
      j.Key("vs_robinhood");
      vs_rh > 0 ? j.Real(vs_rh) : j.Null();
      // Every repetition's headline number.
      j.Key("samples").BeginArray(kInline);
      for (const auto& s : samples_.at(SampleKey(r))) {
        if (!s.skipped) j.Real(r.IsBuild() ? s.entries_per_sec : s.ops_per_sec);
      }
      j.EndArray();
      j.EndObject();
    }
    j.EndArray();
    j.EndObject();
    written = j.Flush();
  }
  return fclose(f) == 0 && written;
}

bool Report::WriteCsv(const std::string& path) const {
  FILE* f = fopen(path.c_str(), "w");
  if (!f) return false;
  fprintf(f,
          "workload,format,phase,skipped,ops_per_sec,micros_per_op,p50_us,"
          "p99_us,p999_us,found,ops,entries_per_sec,file_bytes,"
          "bytes_per_entry,index_bytes,filter_bytes,builder_peak_bytes,"
          "heap_peak_bytes,reason\n");
  for (const auto& r : Medians()) {
    std::string reason = r.reason;
    std::replace(reason.begin(), reason.end(), '"', '\'');
    fprintf(f,
            "%s,%s,%s,%d,%.1f,%.4f,%.3f,%.3f,%.3f,%" PRIu64 ",%" PRIu64
            ",%.1f,%" PRIu64 ",%.3f,%" PRIu64 ",%" PRIu64 ",%" PRId64
            ",%" PRId64 ",\"%s\"\n",
            r.workload.c_str(), r.format.c_str(), r.phase.c_str(),
            r.skipped ? 1 : 0, r.ops_per_sec, r.micros_per_op, r.p50_us,
            r.p99_us, r.p999_us, r.found, r.ops, r.entries_per_sec,
            r.file_bytes, r.BytesPerEntry(), r.index_bytes, r.filter_bytes,
            r.builder_peak_bytes, r.heap_peak_bytes, reason.c_str());
  }
  return fclose(f) == 0;
}

}  // namespace db_bench_ext
