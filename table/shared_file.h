// A table file that outlives its reader while values read in place from
// its mapping are pinned in callers' PinnableSlices: RocksDB may close the
// reader (a table-cache eviction, a compaction deleting the file) while an
// application still holds a value it was handed without a copy. The reader
// holds one reference and each pinned value another; the last one closes
// the file, and with it the mapping.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "file/random_access_file_reader.h"
#include "rocksdb/cleanable.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

class SharedFile {
 public:
  explicit SharedFile(std::unique_ptr<RandomAccessFileReader>&& file)
      : file_(std::move(file)) {}
  SharedFile(const SharedFile&) = delete;
  SharedFile& operator=(const SharedFile&) = delete;

  RandomAccessFileReader* get() const { return file_.get(); }

  // One more reference, released when `pinner`'s cleanups run (when the
  // PinnableSlice it was delegated to is reset, or `pinner` is destroyed
  // if nothing took it).
  void PinTo(Cleanable* pinner) {
    refs_.fetch_add(1, std::memory_order_relaxed);
    pinner->RegisterCleanup(&Release, this, nullptr);
  }
  // The reader's reference.
  static void Unref(SharedFile* f) {
    if (f->refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete f;
  }

 private:
  ~SharedFile() = default;
  static void Release(void* file, void* /*unused*/) {
    Unref(static_cast<SharedFile*>(file));
  }

  std::atomic<uint64_t> refs_{1};
  const std::unique_ptr<RandomAccessFileReader> file_;
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
