// Reads byte ranges of a RobinHoodTable file, and its checksummed sections
// (contents followed by a trailer, robinhood_format.h): in place from the
// mapping with allow_mmap_reads, else with positioned reads into a buffer
// the caller owns, with the options of the read the caller makes
// (read_use.h). Every range is checked against the file size first.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "file/random_access_file_reader.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "table/read_use.h"
#include "table/robinhood_format.h"
#include "table/shared_file.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

class SectionReader {
 public:
  // `clock` times the reads' deadlines (ImmutableOptions::clock).
  SectionReader(std::unique_ptr<RandomAccessFileReader>&& file,
                uint64_t file_size, bool mmap, SystemClock* clock);

  // Maps the file (with mmap, where the file system opened it mapped;
  // otherwise mmap() turns false). Call once, before any read.
  Status Init();

  // Makes `*result` bytes [offset, offset + n): in place with mmap, else
  // read into `*buf` as `use` asks (TimedOut past its deadline).
  // Corruption if the range is not inside the file.
  Status ReadRange(uint64_t offset, size_t n, std::string* buf, Slice* result,
                   const ReadUse& use = kNoReadUse) const;
  // As ReadRange, into `scratch` (room for n bytes) when not mapped.
  Status ReadRangeInto(uint64_t offset, size_t n, char* scratch,
                       Slice* result, const ReadUse& use = kNoReadUse) const;
  // With mmap: ReadRange's answer in place, without its call or Status
  // (a lookup's path); false where the range is not inside the file.
  bool MappedRange(uint64_t offset, uint64_t n, Slice* result) const {
    if (offset > file_size_ || n > file_size_ - offset) return false;
    *result = Slice(mapping_.data() + offset, n);
    return true;
  }
  // Reads section `h` and its trailer and checks the checksum; `part` names
  // it in errors.
  Status ReadSection(const SectionHandle& h, const char* part,
                     std::string* buf, Slice* contents) const;

  // Whether every page of bytes [offset, offset + n) is in memory, where
  // the kernel can say (a mapped file: residency.h); true where it cannot,
  // or the range is not in the file.
  bool Resident(uint64_t offset, size_t n) const;
  // Asks the kernel to read bytes [offset, offset + n) in and returns
  // without waiting: advice on the mapping with mmap, else the file
  // system's Prefetch (readahead on a POSIX file). Advice only: a range
  // not in the file, or a file system without it, is left alone.
  void AskFor(uint64_t offset, size_t n) const;

  const std::string& file_name() const { return file()->file_name(); }
  uint64_t file_size() const { return file_size_; }
  bool mmap() const { return mmap_; }
  // The whole file, with mmap (empty otherwise).
  const Slice& mapping() const { return mapping_; }
  RandomAccessFileReader* file() const { return file_->get(); }
  // With mmap, whether `value` lies in the mapping; if so `pinner` keeps
  // the file open until its cleanups run (shared_file.h).
  bool PinIfMapped(const Slice& value, Cleanable* pinner) const {
    if (!Mapped(value)) return false;
    file_->PinTo(pinner);
    return true;
  }
  // Whether `value` lies in the mapping (never without mmap).
  bool Mapped(const Slice& value) const {
    return mmap_ && value.data() >= mapping_.data() &&
           value.data() + value.size() <= mapping_.data() + mapping_.size();
  }

 private:
  struct Unref {
    void operator()(SharedFile* f) const { SharedFile::Unref(f); }
  };
  const std::unique_ptr<SharedFile, Unref> file_;
  const uint64_t file_size_;
  SystemClock* const clock_;
  bool mmap_;  // set for good by Init
  Slice mapping_;
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
