// What main hands a command: the parsed command line and the opened file;
// and what a command hands back: an exit status.
#pragma once

#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

namespace rh_inspect {

class TableFile;

// Like grep and sst_dump: 1 is a negative answer, not an error.
constexpr int kExitOk = 0;
constexpr int kExitNotFound = 1;
constexpr int kExitBadFile = 2;
constexpr int kExitUsage = 64;  // sysexits.h EX_USAGE

extern const char kUsage[];

struct Args {
  std::string command;
  std::string file;
  std::vector<std::string> rest;  // bytes: --hex already decoded
  bool json = false;
  bool hex = false;
  uint64_t limit = std::numeric_limits<uint64_t>::max();
  uint64_t samples = 100000;
  // verify DIR: files verified at once (0: one a core).
  uint64_t threads = 0;
  // Where the output goes: the Python binding points it at a memory
  // stream to hand `info --json` back as a dict.
  FILE* out = stdout;
};

// Returns an error message, "help" for --help, or "" if the arguments are
// good (the command known, its argument count right).
std::string ParseArgs(int argc, char** argv, Args* a);

int Info(const Args& a, const TableFile& t);
int Stats(const Args& a, const TableFile& t);
int Get(const Args& a, const TableFile& t);
int Scan(const Args& a, const TableFile& t);
int Verify(const Args& a, const TableFile& t);
// verify on every *.sst file of the directory a.file, a.threads files at
// a time, reported in name order: each file's report as for one file
// (JSON: the objects one after another, as jq reads them); the exit
// status is the worst of them.
int VerifyDirectory(const Args& a);
bool IsDirectory(const std::string& path);

}  // namespace rh_inspect
