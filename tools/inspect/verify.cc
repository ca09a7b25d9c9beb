// verify: every checksum, the log in order with every entry decoding, each
// distinct key found through the hash index at its newest entry, and the
// index holding exactly those keys, each within reach of its home.
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tools/inspect/command.h"
#include "tools/inspect/errors.h"
#include "tools/inspect/index_stats.h"
#include "tools/inspect/printer.h"
#include "tools/inspect/table_file.h"
#include "tools/inspect/text_format.h"

namespace rh_inspect {

using namespace ROCKSDB_NAMESPACE;

namespace {

struct VerifyResult {
  uint64_t entries = 0;
  uint64_t keys = 0;
};

// On a terminal, a line on stderr rewritten as the scan goes: a file of
// hundreds of millions of entries takes minutes. Off where files are
// verified side by side (their lines would overwrite each other).
class ScanProgress {
 public:
  ScanProgress(const std::string& file, uint64_t total, bool on)
      : file_(file), total_(total), on_(on && isatty(2) != 0) {}
  ~ScanProgress() {
    if (shown_) fprintf(stderr, "\r\033[K");
  }
  void Update(uint64_t done) {
    if (!on_ || (done & 0xfffff) != 0 || total_ == 0) return;
    fprintf(stderr, "\r\033[Kverify %s: %" PRIu64 "%% of %" PRIu64 " entries",
            file_.c_str(), done * 100 / total_, total_);
    shown_ = true;
  }

 private:
  const std::string file_;
  const uint64_t total_;
  const bool on_;
  bool shown_ = false;
};

Status RunVerify(const std::string& file, const TableFile& t, VerifyResult* r,
                 bool progress_line = true) {
  Status s = t.VerifyChecksums();
  if (!s.ok()) return s;
  std::unique_ptr<InternalIterator> it = t.NewIterator();
  const TableMeta& m = t.meta();
  ScanProgress progress(file, m.num_entries, progress_line);
  std::string prev;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    progress.Update(r->entries);
    const Slice ikey = it->key();
    // The key's fields in place: a scan of millions of entries copies only
    // the key it compares the next one with.
    ParsedInternalKey e;
    if (!ParseInternalKey(ikey, &e, false).ok()) {
      return Status::Corruption("bad internal key in the log");
    }
    if (r->entries > 0 && t.icmp().Compare(prev, ikey) >= 0) {
      return Status::Corruption("log: entry " + std::to_string(r->entries) +
                                " out of order");
    }
    const bool new_key =
        r->entries == 0 ||
        t.user_comparator()->Compare(ExtractUserKey(prev), e.user_key) != 0;
    if (new_key) {
      ++r->keys;
      Newest found;
      s = t.FindNewest(e.user_key, &found);
      if (!s.ok()) return s;
      if (!found.found || found.seq != e.sequence || found.type != e.type) {
        return Status::Corruption("hash index: key " + Escaped(e.user_key) +
                                  " not found at its newest entry");
      }
    }
    prev.assign(ikey.data(), ikey.size());
    ++r->entries;
  }
  s = it->status();
  if (!s.ok()) return s;
  if (r->entries != m.num_entries) {
    return Status::Corruption("log: " + std::to_string(r->entries) +
                              " entries, meta says " +
                              std::to_string(m.num_entries));
  }
  if (r->keys != m.num_keys) {
    return Status::Corruption("log: " + std::to_string(r->keys) +
                              " distinct keys, meta says " +
                              std::to_string(m.num_keys));
  }
  IndexStats st;
  return ComputeIndexStats(t, 0, &st);
}

// What RunVerify said of a file: Describe's message, taken on the thread
// that ran it (a corruption's fields are that thread's).
struct Verdict {
  Status status;
  std::string error;  // empty if OK
  VerifyResult result;
};

Verdict RunVerdict(const std::string& file, const TableFile& t,
                   bool progress_line) {
  Verdict v;
  v.status = RunVerify(file, t, &v.result, progress_line);
  if (!v.status.ok()) v.error = Describe(file, v.status);
  return v;
}

int Report(const Args& a, const TableFile& t, const Verdict& v);

}  // namespace

int Verify(const Args& a, const TableFile& t) {
  return Report(a, t, RunVerdict(a.file, t, true));
}

namespace {

int Report(const Args& a, const TableFile& t, const Verdict& v) {
  const Status& s = v.status;
  const VerifyResult& r = v.result;
  const std::string& error = v.error;
  const size_t blocks = t.blocks().num_blocks();

  Printer out(a);
  out.Field("file", Str(a.file));
  out.Field("ok", Bool(s.ok()),
            s.ok() ? Line(Format("OK: %s: %" PRIu64 " entries, %" PRIu64
                                 " distinct keys",
                                 Escaped(a.file).c_str(), r.entries, r.keys))
                   : TextForm());
  out.Field("error", s.ok() ? Null() : Str(error),
            s.ok() ? TextForm() : Line(error));
  out.Field("entries", Uint(r.entries));
  out.Field("distinct_keys", Uint(r.keys));
  out.Field("blocks", Uint(blocks));
  const bool in = t.inline_table() != nullptr;
  const bool paged = t.paged() != nullptr;
  const char* tail =
      ROCKSDB_NAMESPACE::robinhood::HasFilterSection(t.meta().format_version)
                         ? "sparse index, range deletions, filter, properties, "
                           "metaindex, meta block, footer"
                         : "sparse index, range deletions, properties, "
                           "metaindex, meta block, footer";
  out.BeginArray(
      "checksums",
      !s.ok() ? TextForm()
      : paged ? Line(Format("checksums match: %" PRIu64
                            " pages, page index, %s",
                            t.paged()->pages(), tail))
      : in    ? Line(Format("checksums match: %" PRIu64
                            " pages of inline slots, inline directory, %s",
                            t.inline_table()->num_pages(), tail))
              : Line(Format("checksums match: %zu log blocks, hash "
                            "index, block table, %s",
                            blocks, tail)));
  if (s.ok()) {
    for (const Section& sec : t.Sections()) out.Item(Str(sec.name));
  }
  out.End();
  if (s.ok()) {
    out.TextOnly(Line(
        paged ? "the entries are in order, and every key is found in its "
                "page through the page index"
        : in  ? "the entries are in order, and every key is found in its slot"
              : "the log is in order, and every key is found through "
                "the hash index at its newest entry"));
  }
  out.Finish();
  if (!s.ok()) {
    ReportError(a, error);
    return kExitBadFile;
  }
  return kExitOk;
}

// A file of a directory: opened and verified by a worker, reported by the
// main thread in name order, then closed.
struct DirectoryFile {
  Args args;
  std::unique_ptr<TableFile> table;
  std::string problem;  // the file does not open
  Verdict verdict;
  bool done = false;
};

}  // namespace

bool IsDirectory(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

int VerifyDirectory(const Args& a) {
  std::vector<std::string> files;
  if (DIR* d = opendir(a.file.c_str())) {
    while (dirent* e = readdir(d)) {
      const std::string name = e->d_name;
      if (name.size() > 4 && name.compare(name.size() - 4, 4, ".sst") == 0) {
        files.push_back(name);
      }
    }
    closedir(d);
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    return ReportFailure(a, "a directory without *.sst files", kExitBadFile);
  }
  std::vector<DirectoryFile> work(files.size());
  for (size_t i = 0; i < files.size(); ++i) {
    work[i].args = a;
    work[i].args.file = a.file + (a.file.back() == '/' ? "" : "/") + files[i];
  }
  const size_t threads = std::min<size_t>(
      files.size(), a.threads > 0 ? a.threads
                                  : std::max(1u, std::thread::hardware_concurrency()));
  std::mutex mu;
  std::condition_variable finished;
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next.fetch_add(1)) < work.size();) {
      DirectoryFile& f = work[i];
      std::unique_ptr<TableFile> t(new TableFile);
      std::string problem = t->Open(f.args.file);
      Verdict v;
      if (problem.empty()) v = RunVerdict(f.args.file, *t, threads == 1);
      std::lock_guard<std::mutex> lock(mu);
      f.table = std::move(t);
      f.problem = std::move(problem);
      f.verdict = std::move(v);
      f.done = true;
      finished.notify_all();
    }
  };
  std::vector<std::thread> pool;
  for (size_t i = 0; i < threads; ++i) pool.emplace_back(worker);
  int worst = kExitOk;
  for (DirectoryFile& f : work) {
    {
      std::unique_lock<std::mutex> lock(mu);
      finished.wait(lock, [&] { return f.done; });
    }
    const int rc = f.problem.empty()
                       ? Report(f.args, *f.table, f.verdict)
                       : ReportFailure(f.args, f.problem, kExitBadFile);
    f.table.reset();  // its memory, before the files still to come
    worst = std::max(worst, rc);
  }
  for (auto& th : pool) th.join();
  return worst;
}

}  // namespace rh_inspect
