// The merge operator of the tests, the fuzz harness and the sample-file
// writer: joins operands with a separator, so that a read shows the order
// and the number of the operands it merged (the suites' models join the
// same way). No gtest here: the fuzz targets and rh_sample include it.
#pragma once

#include <string>

#include "rocksdb/merge_operator.h"

namespace ROCKSDB_NAMESPACE {
namespace test_util {

class JoinMergeOperator : public AssociativeMergeOperator {
 public:
  // `sep` '\0': the operands are concatenated.
  JoinMergeOperator(char sep, const char* name) : sep_(sep), name_(name) {}
  bool Merge(const Slice& /*key*/, const Slice* existing, const Slice& value,
             std::string* new_value, Logger* /*logger*/) const override {
    new_value->clear();
    if (existing != nullptr) {
      new_value->assign(existing->data(), existing->size());
      if (sep_ != '\0') new_value->push_back(sep_);
    }
    new_value->append(value.data(), value.size());
    return true;
  }
  const char* Name() const override { return name_; }

 private:
  const char sep_;
  const char* const name_;
};

}  // namespace test_util
}  // namespace ROCKSDB_NAMESPACE
