// Helpers shared by the gtest suites: status assertions and scratch paths.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "rocksdb/status.h"

// gtest has no Status matchers; these print the Status when they fail.
#define ASSERT_OK(expr)                                  \
  do {                                                   \
    const ::ROCKSDB_NAMESPACE::Status _s = (expr);       \
    ASSERT_TRUE(_s.ok()) << _s.ToString();               \
  } while (0)
#define EXPECT_OK(expr)                                  \
  do {                                                   \
    const ::ROCKSDB_NAMESPACE::Status _s = (expr);       \
    EXPECT_TRUE(_s.ok()) << _s.ToString();               \
  } while (0)

namespace ROCKSDB_NAMESPACE {
namespace test_util {

// A path under gtest's temp dir that is unique to this process and `name`,
// so suites run in parallel by ctest never share files.
inline std::string TempPath(const std::string& suite, const std::string& name) {
  std::string dir = testing::TempDir();
  if (dir.empty() || dir.back() != '/') dir.push_back('/');
  return dir + "rh_" + suite + "_" + std::to_string(getpid()) + "_" + name;
}

}  // namespace test_util
}  // namespace ROCKSDB_NAMESPACE
