#include "tests/fuzz/exercise.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "db/pinned_iterators_manager.h"
#include "db/range_tombstone_fragmenter.h"
#include "memory/arena.h"
#include "rocksdb/merge_operator.h"
#include "rocksdb/system_clock.h"
#include "table/compat.h"
#include "table/get_context.h"
#include "table/internal_iterator.h"
#include "table/multiget_context.h"
#include "tests/join_merge_operator.h"
#include "util/autovector.h"

namespace rh_fuzz {

using namespace ROCKSDB_NAMESPACE;

namespace {

constexpr int kMaxSteps = 2000;   // per scan
// Kept from scans for lookups and seeks. Each lookup in a compressed file
// decompresses a block (bzip2's cost most), so this sets the speed.
constexpr size_t kMaxKeys = 12;
constexpr int kSeekSteps = 3;     // moves after each seek
constexpr int kMaxTombstoneSteps = 500;

// Lets ASan see every byte of a slice the reader handed out: one copy,
// whose range the sanitizer's memcpy checks whole (a loop over the bytes
// took most of a large file's input, instrumented byte by byte), into a
// string the compiler cannot prove unread.
std::string g_copy;
volatile uint64_t g_sink;  // likewise for numbers

void Touch(const Slice& s) { g_copy.assign(s.data(), s.size()); }

[[noreturn]] void Die(const char* what) {
  fprintf(stderr, "rh_fuzz: %s\n", what);
  abort();
}

// Merges are common in the seeds; without an operator GetContext would stop
// at the first operand, and the reads after it would go untested.
const test_util::JoinMergeOperator kMerge('\0', "RhFuzzJoin");

// Keys the scans saw, and made-up ones around them.
struct Keys {
  std::vector<std::string> internal;  // as the iterator returned them
  void Keep(const Slice& k, int step) {
    if (internal.size() < kMaxKeys && (step < 4 || step % 29 == 0)) {
      internal.push_back(k.ToString());
    }
  }
  // User keys to look up: seen ones, neighbours, and some that no file
  // is likely to hold.
  std::vector<std::string> UserKeys() const {
    std::vector<std::string> out = {"", std::string(1, '\0'), "a", "key",
                                    std::string(8, '\xff')};
    for (size_t i = 0; i < internal.size(); ++i) {
      const std::string uk = ExtractUserKey(internal[i]).ToString();
      out.push_back(uk);
      if (i % 3 != 0) continue;
      out.push_back(uk + '\0');
      if (!uk.empty()) out.push_back(uk.substr(0, uk.size() - 1));
    }
    return out;
  }
};

std::string IKey(const Slice& user_key, SequenceNumber seq, ValueType t) {
  std::string k;
  AppendInternalKey(&k, ParsedInternalKey(user_key, seq, t));
  return k;
}

// RocksDB takes every key an internal iterator yields apart as an
// internal key; a shorter one trips assertions far from the reader.
void CheckPosition(InternalIterator* it) {
  const Slice k = it->key();
  if (k.size() < kNumInternalBytes) Die("iterator key shorter than 8 bytes");
  Touch(k);
  Touch(it->user_key());
  if (it->PrepareValue()) Touch(it->value());
}

void Scan(InternalIterator* it, bool forward, Keys* keys) {
  int step = 0;
  forward ? it->SeekToFirst() : it->SeekToLast();
  for (; it->Valid() && step < kMaxSteps; ++step) {
    CheckPosition(it);
    if (keys != nullptr) keys->Keep(it->key(), step);
    forward ? it->Next() : it->Prev();
  }
  Touch(it->status().ToString());
}

// Backward with pinning on, as DBIter does it: a value the iterator says is
// pinned must stay readable after the iterator moves on, until released.
void PinnedScan(InternalIterator* it) {
  PinnedIteratorsManager mgr;
  it->SetPinnedItersMgr(&mgr);
  mgr.StartPinning();
  std::vector<Slice> pinned;
  int step = 0;
  for (it->SeekToLast(); it->Valid() && step < kMaxSteps;
       it->Prev(), ++step) {
    CheckPosition(it);
    if (it->IsValuePinned() && pinned.size() < 64) pinned.push_back(it->value());
  }
  for (const Slice& v : pinned) Touch(v);
  mgr.ReleasePinnedData();
  it->SetPinnedItersMgr(nullptr);
}

void Seeks(InternalIterator* it, const Keys& keys) {
  std::vector<std::string> targets = keys.internal;
  for (const std::string& uk : keys.UserKeys()) {
    targets.push_back(IKey(uk, kMaxSequenceNumber, kValueTypeForSeek));
  }
  targets.push_back(IKey("k", 0, kTypeDeletion));  // the oldest possible
  for (const std::string& t : targets) {
    it->Seek(t);
    for (int i = 0; i < kSeekSteps && it->Valid(); ++i) {
      CheckPosition(it);
      it->Next();
    }
    it->SeekForPrev(t);
    for (int i = 0; i < kSeekSteps && it->Valid(); ++i) {
      CheckPosition(it);
      it->Prev();
    }
  }
  Touch(it->status().ToString());
}

void Gets(TableReader* table, const InternalKeyComparator& icmp,
          const ReadOptions& ro, const Keys& keys) {
  std::vector<std::pair<std::string, SequenceNumber>> lookups;
  for (const std::string& uk : keys.UserKeys()) {
    lookups.emplace_back(uk, kMaxSequenceNumber);
  }
  // Snapshots just below versions the scans saw, to walk older versions.
  for (const std::string& k : keys.internal) {
    const SequenceNumber seq = DecodeFixed64(k.data() + k.size() - 8) >> 8;
    if (seq > 0) lookups.emplace_back(ExtractUserKey(k).ToString(), seq - 1);
  }
  for (const auto& l : lookups) {
    PinnableSlice value;
    MergeContext merge_context;
    SequenceNumber max_covering = 0;
    GetContext ctx(icmp.user_comparator(), &kMerge, nullptr, nullptr,
                   GetContext::kNotFound, l.first, &value, nullptr, nullptr,
                   &merge_context, true, &max_covering,
                   SystemClock::Default().get());
    const Status s = table->Get(
        ro, IKey(l.first, l.second, kValueTypeForSeek), &ctx, nullptr);
    Touch(s.ToString());
    if (ctx.State() == GetContext::kFound) Touch(value);
  }
}

void MultiGets(TableReader* table, const InternalKeyComparator& icmp,
               const ReadOptions& ro, const Keys& keys) {
  std::vector<std::string> user_keys = keys.UserKeys();
  const Comparator* ucmp = icmp.user_comparator();
  std::sort(user_keys.begin(), user_keys.end(),
            [ucmp](const std::string& a, const std::string& b) {
              return ucmp->Compare(a, b) < 0;
            });
  user_keys.erase(std::unique(user_keys.begin(), user_keys.end()),
                  user_keys.end());
  for (size_t begin = 0; begin < user_keys.size();
       begin += MultiGetContext::MAX_BATCH_SIZE) {
    const size_t n = std::min<size_t>(MultiGetContext::MAX_BATCH_SIZE,
                                      user_keys.size() - begin);
    // Deques: these types are neither copyable nor (all) movable, and the
    // contexts point at each other.
    std::deque<Slice> slices;
    std::deque<PinnableSlice> values;
    std::deque<Status> statuses;
    std::deque<KeyContext> key_contexts;
    std::deque<GetContext> get_contexts;
    autovector<KeyContext*, MultiGetContext::MAX_BATCH_SIZE> sorted;
    for (size_t i = 0; i < n; ++i) {
      slices.emplace_back(user_keys[begin + i]);
      values.emplace_back();
      statuses.emplace_back();
      key_contexts.emplace_back(nullptr, slices.back(), &values.back(),
                                RH_KEY_CONTEXT_COLUMNS nullptr,
                                &statuses.back());
      KeyContext& kc = key_contexts.back();
      get_contexts.emplace_back(ucmp, &kMerge, nullptr, nullptr,
                                GetContext::kNotFound, slices.back(),
                                &values.back(), nullptr, nullptr,
                                &kc.merge_context, true,
                                &kc.max_covering_tombstone_seq,
                                SystemClock::Default().get());
      kc.get_context = &get_contexts.back();
      sorted.push_back(&kc);
    }
    MultiGetContext ctx(&sorted, 0, n, kMaxSequenceNumber, ro, nullptr,
                        nullptr);
    MultiGetContext::Range range = ctx.GetMultiGetRange();
    table->MultiGet(ro, &range, nullptr);
    for (size_t i = 0; i < n; ++i) {
      Touch(statuses[i].ToString());
      if (get_contexts[i].State() == GetContext::kFound) Touch(values[i]);
    }
  }
}

void Tombstones(TableReader* table, const ReadOptions& ro, const Keys& keys) {
  std::unique_ptr<FragmentedRangeTombstoneIterator> it(
      table->NewRangeTombstoneIterator(ro));
  if (it == nullptr) return;
  auto check = [&]() {
    Touch(it->start_key());
    Touch(it->end_key());
    Touch(it->key());
    g_sink = g_sink + it->seq();
  };
  int step = 0;
  for (it->SeekToFirst(); it->Valid() && step < kMaxTombstoneSteps;
       it->Next(), ++step) {
    check();
  }
  step = 0;
  for (it->SeekToLast(); it->Valid() && step < kMaxTombstoneSteps;
       it->Prev(), ++step) {
    check();
  }
  for (const std::string& uk : keys.UserKeys()) {
    it->Seek(uk);
    if (it->Valid()) check();
    it->SeekForPrev(uk);
    if (it->Valid()) check();
    g_sink = g_sink + it->MaxCoveringTombstoneSeqnum(uk);
  }
}

void Approximations(TableReader* table, const Keys& keys) {
  std::vector<std::string> targets = keys.internal;
  for (const std::string& uk : keys.UserKeys()) {
    targets.push_back(IKey(uk, kMaxSequenceNumber, kValueTypeForSeek));
  }
  const auto caller = TableReaderCaller::kUncategorized;
  for (size_t i = 0; i < targets.size(); ++i) {
    g_sink = g_sink + robinhood::compat::ApproximateOffsetOf(table, targets[i],
                                                        caller);
    const std::string& other = targets[(i * 7 + 3) % targets.size()];
    g_sink = g_sink + robinhood::compat::ApproximateSize(table, targets[i], other,
                                                    caller);
  }
  std::vector<TableReader::Anchor> anchors;
  Touch(table->ApproximateKeyAnchors(ReadOptions(), anchors).ToString());
  for (const TableReader::Anchor& a : anchors) {
    Touch(a.user_key);
    g_sink = g_sink + a.range_size;
  }
}

}  // namespace

void ExerciseReader(TableReader* table, const InternalKeyComparator& icmp,
                    bool verify_checksums) {
  ReadOptions ro;
  ro.verify_checksums = verify_checksums;
  const auto caller = TableReaderCaller::kUncategorized;
  Keys keys;
  {
    std::unique_ptr<InternalIterator> it(
        table->NewIterator(ro, nullptr, nullptr, false, caller));
    Scan(it.get(), true, &keys);
    Scan(it.get(), false, &keys);
    Seeks(it.get(), keys);
    PinnedScan(it.get());
  }
  {
    // Compaction's iterator: arena-allocated, reading ahead from the start.
    Arena arena;
    InternalIterator* it =
        table->NewIterator(ro, nullptr, &arena, false,
                           TableReaderCaller::kCompaction, 64 << 10);
    Scan(it, true, nullptr);
    it->~InternalIterator();
  }
  Gets(table, icmp, ro, keys);
  MultiGets(table, icmp, ro, keys);
  Tombstones(table, ro, keys);
  Approximations(table, keys);
  Touch(table->VerifyChecksum(ro, caller).ToString());
  if (auto props = table->GetTableProperties()) Touch(props->ToString());
  g_sink = g_sink + table->ApproximateMemoryUsage();
}

}  // namespace rh_fuzz
