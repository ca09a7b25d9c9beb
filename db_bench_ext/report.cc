#include "db_bench_ext/report.h"

#include <algorithm>
#include <cinttypes>
#include <functional>
#include <set>

#include "tools/common/json_writer.h"

namespace db_bench_ext {

namespace {

std::string Key(const PhaseResult& r) {
  return r.workload + "\x1f" + r.format + "\x1f" + r.phase;
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string Fmt(const char* f, double v) {
  char buf[64];
  snprintf(buf, sizeof(buf), f, v);
  return buf;
}

std::string HumanBytes(double b) {
  if (b < 0) return "n/a";
  if (b >= 1e9) return Fmt("%.2f GB", b / 1e9);
  if (b >= 1e6) return Fmt("%.1f MB", b / 1e6);
  if (b >= 1e3) return Fmt("%.1f KB", b / 1e3);
  return Fmt("%.0f B", b);
}

std::string Ratio(double num, double den) {
  if (den <= 0 || num <= 0) return "-";
  return Fmt("%.2fx", num / den);
}

// A peak memory figure with bytes per entry, or n/a.
std::string PeakText(int64_t bytes, uint64_t entries) {
  if (bytes < 0) return "n/a";
  return HumanBytes(double(bytes)) +
         (entries ? Fmt(" %.1fB/e", double(bytes) / double(entries)) : "");
}

bool IsReadPhase(const std::string& p) { return p != "fill" && p != "ingest"; }

}  // namespace

std::string Report::DbBenchLine(const PhaseResult& r) {
  char buf[512];
  snprintf(buf, sizeof(buf),
           "%-12s : %11.3f micros/op %ld ops/sec %.3f seconds %" PRIu64
           " operations; (%" PRIu64 " of %" PRIu64 " found)",
           r.phase.c_str(), r.micros_per_op, long(r.ops_per_sec), r.seconds,
           r.ops, r.found, r.ops);
  return buf;
}

void Report::Add(const PhaseResult& r, int repetitions) {
  std::string k = Key(r);
  if (!samples_.count(k)) order_.push_back(k);
  samples_[k].push_back(r);
  std::string tag = "[" + r.workload + " " + r.format + " rep " +
                    std::to_string(r.repetition + 1) + "/" +
                    std::to_string(repetitions) + "]";
  if (r.skipped) {
    printf("%-12s : skipped: %s %s\n", r.phase.c_str(), r.reason.c_str(),
           tag.c_str());
  } else if (r.IsBuild()) {
    printf("%-12s : %11.0f entries/sec %.3f seconds %" PRIu64
           " entries; %" PRIu64 " bytes in %" PRIu64 " files %s\n",
           r.phase.c_str(), r.entries_per_sec, r.build_seconds, r.entries,
           r.file_bytes, r.files, tag.c_str());
  } else {
    printf("%s %s\n", DbBenchLine(r).c_str(), tag.c_str());
  }
  fflush(stdout);
}

void Report::AddSkip(const PhaseResult& r) {
  std::string k = Key(r);
  if (samples_.count(k)) return;
  order_.push_back(k);
  samples_[k].push_back(r);
}

std::vector<PhaseResult> Report::Medians() const {
  std::vector<PhaseResult> out;
  for (const auto& k : order_) {
    const auto& v = samples_.at(k);
    std::vector<const PhaseResult*> ok;
    const PhaseResult* failed = nullptr;
    for (const auto& r : v) {
      if (!r.skipped) ok.push_back(&r);
      if (r.failed && failed == nullptr) failed = &r;
    }
    if (ok.empty()) {
      out.push_back(v.front());
      continue;
    }
    PhaseResult m = *ok.front();
    m.repetition = int(ok.size());
    auto med = [&](std::function<double(const PhaseResult&)> get) {
      std::vector<double> xs;
      for (auto* r : ok) xs.push_back(get(*r));
      return Median(xs);
    };
    m.ops_per_sec = med([](const PhaseResult& r) { return r.ops_per_sec; });
    m.micros_per_op = med([](const PhaseResult& r) { return r.micros_per_op; });
    m.seconds = med([](const PhaseResult& r) { return r.seconds; });
    m.p50_us = med([](const PhaseResult& r) { return r.p50_us; });
    m.p99_us = med([](const PhaseResult& r) { return r.p99_us; });
    m.p999_us = med([](const PhaseResult& r) { return r.p999_us; });
    m.found = uint64_t(med([](const PhaseResult& r) { return double(r.found); }));
    m.entries_per_sec =
        med([](const PhaseResult& r) { return r.entries_per_sec; });
    m.build_seconds = med([](const PhaseResult& r) { return r.build_seconds; });
    m.stage1_seconds =
        med([](const PhaseResult& r) { return r.stage1_seconds; });
    m.stage2_seconds =
        med([](const PhaseResult& r) { return r.stage2_seconds; });
    m.heap_peak_bytes = int64_t(
        med([](const PhaseResult& r) { return double(r.heap_peak_bytes); }));
    // A repetition that failed fails the phase, whatever the others did.
    if (failed != nullptr) {
      m.failed = true;
      m.reason = failed->reason;
    }
    out.push_back(m);
  }
  return out;
}

const PhaseResult* Report::FindAny(const std::vector<PhaseResult>& medians,
                                   const std::string& workload,
                                   const std::string& format,
                                   const std::string& phase) const {
  for (const auto& r : medians) {
    if (r.workload == workload && r.format == format && r.phase == phase) {
      return &r;
    }
  }
  return nullptr;
}

const PhaseResult* Report::Find(const std::vector<PhaseResult>& medians,
                                const std::string& workload,
                                const std::string& format,
                                const std::string& phase) const {
  const PhaseResult* r = FindAny(medians, workload, format, phase);
  return r != nullptr && !r->skipped ? r : nullptr;
}

void Report::PrintTables(FILE* out, const RunInfo& info) const {
  std::vector<PhaseResult> med = Medians();
  for (const auto& w : info.workload_order) {
    fprintf(out, "\n== workload %s: %s ==\n", w.c_str(),
            info.workload_desc.count(w) ? info.workload_desc.at(w).c_str()
                                        : "");
    fprintf(out,
            "   %" PRIu64 " keys; %" PRIu64
            " reads per phase and thread; %d thread(s); medians of %d "
            "repetitions\n",
            info.num, info.reads, info.threads, info.repetitions);
    if (info.format_desc.count(w)) {
      for (const auto& d : info.format_desc.at(w)) {
        fprintf(out, "   %s\n", d.c_str());
      }
    }
    std::vector<std::string> notes, skips;
    // Reads.
    bool header = false;
    std::vector<std::string> phases;
    for (const auto& r : med) {
      if (r.workload == w &&
          std::find(phases.begin(), phases.end(), r.phase) == phases.end()) {
        phases.push_back(r.phase);
      }
    }
    for (const auto& p : phases) {
      if (!IsReadPhase(p)) continue;
      const PhaseResult* rh = Find(med, w, "robinhood", p);
      for (const auto& r : med) {
        if (r.workload != w || r.phase != p) continue;
        if (r.skipped) {
          skips.push_back(r.format + " " + r.phase + ": " + r.reason);
          continue;
        }
        if (!header) {
          fprintf(out, "\n%-16s %-15s %12s %10s %9s %9s %9s %17s %7s\n",
                  "read phase", "format", "ops/s", "micros/op", "p50 us",
                  "p99 us", "p99.9 us", "found", "vs RH");
          header = true;
        }
        char found[64];
        snprintf(found, sizeof(found), "%" PRIu64 "/%" PRIu64, r.found,
                 r.ops);
        fprintf(out, "%-16s %-15s %12.0f %10.3f %9.2f %9.2f %9.2f %17s %7s\n",
                p.c_str(), r.format.c_str(), r.ops_per_sec, r.micros_per_op,
                r.p50_us, r.p99_us, r.p999_us, found,
                rh ? Ratio(r.ops_per_sec, rh->ops_per_sec).c_str() : "-");
        if (!r.note.empty()) notes.push_back(r.format + " " + p + ": " + r.note);
      }
    }
    // Builds.
    header = false;
    for (const auto& p : phases) {
      if (IsReadPhase(p)) continue;
      const PhaseResult* rh = Find(med, w, "robinhood", p);
      for (const auto& r : med) {
        if (r.workload != w || r.phase != p) continue;
        if (r.skipped) {
          skips.push_back(r.format + " " + r.phase + ": " + r.reason);
          continue;
        }
        if (!header) {
          fprintf(out, "\n%-8s %-15s %11s %7s %7s %10s %5s %8s %7s %9s %9s %17s %17s\n",
                  "build", "format", "entries/s", "vs RH", "seconds",
                  "file", "files", "B/entry", "size/RH", "index",
                  "filter", "peak (own prop)", "peak heap");
          header = true;
        }
        fprintf(out, "%-8s %-15s %11.0f %7s %7.2f %10s %5" PRIu64
                " %8.2f %7s %9s %9s %17s %17s\n",
                p.c_str(), r.format.c_str(), r.entries_per_sec,
                rh ? Ratio(r.entries_per_sec, rh->entries_per_sec).c_str()
                   : "-",
                r.build_seconds, HumanBytes(double(r.file_bytes)).c_str(),
                r.files, r.BytesPerEntry(),
                rh ? Ratio(double(r.file_bytes), double(rh->file_bytes)).c_str()
                   : "-",
                HumanBytes(double(r.index_bytes)).c_str(),
                HumanBytes(double(r.filter_bytes)).c_str(),
                PeakText(r.builder_peak_bytes, r.entries).c_str(),
                PeakText(r.heap_peak_bytes, r.entries).c_str());
      }
    }
    if (header) {
      fprintf(out,
              "   fill = DB writes (WAL off) + flush + full CompactRange; "
              "ingest = SstFileWriter + IngestExternalFile.\n"
              "   peak (own prop): the builder's own report "
              "(rocksdb.robinhood.builder.peak.bytes); peak heap: growth of\n"
              "   the heap while SstFileWriter (ingest) or CompactRange "
              "(fill) ran, measured alike for all formats.\n");
    }
    bool batch = false;
    for (const auto& r : med) batch |= r.workload == w && r.latency_per_batch;
    if (batch) {
      fprintf(out,
              "   multireadrandom: ops/s counts keys; its latencies are of "
              "a whole batch of %d keys.\n   vs RH: the format's ops/s (or "
              "entries/s, bytes) divided by RobinHoodTable's.\n",
              info.batch_size);
    }
    for (const auto& n : notes) fprintf(out, "   note: %s\n", n.c_str());
    // A format skipped whole for one reason gets one line.
    std::map<std::string, std::set<std::string>> reasons;
    for (const auto& r : med) {
      if (r.workload == w) reasons[r.format].insert(r.skipped ? r.reason : "");
    }
    std::set<std::string> whole;
    for (const auto& kv : reasons) {
      if (kv.second.size() == 1 && !kv.second.begin()->empty()) {
        fprintf(out, "   skipped: %s (all phases): %s\n", kv.first.c_str(),
                kv.second.begin()->c_str());
        whole.insert(kv.first + " ");
      }
    }
    for (const auto& s : skips) {
      bool covered = false;
      for (const auto& f : whole) covered |= s.compare(0, f.size(), f) == 0;
      if (!covered) fprintf(out, "   skipped: %s\n", s.c_str());
    }
  }
}

void Report::PrintTargets(FILE* out, const RunInfo& info) const {
  std::vector<PhaseResult> med = Medians();
  struct Line {
    std::string what;
    double value;
    double goal;
    bool at_most;
    // Why the target is missed whatever the value: a phase that failed,
    // or wrong answers (the found column). Empty if measured right.
    std::string failure = {};
  };
  std::vector<Line> lines;
  // What reads of `phase` must find of `r.ops` keys: all, or none for
  // absent keys. Empty if `r` found what it should.
  auto wrong_found = [](const PhaseResult& r) -> std::string {
    const uint64_t want = r.phase == "readmissing" ? 0 : r.ops;
    if (r.found == want) return "";
    return r.format + " found " + std::to_string(r.found) + " of " +
           std::to_string(r.ops) + ", not " + std::to_string(want);
  };
  auto speed = [&](const std::string& w, const std::string& phase,
                   const std::string& peer, double goal) {
    const PhaseResult* rh = FindAny(med, w, "robinhood", phase);
    const PhaseResult* other = FindAny(med, w, peer, phase);
    // Not run here, or not a thing the peer can do: no target to judge.
    if (!rh || !other) return;
    if (other->skipped && !other->failed) return;
    Line l{w + " " + phase + ": robinhood / " + peer, 0, goal, false, ""};
    for (const PhaseResult* r : {rh, other}) {
      if (r->failed || r->skipped) {
        l.failure = r->format + " " + r->reason;
        break;
      }
      l.failure = wrong_found(*r);
      if (!l.failure.empty()) break;
    }
    if (l.failure.empty() && other->ops_per_sec > 0) {
      l.value = rh->ops_per_sec / other->ops_per_sec;
    } else if (l.failure.empty()) {
      l.failure = peer + " measured no operations";
    }
    lines.push_back(l);
  };
  bool has_misses = false;
  for (const auto& r : med) has_misses |= r.workload == "misses";
  const std::string misses_w = has_misses ? "misses" : "cuckoo";
  // The cuckoo workload's files take the inline layout; sparkey's entries
  // are too long for a slot and keep the log layout.
  speed("cuckoo", "readrandom", "cuckoo", 1.0);
  speed("cuckoo", "readrandom", "block", 4.0);
  speed("cuckoo", "multireadrandom", "cuckoo", 1.3);
  speed("sparkey", "readrandom", "plain", 1.5);
  speed("sparkey", "readrandom", "block", 3.0);
  speed(misses_w, "readmissing", "cuckoo", 1.2);
  speed(misses_w, "readmissing", "block", 1.0);
  for (const auto& w : info.workload_order) {
    speed(w, "seekrandom", "block", 0.8);
  }
  for (const auto& w : info.workload_order) {
    for (const auto& phase : {"fill", "ingest"}) {
      // A build that failed misses every target it would have had.
      const PhaseResult* tried = FindAny(med, w, "robinhood", phase);
      if (tried != nullptr && tried->failed) {
        lines.push_back({w + " " + phase + ": robinhood", 0, 0, false,
                         tried->reason});
        continue;
      }
      const PhaseResult* rh = Find(med, w, "robinhood", phase);
      const PhaseResult* block = Find(med, w, "block", phase);
      const PhaseResult* cuckoo = Find(med, w, "cuckoo", phase);
      if (rh && std::string(phase) == "fill") {
        if (block && w == "sparkey") {
          lines.push_back({w + " file size: robinhood / block (uncompressed)",
                           double(rh->file_bytes) / double(block->file_bytes),
                           1.05, true});
        }
        if (w == "cuckoo" && cuckoo) {
          lines.push_back({w + " file size: robinhood / cuckoo",
                           double(rh->file_bytes) / double(cuckoo->file_bytes),
                           1.3, true});
        }
        if (w == "cuckoo" && block) {
          lines.push_back({w + " file size: robinhood / block",
                           double(rh->file_bytes) / double(block->file_bytes),
                           1.0, true});
        }
      }
      if (std::string(phase) != "ingest" || !rh) continue;
      lines.push_back({w + " ingest build: robinhood M entries/s",
                       rh->entries_per_sec / 1e6, 1.5, false});
      if (block && w == "sparkey") {
        lines.push_back({w + " ingest build: robinhood / block",
                         rh->entries_per_sec / block->entries_per_sec, 1.2,
                         false});
      }
      if (rh->builder_peak_bytes >= 0 && rh->entries && rh->file_bytes > 0) {
        lines.push_back({w + " builder peak / file bytes (robinhood)",
                         double(rh->builder_peak_bytes) /
                             double(rh->file_bytes),
                         1.5, true});
      }
    }
  }
  if (lines.empty()) return;
  fprintf(out, "\n== targets (set for 10M keys; this run: %" PRIu64
               " keys) ==\n", info.num);
  int met = 0;
  for (const auto& l : lines) {
    if (!l.failure.empty()) {
      fprintf(out, "  %-58s %8s  %s  MISSED\n", l.what.c_str(), "-",
              l.failure.c_str());
      continue;
    }
    bool ok = l.at_most ? l.value <= l.goal : l.value >= l.goal;
    met += ok ? 1 : 0;
    fprintf(out, "  %-58s %8.2f  (%s %.2f)  %s\n", l.what.c_str(), l.value,
            l.at_most ? "<=" : ">=", l.goal, ok ? "met" : "MISSED");
  }
  fprintf(out, "  %d of %zu targets met\n", met, lines.size());
}

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
      }
      j.Key("vs_robinhood");
      vs_rh > 0 ? j.Real(vs_rh) : j.Null();
      // Every repetition's headline number.
      j.Key("samples").BeginArray(kInline);
      for (const auto& s : samples_.at(Key(r))) {
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
