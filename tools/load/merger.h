// The k-way merge of sorted sources over one key range [lo, hi), with
// duplicate keys resolved: --on_duplicate=last keeps the entry that came
// last in the input, first the one that came first, error stops the load.
// Equal keys arrive in input order (each source holds them so, and the
// heap breaks key ties by input position), so "last" is the group's last.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tools/load/sorted_source.h"

namespace rh_load {

enum class OnDuplicate { kLast, kFirst, kError };
bool ParseOnDuplicate(const std::string& name, OnDuplicate* policy);

class Merger {
 public:
  // Describes an input position (file and line) for error messages.
  using Describe = std::function<std::string(uint64_t ordinal)>;

  // `hi` null: no upper bound.
  Merger(std::vector<std::unique_ptr<SortedSource>> sources, OnDuplicate policy,
         const std::string* hi, Describe describe);

  Status Seek(const Slice& lo);
  // The next key of the range; *has is false at its end.
  Status Next(bool* has);
  Slice key() const { return key_; }
  Slice value() const { return value_; }

 private:
  bool InRange(const SortedSource& s) const;
  bool Greater(size_t a, size_t b) const;  // heap order: a after b
  Status Advance(size_t i);                // moves source i on, re-heaps it

  std::vector<std::unique_ptr<SortedSource>> sources_;
  const OnDuplicate policy_;
  const bool has_hi_;
  const std::string hi_;
  const Describe describe_;
  std::vector<size_t> heap_;
  std::string key_, value_;
};

}  // namespace rh_load
