#include "tools/load/byte_stream.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>

#include "tools/load/posix_io.h"

namespace rh_load {

namespace {
constexpr size_t kReadSize = size_t(4) << 20;
}  // namespace

ByteStream::~ByteStream() {
  if (owned_ && fd_ >= 0) close(fd_);
}

Status ByteStream::Open(const std::string& path) {
  if (path == "-") {
    fd_ = 0;
    name_ = "(stdin)";
    return Status::OK();
  }
  fd_ = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) return IoError("cannot open input", path);
  owned_ = true;
  name_ = path;
#ifdef POSIX_FADV_SEQUENTIAL
  posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
  return Status::OK();
}

Status ByteStream::Fill(size_t limit, bool* eof) {
  *eof = false;
  const size_t have = buf_.size() - pos_;
  if (have >= limit) return Status::OK();
  // Move what is left to the front, then read after it.
  if (pos_ > 0) {
    buf_.erase(0, pos_);
    pos_ = 0;
  }
  const size_t want = std::min(std::max(kReadSize, have), limit - have);
  buf_.resize(have + want);
  size_t got = 0;
  Status s = ReadSome(fd_, &buf_[have], want, &got, name_);
  buf_.resize(have + got);
  if (s.ok() && got == 0) *eof = true;
  return s;
}

}  // namespace rh_load
