// The self-checking data of stress_test.cc: how keys and values are made,
// and the history of every group of keys by sequence number, so a reader
// can compute exactly what a snapshot must show without stopping the
// writer.
//
// Keys come in groups ("g00042.k0" .. "g00042.k3") that every write changes
// as a whole and in one atomic step (one WriteBatch, one ingested file, one
// range tombstone), so all keys of a group always share one history. That
// history is written as a "canon": the operations since the group's last
// Put or deletion, e.g. "P17,M20,M31" (a Put at version 17 and two merges),
// or "" when the keys are absent. A key's value is rendered from its canon,
// and every part of it names the key and the version, so a value that
// belongs to another key or another version can never pass for the right
// one.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <shared_mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "rocksdb/types.h"

namespace ROCKSDB_NAMESPACE {
namespace stress {

constexpr int kKeysPerGroup = 4;

inline std::string GroupPrefix(int g) {
  char buf[16];
  snprintf(buf, sizeof(buf), "g%05d", g);
  return buf;
}

// Sorts after GroupPrefix(g) and before GroupPrefix(g + 1), so a prefix is
// a range bound that splits no group.
inline std::string GroupKey(int g, int k) {
  return GroupPrefix(g) + ".k" + std::to_string(k);
}

inline uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

inline uint64_t HashOf(const std::string& s) {
  uint64_t h = 0;
  for (unsigned char c : s) h = Mix(h ^ c);
  return h;
}

// Most values are short; one in ten is longer than the 512 bytes a point
// lookup without mmap reads first, so the reader's second read is used too.
inline std::string Padding(const std::string& key, uint64_t version) {
  uint64_t r = Mix(HashOf(key) ^ (version * 0x100000001b3ULL));
  const size_t len = r % 10 == 0 ? 600 + (r >> 8) % 900 : (r >> 8) % 120;
  std::string pad;
  pad.reserve(len);
  while (pad.size() < len) {
    r = Mix(r);
    for (int i = 0; i < 8 && pad.size() < len; i++) {
      pad.push_back(static_cast<char>('a' + ((r >> (8 * i)) & 0xff) % 26));
    }
  }
  return pad;
}

// One Put value or merge operand: "P17:g00042.k0:<padding>".
inline std::string Component(char type, uint64_t version,
                             const std::string& key) {
  return std::string(1, type) + std::to_string(version) + ":" + key + ":" +
         Padding(key, version);
}

inline std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t end = s.find(sep, start);
    parts.push_back(s.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return parts;
}

// The value `key` has under `canon` (merge operands joined by ',', as
// test_util::JoinMergeOperator does). REQUIRES: canon is not empty.
inline std::string Render(const std::string& key, const std::string& canon) {
  std::string out;
  for (const std::string& part : Split(canon, ',')) {
    if (!out.empty()) out.push_back(',');
    out += Component(part[0], std::stoull(part.substr(1)), key);
  }
  return out;
}

// The canon a value read for `key` claims; false (with a reason) when the
// value is not exactly what some canon renders for this key.
inline bool ParseCanon(const std::string& key, const std::string& value,
                       std::string* canon, std::string* why) {
  canon->clear();
  for (const std::string& part : Split(value, ',')) {
    const std::vector<std::string> f = Split(part, ':');
    if (f.size() != 3 || f[0].size() < 2 || (f[0][0] != 'P' && f[0][0] != 'M') ||
        f[0].find_first_not_of("0123456789", 1) != std::string::npos) {
      *why = "malformed part \"" + part.substr(0, 60) + "\"";
      return false;
    }
    if (f[1] != key) {
      *why = "part names key " + f[1];
      return false;
    }
    if (f[2] != Padding(key, std::stoull(f[0].substr(1)))) {
      *why = "padding of " + f[0] + " differs";
      return false;
    }
    if (f[0][0] == 'P' && !canon->empty()) {
      *why = "a Put value after a merge operand";
      return false;
    }
    if (!canon->empty()) canon->push_back(',');
    *canon += f[0];
  }
  return true;
}

// For every group, its canon after each write that changed it, by the
// sequence number that write made visible. The writer appends; readers
// look up the canon at a snapshot's sequence number.
class History {
 public:
  explicit History(int groups) : groups_(groups) {
    for (auto& h : groups_) h.push_back({0, "", false});
  }

  int groups() const { return static_cast<int>(groups_.size()); }

  // The writer calls this after each write, with the DB's latest sequence
  // number, which is then the write's own (one writer); `ingested` when the
  // write was a file ingestion.
  void Record(SequenceNumber seq,
              const std::vector<std::pair<int, std::string>>& changes,
              bool ingested = false) {
    {
      std::unique_lock<std::shared_mutex> lock(mu_);
      for (const auto& c : changes) {
        groups_[c.first].push_back({seq, c.second, ingested});
      }
    }
    recorded_.store(seq, std::memory_order_release);
  }

  SequenceNumber Recorded() const {
    return recorded_.load(std::memory_order_acquire);
  }

  // A snapshot may be taken between the writer's write and its Record;
  // false if the history does not reach `seq` within `seconds`.
  bool WaitRecorded(SequenceNumber seq, double seconds = 60) const {
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::duration<double>(seconds);
    while (Recorded() < seq) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::yield();
    }
    return true;
  }

  std::string At(int g, SequenceNumber seq) const {
    std::shared_lock<std::shared_mutex> lock(mu_);
    return AtLocked(g, seq);
  }

  // Sequence numbers at which any of groups [first, last) changed within
  // (lo, hi], and lo itself: a read that saw one consistent state between
  // lo and hi saw the state at one of these.
  std::vector<SequenceNumber> Changes(int first, int last, SequenceNumber lo,
                                      SequenceNumber hi) const {
    std::shared_lock<std::shared_mutex> lock(mu_);
    std::vector<SequenceNumber> out{lo};
    for (int g = first; g < last; g++) {
      for (const Entry& e : groups_[g]) {
        if (e.seq > lo && e.seq <= hi) out.push_back(e.seq);
      }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }

  // The canon at `seq` as a read sees it whose view of the files predates
  // every ingestion after `since`: RocksDB takes a read's SuperVersion
  // before its sequence number (DBImpl::NewIteratorImpl, MultiCFSnapshot,
  // GetImpl), so a read without a snapshot that an ingestion overtakes
  // between the two misses the ingested file yet sees the writes made
  // after it to the memtable both versions share. Writes after a skipped
  // ingestion are replayed as the operations they were.
  std::string AtWithout(int g, SequenceNumber seq,
                        SequenceNumber since) const {
    std::shared_lock<std::shared_mutex> lock(mu_);
    const auto& h = groups_[g];
    if (h.empty() || h.front().seq > seq) return "<pruned>";
    std::string canon;
    bool skipped = false;
    for (const Entry& e : h) {
      if (e.seq > seq) break;
      if (e.ingested && e.seq > since) {
        skipped = true;
      } else {
        canon = skipped ? Apply(canon, e.canon) : e.canon;
      }
    }
    return canon;
  }

  // Whether any of groups [first, last) took an ingested file within
  // (lo, hi].
  bool IngestedWithin(int first, int last, SequenceNumber lo,
                      SequenceNumber hi) const {
    std::shared_lock<std::shared_mutex> lock(mu_);
    for (int g = first; g < last; g++) {
      for (const Entry& e : groups_[g]) {
        if (e.ingested && e.seq > lo && e.seq <= hi) return true;
      }
    }
    return false;
  }

  // The last few changes of group g, for failure messages.
  std::string Describe(int g) const {
    std::shared_lock<std::shared_mutex> lock(mu_);
    const auto& h = groups_[g];
    std::string out;
    for (size_t i = h.size() > 8 ? h.size() - 8 : 0; i < h.size(); i++) {
      out += " @" + std::to_string(h[i].seq) + (h[i].ingested ? "(ingest)" : "") +
             "=\"" + h[i].canon + "\"";
    }
    return out;
  }

  // Drops what no read at `floor` or later needs: all but the last entry
  // at or below it.
  void Prune(SequenceNumber floor) {
    std::unique_lock<std::shared_mutex> lock(mu_);
    for (auto& h : groups_) {
      size_t keep = 0;
      while (keep + 1 < h.size() && h[keep + 1].seq <= floor) keep++;
      h.erase(h.begin(), h.begin() + keep);
    }
  }

 private:
  struct Entry {
    SequenceNumber seq;
    std::string canon;
    bool ingested;
  };

  // `base` after the write that turned some canon into `after`: a Put or
  // a deletion replaces it, a merge operand (the last part) joins it.
  static std::string Apply(const std::string& base, const std::string& after) {
    if (after.empty()) return after;
    const size_t comma = after.rfind(',');
    const std::string last =
        comma == std::string::npos ? after : after.substr(comma + 1);
    if (last[0] == 'P' || base.empty()) return last;
    return base + "," + last;
  }

  std::string AtLocked(int g, SequenceNumber seq) const {
    const auto& h = groups_[g];
    auto it = std::upper_bound(
        h.begin(), h.end(), seq,
        [](SequenceNumber s, const Entry& e) { return s < e.seq; });
    // Pruning keeps the last entry at or below every floor in use.
    return it == h.begin() ? "<pruned>" : std::prev(it)->canon;
  }

  mutable std::shared_mutex mu_;
  std::vector<std::vector<Entry>> groups_;
  std::atomic<SequenceNumber> recorded_{0};
};

}  // namespace stress
}  // namespace ROCKSDB_NAMESPACE
