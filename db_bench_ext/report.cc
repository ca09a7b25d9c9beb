#include "db_bench_ext/report.h"

#include <algorithm>
#include <cinttypes>
#include <functional>
#include <set>

#include "db_bench_ext/flags.h"


namespace db_bench_ext {

namespace {

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
  std::string line = buf;
  // Shown from one fault or KiB in a hundred operations: a warm run's few
  // stray faults are not the disk bounding it.
  if (r.ops && (r.major_faults * 100 >= r.ops ||
                r.disk_read_bytes * 100 >= r.ops * 1024)) {
    snprintf(buf, sizeof(buf),
             "; from disk: %.2f major faults, %.1f KiB an operation",
             double(r.major_faults) / double(r.ops),
             double(r.disk_read_bytes) / 1024.0 / double(r.ops));
    line += buf;
  }
  return line;
}

void Report::Add(const PhaseResult& r, int repetitions) {
  std::string k = SampleKey(r);
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
  std::string k = SampleKey(r);
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
    // Wrong answers in any repetition show: the count furthest from
    // right, not the median.
    auto off = [](const PhaseResult& r) {
      const uint64_t want = r.ExpectedFound();
      return r.found > want ? r.found - want : want - r.found;
    };
    for (auto* r : ok) {
      if (off(*r) > off(m)) m.found = r->found;
    }
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
      fprintf(out, "%s",
              FLAGS_fill_by == "ingest"
                  ? "   fill = SstFileWriter files of --target_file_size_base "
                    "in key order + one IngestExternalFile (--fill_by=ingest); "
                    "ingest = SstFileWriter + IngestExternalFile.\n"
                  : "   fill = DB writes (WAL off) + flush + full "
                    "CompactRange; ingest = SstFileWriter + "
                    "IngestExternalFile.\n");
      fprintf(out,
              "   peak (own prop): the builder's own report "
              "(rocksdb.robinhood.builder.peak.bytes); peak heap: growth of\n"
              "   the heap (or, where larger, of the resident set) while "
              "SstFileWriter (ingest) or CompactRange\n"
              "   (fill) ran, measured alike for all formats.\n");
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

std::string Report::SampleKey(const PhaseResult& r) {
  return r.workload + "\x1f" + r.format + "\x1f" + r.phase;
}

}  // namespace db_bench_ext
