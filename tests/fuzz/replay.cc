// Runs fuzz inputs once each, without libFuzzer: so that the regression
// inputs are replayed by builds that are not clang fuzz builds (the gcc
// sanitizer build). Files are read in the raw and the crafted mode; with
// --edits, as the edits fuzzer's inputs (edits.h). A crash is the failure;
// exit 0 otherwise.
//
//   rh_fuzz_replay [--edits] FILE|DIR...   (a directory: every file in it
//                                           but *.md, dotfiles and
//                                           directories)
#include <dirent.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tests/fuzz/harness.h"

namespace {

bool IsDirectory(const std::string& path) {
  DIR* d = opendir(path.c_str());
  if (d == nullptr) return false;
  closedir(d);
  return true;
}

std::vector<std::string> FilesIn(const std::string& dir) {
  std::vector<std::string> out;
  DIR* d = opendir(dir.c_str());
  while (dirent* e = d != nullptr ? readdir(d) : nullptr) {
    const std::string name = e->d_name;
    if (name.empty() || name[0] == '.' ||
        (name.size() >= 3 && name.compare(name.size() - 3, 3, ".md") == 0) ||
        IsDirectory(dir + "/" + name)) {
      continue;
    }
    out.push_back(dir + "/" + name);
  }
  if (d != nullptr) closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> inputs;
  bool edits = false;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--edits") {
      edits = true;
    } else if (IsDirectory(argv[i])) {
      for (const std::string& f : FilesIn(argv[i])) inputs.push_back(f);
    } else {
      inputs.push_back(argv[i]);
    }
  }
  for (const std::string& path : inputs) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      fprintf(stderr, "rh_fuzz_replay: cannot read %s\n", path.c_str());
      return 2;
    }
    const std::string bytes((std::istreambuf_iterator<char>(in)),
                            std::istreambuf_iterator<char>());
    std::vector<rh_fuzz::Mode> modes = {rh_fuzz::Mode::kRaw,
                                        rh_fuzz::Mode::kCrafted};
    if (edits) modes = {rh_fuzz::Mode::kEdits};
    for (auto mode : modes) {
      fprintf(stderr, "rh_fuzz_replay: %s (%s)\n", path.c_str(),
              mode == rh_fuzz::Mode::kRaw       ? "raw"
              : mode == rh_fuzz::Mode::kCrafted ? "crafted"
                                                : "edits");
      rh_fuzz::RunInput(reinterpret_cast<const uint8_t*>(bytes.data()),
                        bytes.size(), mode);
    }
  }
  fprintf(stderr, "rh_fuzz_replay: %zu inputs, no crash\n", inputs.size());
  return 0;
}
