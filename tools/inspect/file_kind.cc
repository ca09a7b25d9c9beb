#include "tools/inspect/file_kind.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstring>

#include "table/robinhood_format.h"
#include "tools/inspect/text_format.h"
#include "util/coding.h"

namespace rh_inspect {

using ROCKSDB_NAMESPACE::DecodeFixed64;
using ROCKSDB_NAMESPACE::robinhood::kMagicNumber;

namespace {

// The table formats RocksDB ships, by their footers' magic numbers.
struct Known {
  uint64_t magic;
  const char* what;
};
const Known kKnownMagics[] = {
    {0x88e241b785f4cff7ull, "a BlockBasedTable SST file"},
    {0xdb4775248b80fb57ull, "a legacy BlockBasedTable SST file"},
    {0x8242229663bf9564ull, "a PlainTable SST file"},
    {0x4f3418eb7a8f13b8ull, "a legacy PlainTable SST file"},
    {0x926789d0c5f17873ull, "a CuckooTable SST file"},
};

}  // namespace

std::string CheckFileKind(const std::string& path, uint64_t* file_size) {
  const int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0) return std::string("cannot open: ") + strerror(errno);
  struct stat st;
  unsigned char tail[8];
  std::string err;
  if (fstat(fd, &st) != 0) {
    err = std::string("cannot stat: ") + strerror(errno);
  } else if (!S_ISREG(st.st_mode)) {
    err = "not a regular file";
  } else if (st.st_size < 8) {
    err = Format("not a RobinHoodTable file: too short (%lld bytes)",
                 static_cast<long long>(st.st_size));
  } else if (pread(fd, tail, 8, st.st_size - 8) != 8) {
    err = std::string("cannot read: ") + strerror(errno);
  } else {
    *file_size = static_cast<uint64_t>(st.st_size);
    const uint64_t magic = DecodeFixed64(reinterpret_cast<char*>(tail));
    if (magic != kMagicNumber) {
      std::string what = "truncated, or not an SST file";
      for (const Known& k : kKnownMagics) {
        if (k.magic == magic) what = std::string("it is ") + k.what;
      }
      err = Format("not a RobinHoodTable file (magic number 0x%016" PRIx64
                   " at offset %" PRIu64 ", expected 0x%016" PRIx64 "): ",
                   magic, *file_size - 8, kMagicNumber) +
            what;
    }
  }
  close(fd);
  return err;
}

}  // namespace rh_inspect
