// The share of a file's point lookups that its filter rules out, as a
// moving average over a sample of them, so that a lookup can order its
// reads for the answer it most likely gets. Where the home takes a search
// (the paged layout's page index), a lookup that asks for the home's
// lines before the filter's answer finds its entry sooner when the key is
// there, and when it is not has asked for a page it never reads (in a
// file of a gigabyte, a page walk and two lines from memory): on 10M keys
// of 100-byte values, hits took 4% to 11% longer asking after the answer
// and misses 14% to 23% less. The two orders cost about the same at one
// miss in four. The search itself, done while the filter's line comes,
// is wasted on a miss too (in a 3.5 MB page index, lines from memory):
// waiting with it for the yes, 10M keys of 100-byte values took misses
// 4% to 16% less and hits in a file of half misses 8% to 15% more, about
// even at seven misses in ten, so a lookup waits with it past three in
// four. On a mapped file in memory the same share decides whether
// lookups skip the filter (RobinHoodTableReader::SkipsFilter).
//
// Without locks: concurrent lookups may lose one another's updates, which
// only slows the average. One key in eight (by hash bits) updates it, and
// only when it moves, so lookups on several cores seldom write its line,
// which holds nothing else.
//
// The moving share itself (SampledShare) serves residency.h too.
#pragma once

#include <atomic>
#include <cstdint>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

// The moving share of sampled lookups for which something was true: one
// key in 2^kSampleBits, by the top bits of its hash, counts.
template <int kSampleBits>
class SampledShare {
 public:
  static bool Sampled(uint64_t hash) {
    return (hash >> (64 - kSampleBits)) == 0;
  }
  // A lookup of a key of hash `hash` for which it was (`yes`) or was not.
  void Note(bool yes, uint64_t hash) {
    if (!Sampled(hash)) return;
    const uint32_t s = share_.load(std::memory_order_relaxed);
    const uint32_t next =
        yes ? s + ((kOne - s) >> kShift) : s - (s >> kShift);
    // Where it is always or never true it stays put: no write at all.
    if (next != s) share_.store(next, std::memory_order_relaxed);
  }
  // Whether it was true for more than one in `n` of the sampled lookups
  // lately. False until lookups say otherwise.
  bool MoreThanOneIn(uint32_t n) const { return MoreThan(1, n); }
  // Whether it was true for more than `k` in `n` of them lately.
  bool MoreThan(uint32_t k, uint32_t n) const {
    return share_.load(std::memory_order_relaxed) > kOne / n * k;
  }

 private:
  static constexpr uint32_t kOne = 1u << 16;
  static constexpr int kShift = 4;  // each sample weighs 1/16
  // A line of its own (the alignment rounds the class up to one).
  alignas(64) std::atomic<uint32_t> share_{0};
};

// Misses: one key in eight samples, and a reader orders its reads for a
// miss past one lookup in four, and its search too past three in four.
class MissShare {
 public:
  // A lookup of a key of hash `hash` that the filter ruled out (`miss`)
  // or let through.
  void Note(bool miss, uint64_t hash) { share_.Note(miss, hash); }
  bool MostlyMisses() const { return share_.MoreThanOneIn(4); }
  bool NearlyAllMiss() const { return share_.MoreThan(3, 4); }

 private:
  SampledShare<3> share_;
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
