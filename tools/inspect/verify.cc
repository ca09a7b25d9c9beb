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
  uint64_t ranges = 1;  // key ranges checked side by side
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

// One key range of a file's entries, [lo, hi) by user key (null: the
// file's end), checked on its own thread.
struct RangeCheck {
  const std::string* lo = nullptr;
  const std::string* hi = nullptr;
  VerifyResult result;
  std::string first, last;  // internal keys of its first and last entries
  bool out_of_order = false;  // at its entry result.entries
  Status status;
  std::string error;  // Describe's, taken on the range's thread
};

void CheckRange(const std::string& file, const TableFile& t,
                std::atomic<uint64_t>* done, ScanProgress* progress,
                RangeCheck* c) {
  VerifyResult* r = &c->result;
  auto check = [&]() -> Status {
    std::unique_ptr<InternalIterator> it = t.NewIterator();
    if (c->lo != nullptr) {
      it->Seek(InternalKey(*c->lo, kMaxSequenceNumber, kValueTypeForSeek)
                   .Encode());
    } else {
      it->SeekToFirst();
    }
    std::string& prev = c->last;
    for (; it->Valid(); it->Next()) {
      const Slice ikey = it->key();
      // The key's fields in place: a scan of millions of entries copies
      // only the key it compares the next one with.
      ParsedInternalKey e;
      if (!ParseInternalKey(ikey, &e, false).ok()) {
        return Status::Corruption("bad internal key in the log");
      }
      if (c->hi != nullptr &&
          t.user_comparator()->Compare(e.user_key, *c->hi) >= 0) {
        break;
      }
      if (r->entries > 0 && t.icmp().Compare(prev, ikey) >= 0) {
        // Named by its place in the whole file, once the ranges before
        // have been counted.
        c->out_of_order = true;
        return Status::Corruption("out of order");
      }
      const bool new_key =
          r->entries == 0 ||
          t.user_comparator()->Compare(ExtractUserKey(prev), e.user_key) != 0;
      if (new_key) {
        ++r->keys;
        Newest found;
        Status s = t.FindNewest(e.user_key, &found);
        if (!s.ok()) return s;
        if (!found.found || found.seq != e.sequence || found.type != e.type) {
          return Status::Corruption("hash index: key " + Escaped(e.user_key) +
                                    " not found at its newest entry");
        }
      }
      if (r->entries == 0) c->first.assign(ikey.data(), ikey.size());
      prev.assign(ikey.data(), ikey.size());
      if ((++r->entries & 0xfff) == 0) {
        const uint64_t all = done->fetch_add(0x1000) + 0x1000;
        if (progress != nullptr) progress->Update(all);
      }
    }
    return it->status();
  };
  c->status = check();
  if (!c->status.ok()) c->error = Describe(file, c->status);
}

// What RunVerify said of a file: Describe's message, taken on the thread
// that found what was wrong (a corruption's fields are that thread's).
struct Verdict {
  Status status;
  std::string error;  // empty if OK
  VerifyResult result;
};

// Every checksum, then the entries in key ranges side by side, `parts` of
// them (a thread each), as one scan would see them: each range in order
// and after the one before, every key found, the counts the meta block's.
Verdict RunVerdict(const std::string& file, const TableFile& t,
                   bool progress_line, size_t parts) {
  Verdict v;
  auto fail = [&](const Status& s) {
    v.status = s;
    v.error = Describe(file, s);
    return v;
  };
  Status s = t.VerifyChecksums();
  if (!s.ok()) return fail(s);
  const std::vector<std::string> splits = t.SplitKeys(parts);
  std::vector<RangeCheck> ranges(splits.size() + 1);
  for (size_t i = 0; i < ranges.size(); ++i) {
    ranges[i].lo = i > 0 ? &splits[i - 1] : nullptr;
    ranges[i].hi = i < splits.size() ? &splits[i] : nullptr;
  }
  const TableMeta& m = t.meta();
  v.result.ranges = ranges.size();
  ScanProgress progress(file, m.num_entries, progress_line);
  std::atomic<uint64_t> done{0};
  // The index's statistics (every slot within reach of its home) take the
  // last range's thread after its scan; reported after the scan's verdict.
  Status stats;
  std::string stats_error;
  auto index_stats = [&] {
    IndexStats st;
    stats = ComputeIndexStats(t, 0, &st);
    if (!stats.ok()) stats_error = Describe(file, stats);
  };
  std::vector<std::thread> threads;
  for (size_t i = 1; i < ranges.size(); ++i) {
    threads.emplace_back([&, i] {
      CheckRange(file, t, &done, nullptr, &ranges[i]);
      if (i + 1 == ranges.size()) index_stats();
    });
  }
  CheckRange(file, t, &done, &progress, &ranges[0]);
  if (ranges.size() == 1) index_stats();
  for (auto& th : threads) th.join();
  VerifyResult& r = v.result;
  const std::string* last = nullptr;  // the last entry of the ranges so far
  for (size_t i = 0; i < ranges.size(); ++i) {
    const RangeCheck& c = ranges[i];
    auto out_of_order = [&](uint64_t entry) {
      return fail(Status::Corruption("log: entry " + std::to_string(entry) +
                                     " out of order"));
    };
    if (last != nullptr && c.result.entries > 0 &&
        t.icmp().Compare(*last, c.first) >= 0) {
      return out_of_order(r.entries);
    }
    if (c.out_of_order) return out_of_order(r.entries + c.result.entries);
    if (!c.status.ok()) {
      v.status = c.status;
      v.error = c.error;
      return v;
    }
    r.entries += c.result.entries;
    r.keys += c.result.keys;
    if (c.result.entries > 0) last = &c.last;
  }
  if (r.entries != m.num_entries) {
    return fail(Status::Corruption("log: " + std::to_string(r.entries) +
                                   " entries, meta says " +
                                   std::to_string(m.num_entries)));
  }
  if (r.keys != m.num_keys) {
    return fail(Status::Corruption("log: " + std::to_string(r.keys) +
                                   " distinct keys, meta says " +
                                   std::to_string(m.num_keys)));
  }
  if (!stats.ok()) {
    v.status = stats;
    v.error = stats_error;
  }
  return v;
}

int Report(const Args& a, const TableFile& t, const Verdict& v);

}  // namespace

int Verify(const Args& a, const TableFile& t) {
  const size_t parts =
      a.threads > 0 ? a.threads
                    : std::max(1u, std::thread::hardware_concurrency());
  return Report(a, t, RunVerdict(a.file, t, true, parts));
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
  out.Field("key_ranges", Uint(r.ranges));
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
  const size_t parallel =
      a.threads > 0 ? a.threads
                    : std::max(1u, std::thread::hardware_concurrency());
  const size_t threads = std::min<size_t>(files.size(), parallel);
  std::mutex mu;
  std::condition_variable finished;
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next.fetch_add(1)) < work.size();) {
      DirectoryFile& f = work[i];
      std::unique_ptr<TableFile> t(new TableFile);
      std::string problem = t->Open(f.args.file);
      Verdict v;
      // Files side by side take the threads; one file at a time splits.
      if (problem.empty()) {
        v = RunVerdict(f.args.file, *t, threads == 1,
                       threads == 1 ? parallel : 1);
      }
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
