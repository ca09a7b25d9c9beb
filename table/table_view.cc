#include "table/table_view.h"

#include "table/robinhood_format.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

Status TableView::FindNewest(const Slice& user_key, uint64_t hash,
                             bool verify, std::string* buf,
                             EntryRef* newest, bool* found) const {
  Status s;
  *found = false;
  index_.Probe(hash, [&](uint64_t address) {
    if (address >= meta().log_logical_bytes) {
      s = CorruptionAt(file_name(), "hash index",
                       "slot address " + std::to_string(address) +
                           " past the log",
                       meta().index.offset);
      return true;
    }
    s = log_->ReadEntry(address, verify, buf, newest);
    if (!s.ok()) return true;
    if (newest->entry.user_key != user_key) return false;  // tag collision
    *found = true;
    return true;
  });
  return s;
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
