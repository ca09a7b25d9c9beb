// The read phases: the untimed warm-up and the timed reads, on one thread
// or several.
#include <sys/resource.h>

#include <algorithm>
#include <memory>
#include <thread>
#include <vector>

#include "db_bench_ext/flags.h"
#include "db_bench_ext/latency.h"
#include "db_bench_ext/phases.h"
#include "rocksdb/iterator.h"

namespace db_bench_ext {

using rocksdb::DB;
using rocksdb::PinnableSlice;
using rocksdb::ReadOptions;
using rocksdb::Slice;
using rocksdb::Status;

std::string Warmup(const PhaseContext& ctx, DB* db, uint64_t reads,
                   uint64_t seed) {
  const KeySpace& ks = *ctx.keys;
  char kbuf[Workload::kMaxKeySize];
  std::vector<char> vbuf(ks.workload().value_size + 8);
  uint64_t count = 0;
  Ticker ticker(ctx.label + " warm-up");
  if (!FLAGS_warmup_scan) {
    count = ks.num();
  } else if (ScanIsSlow(*ctx.format)) {
    // Instead of a scan: read every key once (in random order), checking
    // each value.
    PinnableSlice v;
    for (uint64_t i = 0; i < ks.num(); i++) {
      uint64_t h = KeySpace::HashOf(i);
      v.Reset();
      Status s = db->Get(ReadOptions(), db->DefaultColumnFamily(),
                         ks.Key(h, kbuf), &v);
      if (s.ok() && v == ks.Value(h, vbuf.data())) count++;
    }
  } else {
    std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(ReadOptions()));
    for (it->SeekToFirst(); it->Valid(); it->Next()) count++;
    if (!it->status().ok()) {
      return "full scan failed: " + it->status().ToString();
    }
  }
  if (count != ks.num()) {
    return std::string(ScanIsSlow(*ctx.format) ? "reading every key"
                                               : "a full scan") +
           " found " + std::to_string(count) + " of " +
           std::to_string(ks.num()) + " keys with their values";
  }
  KeyChooser chooser(ks.num(), seed ^ 0x77777777ULL);
  PinnableSlice v;
  uint64_t wrong = 0;
  for (uint64_t i = 0; i < reads; i++) {
    uint64_t h = chooser.PresentHash();
    v.Reset();
    Status s = db->Get(ReadOptions(), db->DefaultColumnFamily(),
                       ks.Key(h, kbuf), &v);
    if (!s.ok() || v != ks.Value(h, vbuf.data())) wrong++;
  }
  for (uint64_t i = 0; i < reads / 10; i++) {
    uint64_t h = chooser.AbsentHash();
    v.Reset();
    Status s = db->Get(ReadOptions(), db->DefaultColumnFamily(),
                       ks.Key(h, kbuf), &v);
    if (!s.IsNotFound()) wrong++;
  }
  if (wrong) {
    return std::to_string(wrong) + " wrong answers among " +
           std::to_string(reads + reads / 10) + " checked reads";
  }
  return "";
}

namespace {

void FillStats(PhaseResult* r, double seconds, uint64_t ops,
               double thread_seconds) {
  r->seconds = seconds;
  r->ops = ops;
  r->thread_seconds = thread_seconds;
  r->ops_per_sec = seconds > 0 ? double(ops) / seconds : 0;
  r->micros_per_op = ops ? thread_seconds * 1e6 / double(ops) : 0;
}


struct ThreadOut {
  LatencyRecorder latency;
  uint64_t ops = 0;
  uint64_t found = 0;
  double seconds = 0;
  std::string error;
};

void ReadThread(const PhaseContext& ctx, DB* db, const std::string& phase,
                uint64_t reads, int batch_size, int seek_nexts, uint64_t seed,
                Progress* progress, ThreadOut* out) {
  const KeySpace& ks = *ctx.keys;
  KeyChooser chooser(ks.num(), seed, ctx.read_key_range);
  ReadOptions ro;
  auto* cf = db->DefaultColumnFamily();
  double start = NowSeconds();
  if (phase == "readrandom" || phase == "readmissing") {
    const bool present = phase == "readrandom";
    char kbuf[Workload::kMaxKeySize];
    PinnableSlice v;
    out->latency.Reserve(reads);
    for (uint64_t i = 0; i < reads; i++) {
      uint64_t h = present ? chooser.PresentHash() : chooser.AbsentHash();
      Slice key = ks.Key(h, kbuf);
      uint64_t t0 = NowTicks();
      Status s = db->Get(ro, cf, key, &v);
      out->latency.Add(NowTicks() - t0);
      if (s.ok()) {
        out->found++;
      } else if (!s.IsNotFound() && out->error.empty()) {
        out->error = s.ToString();
      }
      v.Reset();
      if (progress) progress->Update(i);
    }
    out->ops = reads;
  } else if (phase == "multireadrandom") {
    size_t b = size_t(std::max(1, batch_size));
    std::vector<char> kbufs(b * Workload::kMaxKeySize);
    std::vector<Slice> keys(b);
    std::vector<PinnableSlice> values(b);
    std::vector<Status> statuses(b);
    out->latency.Reserve(reads / b + 1);
    uint64_t done = 0;
    while (done < reads) {
      size_t n = size_t(std::min<uint64_t>(b, reads - done));
      for (size_t j = 0; j < n; j++) {
        keys[j] = ks.Key(chooser.PresentHash(),
                         &kbufs[j * Workload::kMaxKeySize]);
      }
      uint64_t t0 = NowTicks();
      db->MultiGet(ro, cf, n, keys.data(), values.data(), statuses.data(),
                   /*sorted_input=*/false);
      out->latency.Add(NowTicks() - t0);
      for (size_t j = 0; j < n; j++) {
        if (statuses[j].ok()) {
          out->found++;
        } else if (!statuses[j].IsNotFound() && out->error.empty()) {
          out->error = statuses[j].ToString();
        }
        values[j].Reset();
      }
      uint64_t before = done;
      done += n;
      if (progress && (before >> 12) != (done >> 12)) progress->Check(done);
    }
    out->ops = reads;
  } else if (phase == "seekrandom") {
    std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(ro));
    char kbuf[Workload::kMaxKeySize];
    out->latency.Reserve(reads);
    for (uint64_t i = 0; i < reads; i++) {
      Slice key = ks.Key(chooser.PresentHash(), kbuf);
      uint64_t t0 = NowTicks();
      it->Seek(key);
      bool hit = it->Valid() && it->key() == key;
      for (int j = 0; j < seek_nexts && it->Valid(); j++) it->Next();
      out->latency.Add(NowTicks() - t0);
      if (hit) out->found++;
      if (progress) progress->Update(i);
    }
    if (!it->status().ok()) out->error = it->status().ToString();
    out->ops = reads;
  } else if (phase == "readseq") {
    // One full scan in key order, every step timed; ops are entries.
    std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(ro));
    out->latency.Reserve(ks.num() + 1);
    uint64_t entries = 0;
    size_t bytes = 0;
    uint64_t t0 = NowTicks();
    it->SeekToFirst();
    out->latency.Add(NowTicks() - t0);
    while (it->Valid()) {
      // Touch what a reader of the scan would: key and value.
      bytes += it->key().size() + it->value().size();
      entries++;
      t0 = NowTicks();
      it->Next();
      out->latency.Add(NowTicks() - t0);
    }
    if (!it->status().ok()) {
      out->error = it->status().ToString();
    } else if (entries != ks.num() || bytes == 0) {
      out->error = "the scan found " + std::to_string(entries) + " of " +
                   std::to_string(ks.num()) + " entries";
    }
    out->ops = entries;
    out->found = entries;
  } else {
    out->error = "unknown phase " + phase;
  }
  out->seconds = NowSeconds() - start;
}

}  // namespace

PhaseResult RunRead(const PhaseContext& ctx, DB* db, const std::string& phase,
                    int threads, uint64_t reads, int batch_size,
                    int seek_nexts, uint64_t seed) {
  PhaseResult r = NewResult(ctx, phase);
  threads = std::max(1, threads);
  std::vector<ThreadOut> outs(threads);
  Progress progress(ctx.label + " " + phase, reads);
  struct rusage before;
  getrusage(RUSAGE_SELF, &before);
  double start = NowSeconds();
  if (threads == 1) {
    ReadThread(ctx, db, phase, reads, batch_size, seek_nexts, seed,
               &progress, &outs[0]);
  } else {
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; t++) {
      pool.emplace_back([&, t] {
        ReadThread(ctx, db, phase, reads, batch_size, seek_nexts,
                   seed + 1000003ULL * t, t == 0 ? &progress : nullptr,
                   &outs[t]);
      });
    }
    for (auto& th : pool) th.join();
  }
  double wall = NowSeconds() - start;
  struct rusage after;
  getrusage(RUSAGE_SELF, &after);
  r.major_faults = uint64_t(after.ru_majflt - before.ru_majflt);
  r.disk_read_bytes = uint64_t(after.ru_inblock - before.ru_inblock) * 512;
  progress.Finish();
  LatencyRecorder all;
  uint64_t ops = 0;
  double thread_seconds = 0;
  for (auto& o : outs) {
    all.Merge(o.latency);
    ops += o.ops;
    r.found += o.found;
    thread_seconds += o.seconds;
    if (!o.error.empty() && r.reason.empty()) r.reason = o.error;
  }
  if (!r.reason.empty()) {
    r.skipped = true;
    r.failed = true;
    r.reason = phase + " failed: " + r.reason;
    return r;
  }
  FillStats(&r, wall, ops, thread_seconds);
  r.latency_per_batch = phase == "multireadrandom";
  r.p50_us = all.PercentileMicros(50);
  r.p99_us = all.PercentileMicros(99);
  r.p999_us = all.PercentileMicros(99.9);
  return r;
}

}  // namespace db_bench_ext
