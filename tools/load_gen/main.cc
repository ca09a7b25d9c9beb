// rh_load_gen: writes benchmark input for rh_load to standard output in its
// binary format (fixed32 key length, fixed32 value length, key, value; all
// little-endian): N distinct keys of a shape (keys.h) in a scrambled order,
// as a dump of an unsorted source gives them, or sorted. The same arguments
// give the same bytes.
//
//   rh_load_gen --shape=cuckoo --num=100000000 | rh_load --input=- --input_format=binary ...
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tools/load_gen/keys.h"

namespace {

void Put32(char* p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = char(v >> (8 * i));
}

int Usage() {
  fprintf(stderr, "usage: rh_load_gen --shape=cuckoo|sparkey|compound --num=N [--seed=S] [--sorted]\n");
  return 64;
}

}  // namespace

int main(int argc, char** argv) {
  rh_bench::Shape shape = rh_bench::Shape::kCuckoo;
  uint64_t num = 1000000, seed = 0;
  bool sorted = false;
  for (int i = 1; i < argc; i++) {
    const std::string a = argv[i];
    if (a.rfind("--shape=", 0) == 0) {
      if (!rh_bench::ParseShape(a.substr(8), &shape)) return Usage();
    } else if (a.rfind("--num=", 0) == 0) {
      num = strtoull(a.c_str() + 6, nullptr, 10);
    } else if (a.rfind("--seed=", 0) == 0) {
      seed = strtoull(a.c_str() + 7, nullptr, 10);
    } else if (a == "--sorted") {
      sorted = true;
    } else {
      return Usage();
    }
  }
  static char out[1 << 20];
  size_t used = 0;
  char rec[8 + 32 + 100];
  for (uint64_t i = 0; i < num; i++) {
    const uint64_t id = rh_bench::EntryId(i, seed, sorted);
    const size_t klen = rh_bench::MakeKey(shape, id, rec + 8);
    const size_t vlen = rh_bench::MakeValue(shape, i, id, rec + 8 + klen);
    Put32(rec, uint32_t(klen));
    Put32(rec + 4, uint32_t(vlen));
    const size_t n = 8 + klen + vlen;
    if (used + n > sizeof(out)) {
      if (fwrite(out, 1, used, stdout) != used) return 1;
      used = 0;
    }
    memcpy(out + used, rec, n);
    used += n;
  }
  return fwrite(out, 1, used, stdout) == used ? 0 : 1;
}
