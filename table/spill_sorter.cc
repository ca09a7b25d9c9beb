#include "table/spill_sorter.h"

#include <algorithm>
#include <cassert>

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

namespace {
constexpr size_t kMinReadBuffer = 64 << 10;
constexpr size_t kMaxReadBuffer = 1 << 20;
}  // namespace

SpillSorter::SpillSorter(SpillDir* dir, size_t record_bytes, Less less,
                         size_t budget)
    : dir_(dir),
      record_bytes_(record_bytes),
      less_(less),
      // Half the budget for records and their order while they arrive
      // (the other half is the writer's buffer and the builder's rest);
      // uint32_t positions.
      held_capacity_(std::max<size_t>(
          1, std::min<size_t>(budget / 2 / (record_bytes + sizeof(uint32_t)),
                              UINT32_MAX))) {
  assert(record_bytes > 0);
  // Merging: a buffer a run, in half the budget, at least two runs.
  read_buffer_ = std::max(kMinReadBuffer,
                          std::min(kMaxReadBuffer, budget / 2 / 64));
  read_buffer_ = std::max(read_buffer_, record_bytes);
  fan_in_ = std::max<size_t>(2, budget / 2 / read_buffer_);
}

SpillSorter::~SpillSorter() = default;

Status SpillSorter::Add(const char* record) {
  if (held_.size() / record_bytes_ >= held_capacity_) {
    Status s = SpillRun();
    if (!s.ok()) return s;
  }
  held_.append(record, record_bytes_);
  held_sorted_ = false;
  ++count_;
  return Status::OK();
}

void SpillSorter::SortHeld() {
  if (held_sorted_) return;
  const size_t n = held_.size() / record_bytes_;
  order_.resize(n);
  for (size_t i = 0; i < n; ++i) order_[i] = static_cast<uint32_t>(i);
  const char* base = held_.data();
  const size_t rb = record_bytes_;
  const Less less = less_;
  std::sort(order_.begin(), order_.end(), [=](uint32_t a, uint32_t b) {
    return less(base + size_t{a} * rb, base + size_t{b} * rb);
  });
  held_sorted_ = true;
}

Status SpillSorter::SpillRun() {
  if (held_.empty()) return Status::OK();
  SortHeld();
  std::unique_ptr<SpillFile> run(new SpillFile(dir_));
  Status s;
  for (size_t i = 0; i < order_.size() && s.ok(); ++i) {
    s = run->Append(Slice(held_.data() + size_t{order_[i]} * record_bytes_,
                          record_bytes_));
  }
  if (s.ok()) s = run->Close();
  held_.clear();
  std::vector<uint32_t>().swap(order_);
  if (!s.ok()) return s;
  runs_.push_back(std::move(run));
  levels_.push_back(0);
  // Runs merge in tiers, fan_in_ runs of one tier into one of the next,
  // as they come: every record is rewritten about log_fan_in(runs) times,
  // and reading at the end stays one pass over few runs.
  while (runs_.size() >= fan_in_ &&
         levels_[runs_.size() - fan_in_] == levels_.back()) {
    s = MergeLast(fan_in_, levels_.back() + 1);
    if (!s.ok()) return s;
  }
  return s;
}

Status SpillSorter::MergeLast(size_t n, int level) {
  const size_t first = runs_.size() - n;
  std::unique_ptr<SpillFile> merged(new SpillFile(dir_));
  Status s = Merge(first, runs_.size(), [&](const char* r) {
    return merged->Append(Slice(r, record_bytes_));
  });
  if (s.ok()) s = merged->Close();
  if (!s.ok()) return s;
  runs_.resize(first);
  levels_.resize(first);
  runs_.push_back(std::move(merged));
  levels_.push_back(level);
  return s;
}

Status SpillSorter::Merge(size_t first, size_t last,
                          const std::function<Status(const char*)>& visit) {
  std::vector<std::unique_ptr<SpillFile::Reader>> readers;
  std::vector<size_t> heap;  // readers, least record on top
  Status s;
  for (size_t i = first; i < last && s.ok(); ++i) {
    readers.emplace_back(new SpillFile::Reader(runs_[i].get(), read_buffer_));
    s = readers.back()->Fill(record_bytes_);
    if (readers.back()->available().size() >= record_bytes_) {
      heap.push_back(readers.size() - 1);
    }
  }
  const Less less = less_;
  auto greater = [&](size_t a, size_t b) {
    return less(readers[b]->available().data(), readers[a]->available().data());
  };
  std::make_heap(heap.begin(), heap.end(), greater);
  while (s.ok() && !heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), greater);
    SpillFile::Reader* r = readers[heap.back()].get();
    s = visit(r->available().data());
    r->Skip(record_bytes_);
    if (s.ok()) s = r->Fill(record_bytes_);
    if (s.ok() && r->available().size() >= record_bytes_) {
      std::push_heap(heap.begin(), heap.end(), greater);
    } else {
      if (s.ok() && !r->done()) {
        s = Status::Corruption("RobinHoodTable: spill run cut mid-record");
      }
      heap.pop_back();
    }
  }
  return s;
}

Status SpillSorter::ForEach(const std::function<Status(const char*)>& visit) {
  if (runs_.empty()) {
    SortHeld();
    for (uint32_t i : order_) {
      Status s = visit(held_.data() + size_t{i} * record_bytes_);
      if (!s.ok()) return s;
    }
    return Status::OK();
  }
  Status s = SpillRun();
  // Few enough runs to read at once, a buffer each, within the budget.
  while (s.ok() && runs_.size() > fan_in_) {
    s = MergeLast(fan_in_, levels_.back() + 1);
  }
  if (!s.ok()) return s;
  return Merge(0, runs_.size(), visit);
}

size_t SpillSorter::MemoryUsage() const {
  // While merging: a reader's buffer for each run.
  const size_t merge = std::min(runs_.size(), fan_in_) * read_buffer_;
  return std::max(held_.capacity() + order_.capacity() * sizeof(uint32_t) +
                      (runs_.empty() ? 0 : SpillFile::kBufferBytes),
                  merge);
}

void SpillSorter::Clear() {
  std::string().swap(held_);
  std::vector<uint32_t>().swap(order_);
  runs_.clear();
  levels_.clear();
  count_ = 0;
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
