#include "tools/load/byte_stream.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

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
  const size_t have = end_ - pos_;
  if (have >= limit) return Status::OK();
  const size_t want = std::min(std::max(kReadSize, have), limit - have);
  if (pos_ + have + want > cap_) {
    // Move what is left to the front, into a larger buffer if need be.
    if (have + want > cap_) {
      std::unique_ptr<char[]> bigger(new char[have + want]);
      if (have > 0) memcpy(bigger.get(), buf_.get() + pos_, have);
      buf_ = std::move(bigger);
      cap_ = have + want;
    } else if (have > 0) {
      memmove(buf_.get(), buf_.get() + pos_, have);
    }
    pos_ = 0;
    end_ = have;
  }
  size_t got = 0;
  Status s = ReadSome(fd_, buf_.get() + end_, want, &got, name_);
  end_ += got;
  if (s.ok() && got == 0) *eof = true;
  return s;
}

}  // namespace rh_load
