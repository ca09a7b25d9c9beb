// The build phases: fill (DB writes and a full compaction, or files
// ingested), ingest (SstFileWriter), and the live files' statistics.
#include "db_bench_ext/phases.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <memory>
#include <thread>

#include "db_bench_ext/flags.h"
#include "db_bench_ext/heap.h"
#include "db_bench_ext/latency.h"
#include "rocksdb/iterator.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/table_properties.h"
#include "rocksdb/write_batch.h"
#include "rocksdb_robinhood/robinhood_table.h"
#include "tools/common/db_open.h"

namespace db_bench_ext {

using rocksdb::DB;
using rocksdb::robinhood::DBResult;
using rocksdb::PinnableSlice;
using rocksdb::ReadOptions;
using rocksdb::Slice;
using rocksdb::Status;

namespace {

constexpr const char* kPeakProperty =
    ROCKSDB_NAMESPACE::RobinHoodTablePropertyNames::kBuilderPeakBytes;
constexpr const char* kRobinHoodIndexProperty =
    ROCKSDB_NAMESPACE::RobinHoodTablePropertyNames::kIndexBytes;

}  // namespace

PhaseResult NewResult(const PhaseContext& ctx, const std::string& phase) {
  PhaseResult r;
  r.workload = ctx.keys->workload().name;
  r.format = ctx.format->name;
  r.phase = phase;
  return r;
}

Status OpenDb(const PhaseContext& ctx, const std::string& dir, bool fresh,
              DB** db) {
  if (fresh) {
    Status s = rocksdb::DestroyDB(dir, ctx.setup->options);
    if (!s.ok()) return s;
  }
  rocksdb::Options o = ctx.setup->options;
  o.create_if_missing = fresh;
  std::unique_ptr<DB> opened;
  Status s = DB::Open(o, dir, DBResult(&opened));
  *db = opened.release();
  return s;
}

void CollectFileStats(DB* db, PhaseResult* r) {
  std::vector<rocksdb::LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  r->files = files.size();
  r->file_bytes = 0;
  for (const auto& f : files) r->file_bytes += f.size;
  rocksdb::TablePropertiesCollection props;
  if (!db->GetPropertiesOfAllTables(&props).ok()) return;
  r->index_bytes = r->filter_bytes = 0;
  r->entries = 0;
  for (const auto& kv : props) {
    const rocksdb::TableProperties& p = *kv.second;
    uint64_t index = p.index_size;
    const auto& user = p.user_collected_properties;
    auto it = user.find(kRobinHoodIndexProperty);
    if (index == 0 && it != user.end()) index = std::stoull(it->second);
    r->index_bytes += index;
    r->filter_bytes += p.filter_size;
    r->entries += p.num_entries;
    it = user.find(kPeakProperty);
    if (it != user.end()) {
      r->builder_peak_bytes =
          std::max<int64_t>(r->builder_peak_bytes, std::stoll(it->second));
    }
  }
}

namespace {

// The fill by ingestion: files of about --target_file_size_base bytes of
// keys and values (the same cuts for every format), written in key order
// and ingested in one call, so every file lands in the bottommost level as
// a full compaction would leave it, without its second copy of the data.
Status FillByIngest(const PhaseContext& ctx, const std::string& dir, DB* db,
                    double* written_at) {
  const KeySpace& ks = *ctx.keys;
  std::string staging = dir + "-sst";
  rocksdb::Env* env = rocksdb::Env::Default();
  std::vector<std::string> old;
  if (env->GetChildren(staging, &old).ok()) {
    for (const auto& f : old) env->DeleteFile(staging + "/" + f);
  }
  Status s = env->CreateDirIfMissing(staging);
  std::vector<uint64_t> sorted = ks.SortedHashes();
  char kbuf[Workload::kMaxKeySize];
  std::vector<char> vbuf(ks.workload().value_size + 8);
  const uint64_t cut = uint64_t(std::max<int64_t>(1, FLAGS_target_file_size_base));
  std::vector<std::string> files;
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), ctx.setup->options);
  uint64_t in_file = 0;
  Progress progress(ctx.label + " fill (ingest)", ks.num());
  for (uint64_t i = 0; i < sorted.size() && s.ok(); i++) {
    if (in_file == 0) {
      char name[32];
      snprintf(name, sizeof(name), "/%06zu.sst", files.size());
      files.push_back(staging + name);
      s = writer.Open(files.back());
      if (!s.ok()) break;
    }
    Slice k = ks.Key(sorted[i], kbuf);
    Slice v = ks.Value(sorted[i], vbuf.data());
    s = writer.Put(k, v);
    in_file += k.size() + v.size();
    if (s.ok() && (in_file >= cut || i + 1 == sorted.size())) {
      s = writer.Finish();
      in_file = 0;
    }
    progress.Update(i);
  }
  progress.Finish();
  std::vector<uint64_t>().swap(sorted);
  *written_at = NowSeconds();
  if (s.ok()) {
    Ticker ticker(ctx.label + " fill: IngestExternalFile");
    rocksdb::IngestExternalFileOptions io;
    io.move_files = true;
    s = db->IngestExternalFile(files, io);
  }
  for (const auto& f : files) env->DeleteFile(f);
  env->DeleteDir(staging);
  return s;
}

// The fill by Puts (WAL off, batches of 1000, random order), a flush and
// one full compaction; the heap's peak is the compaction's.
Status FillByCompaction(const PhaseContext& ctx, DB* db, double* written_at,
                        int64_t* heap_peak) {
  const KeySpace& ks = *ctx.keys;
  rocksdb::WriteOptions wo;
  wo.disableWAL = true;
  rocksdb::WriteBatch batch;
  char kbuf[Workload::kMaxKeySize];
  std::vector<char> vbuf(ks.workload().value_size + 8);
  Progress progress(ctx.label + " fill", ks.num());
  Status s;
  for (uint64_t i = 0; i < ks.num() && s.ok(); i++) {
    uint64_t h = KeySpace::HashOf(i);
    s = batch.Put(ks.Key(h, kbuf), ks.Value(h, vbuf.data()));
    if (batch.Count() >= 1000 || i + 1 == ks.num()) {
      if (s.ok()) s = db->Write(wo, &batch);
      batch.Clear();
    }
    progress.Update(i);
  }
  if (s.ok()) s = db->Flush(rocksdb::FlushOptions());
  progress.Finish();
  *written_at = NowSeconds();
  if (s.ok()) {
    rocksdb::CompactRangeOptions cro;
    cro.bottommost_level_compaction =
        rocksdb::BottommostLevelCompaction::kForce;
    StartHeapPeak();
    Ticker ticker(ctx.label + " fill: CompactRange");
    s = db->CompactRange(cro, nullptr, nullptr);
    *heap_peak = HeapPeakGrowth();
  }
  return s;
}

}  // namespace

PhaseResult RunFill(const PhaseContext& ctx, const std::string& dir, DB* db) {
  PhaseResult r = NewResult(ctx, "fill");
  double t0 = NowSeconds();
  double t1 = t0;
  Status s;
  if (FLAGS_fill_by == "ingest") {
    StartHeapPeak();
    s = FillByIngest(ctx, dir, db, &t1);
    r.heap_peak_bytes = HeapPeakGrowth();
  } else {
    s = FillByCompaction(ctx, db, &t1, &r.heap_peak_bytes);
  }
  double t2 = NowSeconds();
  if (!s.ok()) {
    r.skipped = true;
    r.failed = true;
    r.reason = "fill failed: " + s.ToString();
    return r;
  }
  r.stage1_seconds = t1 - t0;
  r.stage2_seconds = t2 - t1;
  r.build_seconds = t2 - t0;
  r.entries_per_sec = double(ctx.keys->num()) / r.build_seconds;
  CollectFileStats(db, &r);
  return r;
}

PhaseResult RunIngest(const PhaseContext& ctx, const std::string& dir) {
  PhaseResult r = NewResult(ctx, "ingest");
  const KeySpace& ks = *ctx.keys;
  std::vector<uint64_t> sorted = ks.SortedHashes();
  std::string sst = dir + ".sst";
  unlink(sst.c_str());
  char kbuf[Workload::kMaxKeySize];
  std::vector<char> vbuf(ks.workload().value_size + 8);

  StartHeapPeak();
  Progress progress(ctx.label + " ingest", ks.num());
  double t0 = NowSeconds();
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), ctx.setup->options);
  Status s = writer.Open(sst);
  for (uint64_t i = 0; i < sorted.size() && s.ok(); i++) {
    uint64_t h = sorted[i];
    s = writer.Put(ks.Key(h, kbuf), ks.Value(h, vbuf.data()));
    progress.Update(i);
  }
  if (s.ok()) s = writer.Finish();
  progress.Finish();
  double t1 = NowSeconds();
  r.heap_peak_bytes = HeapPeakGrowth();
  std::vector<uint64_t>().swap(sorted);

  DB* db = nullptr;
  if (s.ok()) s = OpenDb(ctx, dir, /*fresh=*/true, &db);
  double t2 = NowSeconds();
  if (s.ok()) {
    rocksdb::IngestExternalFileOptions io;
    io.move_files = true;
    s = db->IngestExternalFile({sst}, io);
  }
  double t3 = NowSeconds();
  if (s.ok()) {
    // The ingested data must be there.
    KeyChooser chooser(ks.num(), 12345);
    PinnableSlice v;
    uint64_t found = 0;
    const int kChecks = 1000;
    for (int i = 0; i < kChecks; i++) {
      uint64_t h = chooser.PresentHash();
      v.Reset();
      if (db->Get(ReadOptions(), db->DefaultColumnFamily(), ks.Key(h, kbuf),
                  &v)
              .ok() &&
          v == ks.Value(h, vbuf.data())) {
        found++;
      }
    }
    if (found != kChecks) {
      s = Status::Corruption("after ingestion only " + std::to_string(found) +
                             " of " + std::to_string(kChecks) +
                             " sampled keys read back correctly");
    }
  }
  if (s.ok()) CollectFileStats(db, &r);
  if (db) {
    db->Close();
    delete db;
  }
  rocksdb::DestroyDB(dir, ctx.setup->options);
  unlink(sst.c_str());
  if (!s.ok()) {
    r.skipped = true;
    r.failed = true;
    r.reason = "SstFileWriter + IngestExternalFile failed: " + s.ToString();
    return r;
  }
  r.stage1_seconds = t1 - t0;
  r.stage2_seconds = t3 - t2;
  r.build_seconds = r.stage1_seconds + r.stage2_seconds;
  r.entries_per_sec = double(ks.num()) / r.build_seconds;
  return r;
}

}  // namespace db_bench_ext
