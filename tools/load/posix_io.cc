#include "tools/load/posix_io.h"

#include "tools/load/signals.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace rh_load {

Status IoError(const std::string& what, const std::string& path) {
  return Status::IOError(what + " " + path, strerror(errno));
}

Status WriteAll(int fd, const char* data, size_t n, const std::string& path) {
  while (n > 0) {
    const ssize_t w = write(fd, data, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return IoError("cannot write", path);
    }
    data += w;
    n -= size_t(w);
  }
  return Status::OK();
}

Status ReadAll(int fd, char* data, size_t n, uint64_t offset,
               const std::string& path) {
  while (n > 0) {
    const ssize_t r = pread(fd, data, n, off_t(offset));
    if (r < 0) {
      if (errno == EINTR) continue;
      return IoError("cannot read", path);
    }
    if (r == 0) return Status::Corruption("file shorter than expected", path);
    data += r;
    n -= size_t(r);
    offset += uint64_t(r);
  }
  return Status::OK();
}

Status ReadSome(int fd, char* data, size_t n, size_t* got,
                const std::string& path) {
  for (;;) {
    const ssize_t r = read(fd, data, n);
    if (r >= 0) {
      *got = size_t(r);
      return Status::OK();
    }
    if (errno != EINTR) return IoError("cannot read", path);
    if (StopRequested()) return Interrupted();
  }
}

}  // namespace rh_load
