#include "table/section_reader.h"

#include "table/compat.h"
#include "table/residency.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

SectionReader::SectionReader(std::unique_ptr<RandomAccessFileReader>&& file,
                             uint64_t file_size, bool mmap,
                             SystemClock* clock)
    : file_(new SharedFile(std::move(file))),
      file_size_(file_size),
      clock_(clock != nullptr ? clock : SystemClock::Default().get()),
      mmap_(mmap) {}

Status SectionReader::Init() {
  if (!mmap_ || file_size_ == 0) return Status::OK();
  // allow_mmap_reads says how the DB opens its files, not how this one
  // was opened: RocksDB's repair opens them for positioned reads whatever
  // the option says, and a read into no buffer then fails (EFAULT) or,
  // on a file system that copies, crashes. A mapped file hands back a
  // slice of its mapping and leaves the buffer alone; a file that puts
  // the byte in the buffer is read with positioned reads.
  char probe = 0;
  Slice first;
  Status s = compat::ReadAt(file(), IOOptions(), 0, 1, &first, &probe);
  if (!s.ok()) return s;
  if (first.data() == &probe) {
    mmap_ = false;
    return Status::OK();
  }
  s = compat::ReadAt(file(), IOOptions(), 0, file_size_, &mapping_, nullptr);
  if (s.ok() && mapping_.size() != file_size_) {
    return CorruptionAt(file_name(), "file",
                        "mapping shorter than the file size", 0);
  }
  return s;
}

Status SectionReader::ReadRange(uint64_t offset, size_t n, std::string* buf,
                                Slice* result, const ReadUse& use) const {
  // Sized only for a range the file holds: ReadRangeInto refuses the
  // others, and a hostile length must not allocate first.
  if (!mmap_ && offset <= file_size_ && n <= file_size_ - offset) {
    buf->resize(n);
  }
  return ReadRangeInto(offset, n, mmap_ ? nullptr : &(*buf)[0], result, use);
}

Status SectionReader::ReadRangeInto(uint64_t offset, size_t n, char* scratch,
                                    Slice* result, const ReadUse& use) const {
  if (offset > file_size_ || n > file_size_ - offset) {
    return CorruptionAt(file_name(), "file", "read past the end of the file",
                        offset);
  }
  if (mmap_) {
    MappedRange(offset, n, result);
    return Status::OK();
  }
  IOOptions opts;
  Status s = use.Prepare(clock_, &opts);
  if (!s.ok()) return s;
  s = compat::ReadAt(file(), opts, offset, n, result, scratch);
  if (s.ok() && result->size() != n) {
    s = CorruptionAt(file_name(), "file", "truncated read", offset);
  }
  return s;
}

bool SectionReader::Resident(uint64_t offset, size_t n) const {
  if (!mmap_ || offset > file_size_ || n > file_size_ - offset) return true;
  return PagesResident(mapping_.data() + offset, n);
}

void SectionReader::AskFor(uint64_t offset, size_t n) const {
  if (offset > file_size_ || n > file_size_ - offset) return;
  if (mmap_) {
    AskForPages(mapping_.data() + offset, n);
    return;
  }
  (void)file()->file()->Prefetch(offset, n, IOOptions(), nullptr);
}

Status SectionReader::ReadSection(const SectionHandle& h, const char* part,
                                  std::string* buf, Slice* contents) const {
  if (h.size > file_size_) {
    return CorruptionAt(file_name(), part, "larger than the file", h.offset);
  }
  Slice raw;
  Status s = ReadRange(h.offset, h.size + kTrailerSize, buf, &raw);
  if (!s.ok()) return s;
  *contents = Slice(raw.data(), h.size);
  return VerifyTrailer(*contents, raw.data() + h.size, file_name(), part,
                       h.offset);
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
