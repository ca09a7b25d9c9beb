#include "tools/load/db_input.h"

#include <vector>

#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/utilities/options_util.h"
#include "rocksdb_robinhood/robinhood_table.h"
#include "tools/common/db_open.h"

namespace rh_load {

using namespace ROCKSDB_NAMESPACE;
using ROCKSDB_NAMESPACE::robinhood::DBResult;

namespace {

class DbReader : public InputReader {
 public:
  ~DbReader() override {
    it_.reset();
    for (auto* h : handles_) db_->DestroyColumnFamilyHandle(h);
  }

  Status Open(const std::string& path, const std::string& column_family) {
    RegisterRobinHoodTableDefault();
    ConfigOptions config;
    config.ignore_unsupported_options = false;
    DBOptions db_options;
    std::vector<ColumnFamilyDescriptor> cfs;
    Status s = LoadLatestOptions(config, path, &db_options, &cfs);
    if (!s.ok()) return Status::InvalidArgument("input DB " + path, s.ToString());
    size_t want = cfs.size();
    for (size_t i = 0; i < cfs.size(); i++) {
      if (cfs[i].name == column_family) want = i;
    }
    if (want == cfs.size()) {
      return Status::InvalidArgument("input DB " + path,
                                     "has no column family " + column_family);
    }
    s = DB::OpenForReadOnly(db_options, path, cfs, &handles_, DBResult(&db_));
    if (!s.ok()) return s;
    ReadOptions ro;
    ro.fill_cache = false;
    ro.readahead_size = size_t(2) << 20;
    it_.reset(db_->NewIterator(ro, handles_[want]));
    it_->SeekToFirst();
    return it_->status();
  }

  Status Next(Slice* key, Slice* value, bool* has) override {
    if (started_ && it_->Valid()) it_->Next();
    started_ = true;
    *has = it_->Valid();
    if (*has) {
      *key = it_->key();
      *value = it_->value();
      bytes_ += key->size() + value->size();
    }
    return it_->status();
  }
  uint64_t BytesRead() const override { return bytes_; }

 private:
  std::unique_ptr<DB> db_;
  std::vector<ColumnFamilyHandle*> handles_;
  std::unique_ptr<Iterator> it_;
  bool started_ = false;
  uint64_t bytes_ = 0;
};

}  // namespace

Status OpenDbInput(const std::string& path, const std::string& column_family,
                   std::unique_ptr<InputReader>* reader) {
  auto r = std::make_unique<DbReader>();
  Status s = r->Open(path, column_family);
  if (s.ok()) *reader = std::move(r);
  return s;
}

uint64_t DbInputSize(const std::string& path) {
  std::vector<std::string> children;
  if (!Env::Default()->GetChildren(path, &children).ok()) return 0;
  uint64_t total = 0;
  for (const auto& c : children) {
    uint64_t size = 0;
    if (c.size() > 4 && c.compare(c.size() - 4, 4, ".sst") == 0 &&
        Env::Default()->GetFileSize(path + "/" + c, &size).ok()) {
      total += size;
    }
  }
  return total;
}

}  // namespace rh_load
