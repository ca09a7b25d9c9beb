#include "tools/load/loader.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <thread>

#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/utilities/options_util.h"
#include "rocksdb_robinhood/robinhood_table.h"
#include "tools/common/proc_status.h"
#include "tools/load/load_options.h"
#include "tools/load/range_builder.h"
#include "tools/load/run_file.h"
#include "tools/load/signals.h"
#include "tools/load/sort_buffer.h"
#include "tools/common/db_open.h"

namespace rh_load {

using namespace ROCKSDB_NAMESPACE;
using ROCKSDB_NAMESPACE::robinhood::DBResult;

std::string PartFileName(size_t index) {
  char name[32];
  snprintf(name, sizeof(name), "part-%06zu.sst", index + 1);
  return name;
}

uint64_t PeakResidentBytes() { return rh_tools::ProcStatusBytes("VmHWM:"); }

namespace {

Status MakeDir(const std::string& dir, const char* flag) {
  if (mkdir(dir.c_str(), 0755) == 0 || errno == EEXIST) {
    struct stat st;
    if (stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return Status::OK();
  }
  return Status::InvalidArgument(flag, "cannot create directory " + dir + ": " +
                                           strerror(errno));
}

// Where each input file's entries start, to name a position from an ordinal.
struct Catalog {
  struct File {
    std::string name;
    uint64_t first;
    const char* noun;
  };
  std::vector<File> files;
  std::string Describe(uint64_t ordinal) const {
    auto it = std::upper_bound(files.begin(), files.end(), ordinal,
                               [](uint64_t o, const File& f) { return o < f.first; });
    if (it == files.begin()) return "entry " + std::to_string(ordinal + 1);
    --it;
    return it->name + " " + it->noun + " " + std::to_string(ordinal - it->first + 1);
  }
};

class Loader {
 public:
  Loader(const LoadOptions& o, LoadSummary* summary)
      : o_(o), summary_(summary), printer_(&progress_, o.progress) {}
  ~Loader() { Cleanup(); }

  Status Run() {
    const double start = NowSeconds();
    Status s = Prepare();
    if (s.ok()) {
      printer_.Phase("read");
      s = Read();
    }
    summary_->read_seconds = NowSeconds() - start;
    summary_->runs = runs_.size();
    const double build_start = NowSeconds();
    if (s.ok()) {
      printer_.Phase("build");
      s = Build();
    }
    if (s.ok()) s = Publish();
    summary_->build_seconds = NowSeconds() - build_start;
    RemoveTmpDir();
    const double ingest_start = NowSeconds();
    // No entries, no files: the DB is left as it is.
    if (s.ok() && !o_.db.empty() && !summary_->files.empty()) {
      printer_.Phase("ingest");
      s = Ingest();
      summary_->ingest_seconds = NowSeconds() - ingest_start;
    }
    printer_.Stop();
    summary_->seconds = NowSeconds() - start;
    summary_->peak_memory = PeakResidentBytes();
    if (!s.ok() && !published_) Cleanup();
    return s;
  }

 private:
  Status Prepare() {
    Status s = ValidateLoadOptions(o_);
    if (s.ok()) s = TableOptions(o_, &cf_options_);
    if (s.ok()) s = MakeDir(o_.output_dir, "--output_dir");
    if (!s.ok()) return s;
    if (DIR* d = opendir(o_.output_dir.c_str())) {
      while (dirent* e = readdir(d)) {
        const std::string name = e->d_name;
        if (name.compare(0, 5, "part-") == 0 && name.size() > 4 &&
            name.compare(name.size() - 4, 4, ".sst") == 0) {
          closedir(d);
          return Status::InvalidArgument(
              "--output_dir", o_.output_dir + " already holds " + name +
                                  ": give a directory without part-*.sst files");
        }
      }
      closedir(d);
    }
    const std::string tmp_parent = o_.tmp_dir.empty() ? o_.output_dir : o_.tmp_dir;
    s = MakeDir(tmp_parent, "--tmp_dir");
    if (!s.ok()) return s;
    tmp_dir_ = tmp_parent + "/rh_load." + std::to_string(getpid()) + ".tmp";
    if (mkdir(tmp_dir_.c_str(), 0700) != 0) {
      const std::string why = strerror(errno);
      tmp_dir_.clear();
      return Status::IOError("cannot create temporary directory under " + tmp_parent, why);
    }
    for (const auto& in : o_.inputs) {
      progress_.input_size.fetch_add(InputSize(o_.format, in));
    }
    return Status::OK();
  }

  // Reads every input into sort buffers, spilling each full one as a run.
  Status Read() {
    const size_t reserve = size_t(8) << 20;  // the input's read buffer
    const uint64_t usable = o_.memory_limit > reserve * 2 ? o_.memory_limit - reserve
                                                          : o_.memory_limit / 2;
    const bool overlap = o_.threads > 1;
    const size_t budget = size_t(overlap ? usable / 2 : usable);
    buffers_[0] = std::make_unique<SortBuffer>(budget);
    if (overlap) buffers_[1] = std::make_unique<SortBuffer>(budget);
    SortBuffer* fill = buffers_[0].get();
    std::mt19937_64 rng(0x726c6f6164);  // the same input samples the same keys
    const size_t sample_size = 1024 * size_t(o_.threads);
    uint64_t ordinal = 0;
    Status s;
    for (const auto& path : o_.inputs) {
      std::unique_ptr<InputReader> reader;
      s = OpenInput(o_.format, path, o_.input_column_family, &reader);
      if (!s.ok()) return s;
      catalog_.files.push_back(
          Catalog::File{path == "-" ? "(stdin)" : path, ordinal, RecordNoun(o_.format)});
      const uint64_t bytes_before = progress_.bytes_in.load();
      for (;;) {
        Slice key, value;
        bool has = false;
        s = reader->Next(&key, &value, &has);
        if (!s.ok() || !has) break;
        if (!fill->Add(key, value, ordinal)) {
          s = Spill(fill);
          if (!s.ok()) return s;
          if (overlap) fill = fill == buffers_[0].get() ? buffers_[1].get() : buffers_[0].get();
          if (!fill->Add(key, value, ordinal)) {
            return Status::InvalidArgument(
                "--memory_limit", "too small for the entry at " + catalog_.Describe(ordinal));
          }
        }
        // Reservoir sample of keys, for the threads' key ranges.
        if (sample_.size() < sample_size) {
          sample_.push_back(key.ToString());
        } else {
          const uint64_t j = rng() % (ordinal + 1);
          if (j < sample_size) sample_[j] = key.ToString();
        }
        ordinal++;
        if ((ordinal & 1023) == 0) {
          progress_.entries_in.store(ordinal, std::memory_order_relaxed);
          progress_.bytes_in.store(bytes_before + reader->BytesRead(),
                                   std::memory_order_relaxed);
          if (StopRequested()) return Interrupted();
        }
      }
      if (!s.ok()) return s;
      summary_->input_bytes += reader->BytesRead();
      progress_.bytes_in.store(bytes_before + reader->BytesRead());
    }
    progress_.entries_in.store(ordinal);
    progress_.total_entries.store(ordinal);
    summary_->entries_read = ordinal;
    s = WaitSpill();
    if (!s.ok()) return s;
    // The last buffer stays in memory, for the merge, when it is the only
    // one and leaves the builders their half of the limit.
    if (runs_.empty() && fill->MemoryUsage() <= o_.memory_limit / 2) {
      fill->Sort();
      resident_ = fill;
      return Status::OK();
    }
    if (fill->size() > 0) s = Spill(fill);
    if (s.ok()) s = WaitSpill();
    // The builders get this memory now.
    for (auto& b : buffers_) {
      if (b) b->Release();
    }
    return s;
  }

  Status WaitSpill() {
    if (spiller_.joinable()) spiller_.join();
    return spill_status_;
  }

  // Sorts `buffer` and writes it as the next run; on a second thread when
  // one is given, after the previous spill ends.
  Status Spill(SortBuffer* buffer) {
    Status s = WaitSpill();
    if (!s.ok()) return s;
    runs_.emplace_back(std::make_unique<RunInfo>());
    RunInfo* run = runs_.back().get();
    const std::string path = tmp_dir_ + "/run-" + std::to_string(runs_.size()) + ".bin";
    auto work = [this, buffer, run, path] {
      buffer->Sort();
      RunWriter w;
      Status ws = w.Open(path);
      for (size_t i = 0; ws.ok() && i < buffer->size(); i++) {
        ws = w.Add(buffer->At(i));
        if ((i & 65535) == 0 && StopRequested()) ws = Interrupted();
      }
      Status fs = w.Finish(run);
      if (ws.ok()) ws = fs;
      buffer->Clear();
      progress_.runs.fetch_add(1);
      spill_status_ = ws;
    };
    if (o_.threads > 1) {
      spiller_ = std::thread(work);
    } else {
      work();
    }
    return o_.threads > 1 ? Status::OK() : spill_status_;
  }

  // Cuts the key space at the sample's quantiles, one range a thread, and
  // builds each range's files.
  Status Build() {
    std::sort(sample_.begin(), sample_.end());
    std::vector<std::string> bounds;
    for (int t = 1; t < o_.threads && !sample_.empty(); t++) {
      const std::string& b = sample_[sample_.size() * size_t(t) / size_t(o_.threads)];
      if (bounds.empty() || b > bounds.back()) bounds.push_back(b);
    }
    const size_t ranges = bounds.size() + 1;
    FilePlan plan;
    plan.target_bytes = o_.target_file_size;
    plan.builder_budget = o_.memory_limit / 2 / ranges;
    const Options write_options = WriterOptions(cf_options_, tmp_dir_, &plan);
    const size_t sources = runs_.size() + (resident_ ? 1 : 0);
    const size_t read_buffer = std::clamp<uint64_t>(
        o_.memory_limit / 8 / std::max<size_t>(1, ranges * sources), 64 << 10, 4 << 20);
    range_files_.assign(ranges, {});
    std::vector<Status> status(ranges);
    auto build = [&](size_t r) {
      std::vector<std::unique_ptr<SortedSource>> src;
      if (resident_) src.push_back(NewMemorySource(resident_));
      for (const auto& run : runs_) src.push_back(NewRunSource(run.get(), read_buffer));
      Merger merger(std::move(src), o_.on_duplicate, r < bounds.size() ? &bounds[r] : nullptr,
                    [this](uint64_t ordinal) { return catalog_.Describe(ordinal); });
      const std::string prefix = o_.output_dir + "/.rh_load." + std::to_string(getpid()) +
                                 "." + std::to_string(r) + ".";
      status[r] = BuildRange(&merger, r == 0 ? Slice() : Slice(bounds[r - 1]),
                             write_options, plan,
                             [&](size_t i) { return prefix + std::to_string(i) + ".sst.tmp"; },
                             &progress_, &range_files_[r]);
    };
    std::vector<std::thread> threads;
    for (size_t r = 1; r < ranges; r++) threads.emplace_back(build, r);
    build(0);
    for (auto& t : threads) t.join();
    for (const auto& st : status) {
      if (!st.ok()) return st;
    }
    for (const auto& files : range_files_) {
      for (const auto& f : files) {
        summary_->entries += f.entries;
        summary_->file_bytes += f.file_bytes;
        summary_->files_cut_by_memory |= f.cut_by_memory;
      }
    }
    return Status::OK();
  }

  // Renames the built files to their final names, in key order.
  Status Publish() {
    size_t index = 0;
    for (const auto& files : range_files_) {
      for (const auto& f : files) {
        const std::string final_path = o_.output_dir + "/" + PartFileName(index++);
        if (rename(f.path.c_str(), final_path.c_str()) != 0) {
          return Status::IOError("cannot rename " + f.path + " to " + final_path,
                                 strerror(errno));
        }
        summary_->files.push_back(final_path);
      }
    }
    published_ = true;
    return Status::OK();
  }

  Status Ingest() {
    ConfigOptions config;
    config.ignore_unsupported_options = false;
    DBOptions db_options;
    std::vector<ColumnFamilyDescriptor> cfs;
    Status s = LoadLatestOptions(config, o_.db, &db_options, &cfs);
    if (s.IsNotFound() || s.IsPathNotFound()) {
      cfs.clear();
      db_options = DBOptions();
      cfs.emplace_back(kDefaultColumnFamilyName, cf_options_);
      s = Status::OK();
    } else if (!s.ok()) {
      return Status::InvalidArgument("--db " + o_.db, s.ToString());
    }
    db_options.create_if_missing = true;
    db_options.create_missing_column_families = true;
    size_t target = cfs.size();
    for (size_t i = 0; i < cfs.size(); i++) {
      if (cfs[i].name == o_.column_family) target = i;
    }
    if (target == cfs.size()) {
      cfs.emplace_back(o_.column_family, cf_options_);
    } else if (cfs[target].options.table_factory->Name() != TableName(o_)) {
      return Status::InvalidArgument(
          "--db " + o_.db, "column family " + o_.column_family + " uses " +
                               cfs[target].options.table_factory->Name() + ", not " +
                               TableName(o_) + ": the files could not be read");
    }
    std::vector<ColumnFamilyHandle*> handles;
    std::unique_ptr<DB> db;
    s = DB::Open(db_options, o_.db, cfs, &handles, DBResult(&db));
    if (!s.ok()) return s;
    IngestExternalFileOptions ingest;
    ingest.move_files = true;
    s = db->IngestExternalFile(handles[target], summary_->files, ingest);
    for (auto* h : handles) db->DestroyColumnFamilyHandle(h);
    if (!s.ok()) {
      return Status::Aborted("ingesting into " + o_.db + " failed (the files stay in " +
                                 o_.output_dir + ")",
                             s.ToString());
    }
    return db->Close();
  }

  void RemoveTmpDir() {
    if (spiller_.joinable()) spiller_.join();
    for (const auto& run : runs_) {
      if (!run->path.empty()) unlink(run->path.c_str());
    }
    for (size_t i = 1; i <= runs_.size(); i++) {
      unlink((tmp_dir_ + "/run-" + std::to_string(i) + ".bin").c_str());
    }
    if (!tmp_dir_.empty()) rmdir(tmp_dir_.c_str());
    tmp_dir_.clear();
  }

  // Removes everything this run wrote: temporary and published files.
  void Cleanup() {
    RemoveTmpDir();
    for (const auto& files : range_files_) {
      for (const auto& f : files) unlink(f.path.c_str());
    }
    range_files_.clear();
    if (!published_) {
      for (const auto& f : summary_->files) unlink(f.c_str());
      summary_->files.clear();
    }
  }

  const LoadOptions& o_;
  LoadSummary* summary_;
  Progress progress_;
  ProgressPrinter printer_;
  ColumnFamilyOptions cf_options_;
  std::string tmp_dir_;
  Catalog catalog_;
  std::unique_ptr<SortBuffer> buffers_[2];
  const SortBuffer* resident_ = nullptr;
  std::vector<std::unique_ptr<RunInfo>> runs_;
  std::thread spiller_;
  Status spill_status_;
  std::vector<std::string> sample_;
  std::vector<std::vector<BuiltFile>> range_files_;
  bool published_ = false;
};

}  // namespace

Status Load(const LoadOptions& options, LoadSummary* summary) {
  *summary = LoadSummary();
  Loader loader(options, summary);
  return loader.Run();
}

}  // namespace rh_load
