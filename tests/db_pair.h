// The two-DB oracle of the differential and ingestion suites: every write
// goes to a DB on RobinHoodTable (rh_) and to one on RocksDB's
// BlockBasedTable (bbt_), and every read must get the same answer from
// both. This holds the pair, its snapshots (`Snap`: any type with `rh` and
// `bbt` snapshot members) and their lifetimes; the suites hold the
// operations and the comparisons.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "tests/test_util.h"

namespace ROCKSDB_NAMESPACE {
namespace test_util {

template <typename Snap>
class DbPair {
 protected:
  Status OpenBoth() {
    Status s = OpenDB(rh_opts_, rh_path_, &rh_);
    if (s.ok()) s = OpenDB(bbt_opts_, bbt_path_, &bbt_);
    return s;
  }
  // Releases the snapshots, then closes both DBs (those open).
  void CloseBoth() {
    if (rh_ != nullptr && bbt_ != nullptr) ReleaseSnapshots();
    for (std::unique_ptr<DB>* db : {&rh_, &bbt_}) {
      if (*db != nullptr) {
        EXPECT_OK((*db)->Close());
        db->reset();
      }
    }
  }
  void ReleaseSnapshots() {
    for (const Snap& s : snaps_) {
      rh_->ReleaseSnapshot(s.rh);
      bbt_->ReleaseSnapshot(s.bbt);
    }
    snaps_.clear();
  }
  Status DestroyBoth() {
    Status a = DestroyDB(rh_path_, rh_opts_);
    Status b = DestroyDB(bbt_path_, bbt_opts_);
    return a.ok() ? b : a;
  }

  std::string rh_path_, bbt_path_;
  Options rh_opts_, bbt_opts_;
  std::unique_ptr<DB> rh_, bbt_;
  std::vector<Snap> snaps_;
};

}  // namespace test_util
}  // namespace ROCKSDB_NAMESPACE
