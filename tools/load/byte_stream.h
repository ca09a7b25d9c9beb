// A file (or standard input) read forward through one buffer, so a parser
// sees each whole entry as contiguous bytes. The buffer grows to hold an
// entry longer than it, up to a bound.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "rocksdb/slice.h"
#include "rocksdb/status.h"

namespace rh_load {

using ROCKSDB_NAMESPACE::Slice;
using ROCKSDB_NAMESPACE::Status;

class ByteStream {
 public:
  ~ByteStream();
  // "-" is standard input.
  Status Open(const std::string& path);
  const std::string& name() const { return name_; }

  // The unconsumed bytes in the buffer.
  Slice Window() const { return Slice(buf_.get() + pos_, end_ - pos_); }
  // Reads more so that Window() grows (keeping its bytes), up to `limit`
  // bytes in all; *eof when nothing more came.
  Status Fill(size_t limit, bool* eof);
  // Drops the first `n` bytes of Window().
  void Consume(size_t n) { pos_ += n; consumed_ += n; }
  // Offset in the file of Window()'s first byte.
  uint64_t offset() const { return consumed_; }

 private:
  int fd_ = -1;
  bool owned_ = false;
  std::string name_;
  // Not a std::string: growing one zero-fills what the read then
  // overwrites.
  std::unique_ptr<char[]> buf_;
  size_t cap_ = 0;
  size_t pos_ = 0;  // Window() is [pos_, end_)
  size_t end_ = 0;
  uint64_t consumed_ = 0;
};

}  // namespace rh_load
