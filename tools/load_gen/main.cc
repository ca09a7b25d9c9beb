// rh_load_gen: writes benchmark input for rh_load to standard output in its
// binary format (fixed32 key length, fixed32 value length, key, value; all
// little-endian), N distinct keys in a scrambled order, as a dump of an
// unsorted source would give them. Shapes:
//   cuckoo   8-byte keys, 4-byte values (db_bench's CuckooTable setup)
//   sparkey  16..32-byte keys, 100-byte values (Sparkey's benchmark)
// The same arguments give the same bytes.
//
//   rh_load_gen --shape=cuckoo --num=100000000 | rh_load --input=- --input_format=binary ...
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

// A bijection on 64-bit integers (the SplitMix64 finalizer), so distinct
// indexes give distinct keys in an order unrelated to the index.
uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

void Put32(char* p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = char(v >> (8 * i));
}

int Usage() {
  fprintf(stderr, "usage: rh_load_gen --shape=cuckoo|sparkey --num=N [--seed=S] [--sorted]\n");
  return 64;
}

}  // namespace

int main(int argc, char** argv) {
  std::string shape = "cuckoo";
  uint64_t num = 1000000, seed = 0;
  bool sorted = false;
  for (int i = 1; i < argc; i++) {
    const std::string a = argv[i];
    if (a.rfind("--shape=", 0) == 0) shape = a.substr(8);
    else if (a.rfind("--num=", 0) == 0) num = strtoull(a.c_str() + 6, nullptr, 10);
    else if (a.rfind("--seed=", 0) == 0) seed = strtoull(a.c_str() + 7, nullptr, 10);
    else if (a == "--sorted") sorted = true;
    else return Usage();
  }
  if (shape != "cuckoo" && shape != "sparkey") return Usage();
  const bool cuckoo = shape == "cuckoo";
  static char out[1 << 20];
  size_t used = 0;
  char rec[8 + 32 + 100];
  for (uint64_t i = 0; i < num; i++) {
    // Sorted: the key of index i is i itself (big-endian, or as hex).
    const uint64_t id = sorted ? i : Mix(i ^ Mix(seed));
    size_t klen, vlen;
    if (cuckoo) {
      klen = 8;
      vlen = 4;
      for (int b = 0; b < 8; b++) rec[8 + b] = char(id >> (56 - 8 * b));
      Put32(rec + 16, uint32_t(i));
    } else {
      klen = 16 + Mix(id) % 17;
      vlen = 100;
      snprintf(rec + 8, 17, "%016" PRIx64, id);
      memset(rec + 8 + 16, 'k', klen - 16);
      char* v = rec + 8 + klen;
      for (size_t b = 0; b < vlen; b += 8) {
        const uint64_t w = Mix(id + b);
        memcpy(v + b, &w, vlen - b < 8 ? vlen - b : 8);
      }
    }
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
