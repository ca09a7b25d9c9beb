// verify: every checksum, the log in order with every entry decoding, each
// distinct key found through the hash index at its newest entry, and the
// index holding exactly those keys, each within reach of its home.
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <string>

#include "tools/inspect/command.h"
#include "tools/inspect/entry.h"
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
// hundreds of millions of entries takes minutes.
class ScanProgress {
 public:
  ScanProgress(const std::string& file, uint64_t total)
      : file_(file), total_(total), on_(isatty(2) != 0) {}
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

Status RunVerify(const std::string& file, const TableFile& t, VerifyResult* r) {
  Status s = t.VerifyChecksums();
  if (!s.ok()) return s;
  std::unique_ptr<InternalIterator> it = t.NewIterator();
  const TableMeta& m = t.meta();
  ScanProgress progress(file, m.num_entries);
  std::string prev;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    progress.Update(r->entries);
    const Slice ikey = it->key();
    Entry e;
    s = ReadEntry(*it, &e);
    if (!s.ok()) return s;
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
      if (!found.found || found.seq != e.seq || found.type != e.type) {
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

}  // namespace

int Verify(const Args& a, const TableFile& t) {
  VerifyResult r;
  const Status s = RunVerify(a.file, t, &r);
  const std::string error = s.ok() ? std::string() : Describe(a.file, s);
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
  int worst = kExitOk;
  for (const auto& name : files) {
    Args one = a;
    one.file = a.file + (a.file.back() == '/' ? "" : "/") + name;
    TableFile t;
    const std::string problem = t.Open(one.file);
    const int rc = problem.empty() ? Verify(one, t) : ReportFailure(one, problem, kExitBadFile);
    worst = std::max(worst, rc);
  }
  return worst;
}

}  // namespace rh_inspect
