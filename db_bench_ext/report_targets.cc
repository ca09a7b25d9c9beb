// Report::PrintTargets: the project's targets for each workload, judged on
// the medians of this run (report.h).
#include <cinttypes>
#include <functional>
#include <string>
#include <vector>

#include "db_bench_ext/report.h"

namespace db_bench_ext {

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
    const uint64_t want = r.ExpectedFound();
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
      // Every target a build has, judged, or MISSED with the reason if
      // robinhood's build or its peer's failed.
      const PhaseResult* rh = FindAny(med, w, "robinhood", phase);
      if (rh == nullptr || (rh->skipped && !rh->failed)) continue;
      auto measured = [&](const char* format) {
        const PhaseResult* r = FindAny(med, w, format, phase);
        return r != nullptr && (!r->skipped || r->failed) ? r : nullptr;
      };
      const PhaseResult* block = measured("block");
      const PhaseResult* cuckoo = measured("cuckoo");
      auto build = [&](const std::string& what, const PhaseResult* peer,
                       double goal, bool at_most,
                       const std::function<double()>& value) {
        Line l{what, 0, goal, at_most};
        for (const PhaseResult* r : {rh, peer}) {
          if (r != nullptr && r->failed) {
            l.failure = r->format + " " + r->reason;
            break;
          }
        }
        if (l.failure.empty()) l.value = value();
        lines.push_back(l);
      };
      auto bytes_over = [&](const PhaseResult* peer) {
        return [=] { return double(rh->file_bytes) / double(peer->file_bytes); };
      };
      if (std::string(phase) == "fill") {
        if (block && w == "sparkey") {
          build(w + " file size: robinhood / block (uncompressed)", block,
                1.05, true, bytes_over(block));
        }
        if (w == "cuckoo" && cuckoo) {
          build(w + " file size: robinhood / cuckoo", cuckoo, 1.3, true,
                bytes_over(cuckoo));
        }
        if (w == "cuckoo" && block) {
          build(w + " file size: robinhood / block", block, 1.0, true,
                bytes_over(block));
        }
        continue;
      }
      build(w + " ingest build: robinhood M entries/s", nullptr, 1.5, false,
            [=] { return rh->entries_per_sec / 1e6; });
      if (block && w == "sparkey") {
        build(w + " ingest build: robinhood / block", block, 1.2, false,
              [=] { return rh->entries_per_sec / block->entries_per_sec; });
      }
      if (rh->failed || rh->builder_peak_bytes >= 0) {
        build(w + " builder peak / file bytes (robinhood)", nullptr, 1.5, true,
              [=] {
                return rh->file_bytes > 0 ? double(rh->builder_peak_bytes) /
                                                double(rh->file_bytes)
                                          : 0.0;
              });
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

}  // namespace db_bench_ext
