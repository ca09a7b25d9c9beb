#include "db_bench_ext/workload.h"

#include <algorithm>
#include <cstring>

namespace db_bench_ext {

bool MakeWorkload(const std::string& name, int key_size_override,
                  int value_size_override, Workload* w) {
  const std::vector<std::string> all_reads = {
      "fill", "ingest", "readrandom", "multireadrandom", "readmissing",
      "seekrandom"};
  w->name = name;
  if (name == "cuckoo") {
    w->key_size = 8;
    w->value_size = 4;
    w->default_phases = all_reads;
    w->description = "CuckooTable paper: 8-byte keys, 4-byte values, mmap";
  } else if (name == "sparkey") {
    w->key_size = 0;
    w->min_key = 8;
    w->max_key = 32;
    w->value_size = 100;
    w->default_phases = all_reads;
    w->description = "Sparkey-like: keys of 8..32 bytes, 100-byte values";
  } else if (name == "decimal") {
    w->key_size = 20;
    w->value_size = 4;
    w->decimal_keys = true;
    w->default_phases = all_reads;
    w->description =
        "text keys: 20 zero-padded decimal digits, 4-byte values";
  } else if (name == "compound") {
    w->key_size = 27;
    w->value_size = 4;
    w->compound_keys = true;
    w->default_phases = all_reads;
    w->description =
        "compound text keys: tNN/user and a 19-digit id, 16 tenants, "
        "4-byte values";
  } else if (name == "misses") {
    w->key_size = 8;
    w->value_size = 4;
    w->default_phases = {"fill", "readmissing"};
    w->description =
        "lookups of absent keys in cuckoo-shaped data (8-byte keys, "
        "4-byte values)";
  } else {
    return false;
  }
  const int key_size =
      std::max(w->compound_keys ? 27 : w->decimal_keys ? 20 : 8,
               std::min(key_size_override, int(Workload::kMaxKeySize)));
  if (key_size_override > 0 && key_size != w->key_size) {
    w->key_size = key_size;
    w->description +=
        ", run with " + std::to_string(key_size) + "-byte keys";
  }
  if (value_size_override >= 0 && value_size_override != w->value_size) {
    w->value_size = value_size_override;
    w->description +=
        ", run with " + std::to_string(value_size_override) + "-byte values";
  }
  w->mmap_read = true;
  return true;
}

static inline void PutBigEndian64(char* p, uint64_t v) {
  for (int i = 7; i >= 0; i--) {
    p[i] = char(v & 0xff);
    v >>= 8;
  }
}

rocksdb::Slice KeySpace::Key(uint64_t h, char* buf) const {
  int head = 8;
  if (w_.decimal_keys) {
    uint64_t v = h;
    for (int i = 19; i >= 0; --i, v /= 10) buf[i] = char('0' + v % 10);
    head = 20;
  } else if (w_.compound_keys) {
    // h's top 4 bits name the tenant, the other 60 its id, in decimal.
    buf[0] = 't';
    buf[1] = char('0' + (h >> 60) / 10);
    buf[2] = char('0' + (h >> 60) % 10);
    memcpy(buf + 3, "/user", 5);
    uint64_t v = h & ((uint64_t{1} << 60) - 1);
    for (int i = 26; i >= 8; --i, v /= 10) buf[i] = char('0' + v % 10);
    head = 27;
  } else {
    PutBigEndian64(buf, h);
  }
  int len = w_.key_size;
  uint64_t r = Mix(h ^ 0x5bd1e995ULL);
  if (len == 0) {
    len = w_.min_key + int(r % uint64_t(w_.max_key - w_.min_key + 1));
  }
  // Filler bytes past the first 8 (or 20), from a stream seeded by h.
  for (int i = head; i < len; i += 8) {
    r = Mix(r);
    char tmp[8];
    memcpy(tmp, &r, 8);
    memcpy(buf + i, tmp, std::min(8, len - i));
  }
  return rocksdb::Slice(buf, size_t(len));
}

rocksdb::Slice KeySpace::Value(uint64_t h, char* buf) const {
  uint64_t r = h * 0x2545f4914f6cdd1dULL + 1;
  const int n = w_.value_size;
  const int random = std::max(
      1, std::min(n, static_cast<int>(n * w_.compression_ratio + 0.5)));
  for (int i = 0; i < random; i += 8) {
    r ^= r >> 12;
    r ^= r << 25;
    r ^= r >> 27;
    memcpy(buf + i, &r, std::min(8, random - i));
  }
  for (int i = random; i < n; ++i) buf[i] = buf[i - random];
  return rocksdb::Slice(buf, size_t(n));
}

std::vector<uint64_t> KeySpace::SortedHashes() const {
  std::vector<uint64_t> h(num_);
  for (uint64_t i = 0; i < num_; i++) h[i] = HashOf(i);
  std::sort(h.begin(), h.end());
  return h;
}

}  // namespace db_bench_ext
