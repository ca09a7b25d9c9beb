// Opening a DB into a std::unique_ptr<DB> with any supported RocksDB: 9.11
// added DB::Open and its variants (OpenForReadOnly, OpenAsSecondary) with a
// std::unique_ptr<DB>* result, and 11.0 removed the DB** ones, which 7.8
// through 9.10 have alone. Our programs and tests pass DBResult(&db) where
// either is wanted:
//
//   std::unique_ptr<DB> db;
//   Status s = DB::Open(options, path, DBResult(&db));   // db null on error
//
// Public API only (the programs that link only the public library use it);
// table/compat.h keeps what moved in RocksDB's internal ones.
#pragma once

#include <memory>

#include "rocksdb/db.h"
#include "rocksdb/version.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

#if ROCKSDB_MAJOR > 9 || (ROCKSDB_MAJOR == 9 && ROCKSDB_MINOR >= 11)
inline std::unique_ptr<DB>* DBResult(std::unique_ptr<DB>* db) { return db; }
#else
// Lends the call a DB** and hands what it wrote to the unique_ptr when the
// call's full expression ends (the temporary's end).
class DBResult {
 public:
  explicit DBResult(std::unique_ptr<DB>* db) : db_(db) {}
  DBResult(const DBResult&) = delete;
  DBResult& operator=(const DBResult&) = delete;
  ~DBResult() { db_->reset(raw_); }
  operator DB**() { return &raw_; }

 private:
  std::unique_ptr<DB>* db_;
  DB* raw_ = nullptr;
};
#endif

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
