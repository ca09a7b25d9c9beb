#include "tools/inspect/command.h"
#include "tools/inspect/text_format.h"

namespace rh_inspect {

const char kUsage[] =
    "usage: rh_inspect COMMAND FILE [ARGS] [--json] [--hex] [--limit N]\n"
    "  info   FILE              format, counts, sizes, options, properties\n"
    "  stats  FILE              load factor, displacement histogram, probe\n"
    "                           lengths, bytes per entry   [--samples N]\n"
    "  get    FILE KEY          newest entry and all versions of KEY\n"
    "  scan   FILE [FROM [TO]]  entries with FROM <= user key < TO [--limit "
    "N]\n"
    "  verify FILE|DIR          all checksums, a full scan, the hash index\n"
    "                           (DIR: every *.sst file in it; --threads N\n"
    "                           files at once, or a lone file's scan in N\n"
    "                           key ranges; default one a core)\n"
    "  --json  JSON output; --hex  KEY/FROM/TO in hex, bytes printed in hex\n"
    "exit status: 0 ok, 1 key not found (get), 2 not a RobinHoodTable file\n"
    "             or damaged, 64 usage error\n";

namespace {

bool ParseCount(const std::string& s, uint64_t* out) {
  // 19 digits always fit in 64 bits, so stoull cannot throw.
  if (s.empty() || s.size() > 19) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  *out = std::stoull(s);
  return true;
}

}  // namespace

std::string ParseArgs(int argc, char** argv, Args* a) {
  std::vector<std::string> positional;
  bool options_done = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (options_done || arg.size() < 2 || arg.compare(0, 2, "--") != 0) {
      positional.push_back(arg);
      continue;
    }
    std::string name = arg, value;
    const size_t eq = arg.find('=');
    const bool has_value = eq != std::string::npos;
    if (has_value) {
      name = arg.substr(0, eq);
      value = arg.substr(eq + 1);
    }
    auto take_value = [&]() -> bool {
      if (has_value) return true;
      if (i + 1 >= argc) return false;
      value = argv[++i];
      return true;
    };
    if (arg == "--") {
      options_done = true;
    } else if (name == "--json" && !has_value) {
      a->json = true;
    } else if (name == "--hex" && !has_value) {
      a->hex = true;
    } else if (name == "--limit") {
      if (!take_value() || !ParseCount(value, &a->limit)) {
        return "--limit needs a count";
      }
    } else if (name == "--samples") {
      if (!take_value() || !ParseCount(value, &a->samples)) {
        return "--samples needs a count";
      }
    } else if (name == "--threads") {
      if (!take_value() || !ParseCount(value, &a->threads) ||
          a->threads == 0 || a->threads > 1024) {
        return "--threads needs a count from 1 to 1024";
      }
    } else if (name == "--help") {
      return "help";
    } else {
      return "unknown option " + arg;
    }
  }
  if (positional.empty()) return "no command";
  a->command = positional[0];
  size_t min_args = 1, max_args = 1;
  if (a->command == "get") {
    min_args = max_args = 2;
  } else if (a->command == "scan") {
    max_args = 3;
  } else if (a->command != "info" && a->command != "stats" &&
             a->command != "verify") {
    return "unknown command " + a->command;
  }
  const size_t n = positional.size() - 1;
  if (n < min_args || n > max_args) {
    return "wrong number of arguments for " + a->command;
  }
  a->file = positional[1];
  a->rest.assign(positional.begin() + 2, positional.end());
  if (a->hex) {
    for (auto& k : a->rest) {
      std::string bytes;
      if (!ParseHex(k, &bytes)) return "not a hex string: " + k;
      k = bytes;
    }
  }
  return "";
}

}  // namespace rh_inspect
