#include "tools/load/merger.h"

#include <algorithm>

namespace rh_load {

bool ParseOnDuplicate(const std::string& name, OnDuplicate* policy) {
  if (name == "last") *policy = OnDuplicate::kLast;
  else if (name == "first") *policy = OnDuplicate::kFirst;
  else if (name == "error") *policy = OnDuplicate::kError;
  else return false;
  return true;
}

Merger::Merger(std::vector<std::unique_ptr<SortedSource>> sources,
               OnDuplicate policy, const std::string* hi, Describe describe)
    : sources_(std::move(sources)),
      policy_(policy),
      has_hi_(hi != nullptr),
      hi_(hi ? *hi : std::string()),
      describe_(std::move(describe)) {}

bool Merger::InRange(const SortedSource& s) const {
  return s.Valid() && (!has_hi_ || s.record().key.compare(hi_) < 0);
}

bool Merger::Greater(size_t a, size_t b) const {
  const RunRecord& x = sources_[a]->record();
  const RunRecord& y = sources_[b]->record();
  const int c = x.key.compare(y.key);
  if (c != 0) return c > 0;
  return x.ordinal > y.ordinal;
}

Status Merger::Seek(const Slice& lo) {
  heap_.clear();
  for (size_t i = 0; i < sources_.size(); i++) {
    Status s = sources_[i]->Seek(lo);
    if (!s.ok()) return s;
    if (InRange(*sources_[i])) heap_.push_back(i);
  }
  auto greater = [this](size_t a, size_t b) { return Greater(a, b); };
  std::make_heap(heap_.begin(), heap_.end(), greater);
  return Status::OK();
}

Status Merger::Advance(size_t i) {
  Status s = sources_[i]->Next();
  if (!s.ok()) return s;
  if (InRange(*sources_[i])) {
    heap_.push_back(i);
    std::push_heap(heap_.begin(), heap_.end(),
                   [this](size_t a, size_t b) { return Greater(a, b); });
  }
  return Status::OK();
}

Status Merger::Next(bool* has) {
  auto greater = [this](size_t a, size_t b) { return Greater(a, b); };
  *has = !heap_.empty();
  if (!*has) return Status::OK();
  std::pop_heap(heap_.begin(), heap_.end(), greater);
  size_t top = heap_.back();
  heap_.pop_back();
  const RunRecord& first = sources_[top]->record();
  key_.assign(first.key.data(), first.key.size());
  value_.assign(first.value.data(), first.value.size());
  const uint64_t first_ordinal = first.ordinal;
  Status s = Advance(top);
  // The rest of the group of equal keys, in input order.
  while (s.ok() && !heap_.empty() &&
         sources_[heap_.front()]->record().key == Slice(key_)) {
    std::pop_heap(heap_.begin(), heap_.end(), greater);
    top = heap_.back();
    heap_.pop_back();
    const RunRecord& dup = sources_[top]->record();
    if (policy_ == OnDuplicate::kError) {
      return Status::InvalidArgument(
          "duplicate key (--on_duplicate=error): at " + describe_(first_ordinal) +
          " and at " + describe_(dup.ordinal));
    }
    if (policy_ == OnDuplicate::kLast) value_.assign(dup.value.data(), dup.value.size());
    s = Advance(top);
  }
  return s;
}

}  // namespace rh_load
