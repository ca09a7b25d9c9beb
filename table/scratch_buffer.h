// A thread's buffer for one lookup's reads and decodes, lent for the
// lookup and given back after it, so that a lookup in a compressed log
// neither allocates nor clears a block's bytes each time (the decoders
// grow a buffer, never shrink it: robinhood_uncompress.h). A lookup that
// starts on the same thread while one is running (a merge operator that
// reads) finds the buffer lent and starts with an empty one of its own.
#pragma once

#include <string>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

class ScratchBuffer {
 public:
  // `lend`: false where the lookup reads in place (a mapped file without
  // compression), so it does not touch the thread's buffer at all.
  explicit ScratchBuffer(bool lend = true) : lent_(lend) {
    if (lent_) buf_.swap(Idle());
  }
  ~ScratchBuffer() {
    // A buffer grown by a huge block is freed, not kept by the thread.
    if (lent_ && buf_.capacity() <= kKeepBytes) Idle().swap(buf_);
  }
  ScratchBuffer(const ScratchBuffer&) = delete;
  ScratchBuffer& operator=(const ScratchBuffer&) = delete;

  std::string* get() { return &buf_; }

 private:
  static constexpr size_t kKeepBytes = 1 << 20;
  static std::string& Idle() {
    thread_local std::string idle;
    return idle;
  }
  const bool lent_;
  std::string buf_;
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
