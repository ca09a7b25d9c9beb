// rh_inspect: a command-line inspector for RobinHoodTable SST files, in the
// spirit of RocksDB's sst_dump and Sparkey's CLI.
//
//   rh_inspect info   FILE              what the file is: sizes, counts,
//                                       options recorded, all properties
//   rh_inspect stats  FILE              hash index quality: load factor,
//                                       displacement histogram, probe lengths,
//                                       bytes per entry by part
//   rh_inspect get    FILE KEY          the newest entry and every version
//   rh_inspect scan   FILE [FROM [TO]]  entries in order, FROM <= key < TO
//   rh_inspect verify FILE|DIR          every checksum, a full scan, and
//                                       every key looked up in the index;
//                                       a directory: each *.sst in it,
//                                       several at once
//
// Options (anywhere on the line; "--" ends them):
//   --json       machine-readable output (printer.h says how bytes show)
//   --hex        KEY, FROM and TO are hex; keys and values print as hex
//   --limit N    scan: at most N entries
//   --samples N  stats: random misses probed (default 100000, 0: none)
//   --threads N  verify DIR: files verified at once (default: one a core)
//
// Exit status: 0 OK; 1 get: the key is not in the file; 2 the file is
// missing, not a RobinHoodTable file, or damaged (a message naming the file
// on stderr); 64 usage error (EX_USAGE), with the usage text.
//
// The file is opened with the project's RobinHoodTableReader, which checks
// the footer, the meta block and every section's checksum on open; log
// blocks are checked as they are read. Nothing here writes to the file.
//
// Each command is a file of its own here (info.cc, ...), describing its
// output once to a Printer (printer.h); table_file.h is the only way to
// the reader.
#include <cstdio>
#include <string>

#include "tools/inspect/command.h"
#include "tools/inspect/errors.h"
#include "tools/inspect/table_file.h"

int main(int argc, char** argv) {
  using namespace rh_inspect;
  Args a;
  const std::string err = ParseArgs(argc, argv, &a);
  if (err == "help") {
    fputs(kUsage, stdout);
    return kExitOk;
  }
  if (!err.empty()) {
    fprintf(stderr, "rh_inspect: %s\n%s", err.c_str(), kUsage);
    return kExitUsage;
  }
  if (a.command == "verify" && IsDirectory(a.file)) return VerifyDirectory(a);
  TableFile t;
  const std::string problem = t.Open(a.file);
  if (!problem.empty()) return ReportFailure(a, problem, kExitBadFile);
  if (a.command == "info") return Info(a, t);
  if (a.command == "stats") return Stats(a, t);
  if (a.command == "get") return Get(a, t);
  if (a.command == "scan") return Scan(a, t);
  return Verify(a, t);
}
