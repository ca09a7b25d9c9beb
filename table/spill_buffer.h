// What a builder holds past its memory bound
// (RobinHoodTableOptions::build_memory_limit) goes to temporary files
// beside the file being built, and comes back in the order it went in.
// Nothing here is part of the format: the files live only while the
// builder does, and the file built is the same byte for byte with or
// without them.
//
// A temporary file is `<dir>/<file>.<pid>-<k>.<n>.rhspill`, written and read
// through the column family's FileSystem, removed as soon as it is read
// for the last time, and at the latest when its owner is destroyed.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "rocksdb/file_system.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

// Where a builder's temporary files go, and their names.
class SpillDir {
 public:
  // `dir`: the directory; `prefix`: the output file's name. Names also
  // carry the process and a number of its own, so that builders of files
  // of one name in other directories may share `dir`.
  SpillDir(FileSystem* fs, std::string dir, std::string prefix);

  FileSystem* fs() const { return fs_; }
  // A new file, open for writing; `*name` is its path.
  IOStatus Create(std::string* name, std::unique_ptr<FSWritableFile>* file);
  IOStatus Open(const std::string& name,
                std::unique_ptr<FSSequentialFile>* file);
  void Remove(const std::string& name);
  // Bytes written to temporary files so far, all of them.
  uint64_t bytes_written() const { return bytes_written_; }
  void CountWritten(uint64_t n) { bytes_written_ += n; }

  // The directory of the file at `path` ("." if it has none).
  static std::string DirOf(const std::string& path);

 private:
  FileSystem* const fs_;
  const std::string dir_;
  std::string prefix_;
  uint64_t next_ = 0;
  uint64_t bytes_written_ = 0;
};

// A temporary file written in order, then read back in order, in pieces.
class SpillFile {
 public:
  static constexpr size_t kBufferBytes = 1 << 20;

  explicit SpillFile(SpillDir* dir) : dir_(dir) {}
  ~SpillFile() { Remove(); }
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;

  Status Append(const Slice& data);
  // Writes out what is buffered; Reader may then read the file.
  Status Close();
  uint64_t size() const { return size_; }
  void Remove();

  // Closes the file and hands its bytes to `sink` in order, in pieces of
  // at most kBufferBytes.
  Status ForEachPiece(const std::function<Status(const Slice&)>& sink);
  // Closes the file and hands each record to `visit` in order, `length`
  // telling from the front of a Slice how long the record there is (0:
  // cut short). REQUIRES: records of at most kMaxRecordBytes.
  static constexpr size_t kMaxRecordBytes = 128 << 10;
  Status ForEachRecord(const std::function<size_t(const Slice&)>& length,
                       const std::function<Status(const Slice&)>& visit);

  // Reads the file from its start, holding `buffer_bytes` of it at a time.
  class Reader {
   public:
    Reader(const SpillFile* file, size_t buffer_bytes)
        : file_(file), buffer_bytes_(buffer_bytes) {}
    // Makes the next min(n, bytes left) bytes contiguous in available().
    // REQUIRES: n <= the buffer size.
    Status Fill(size_t n);
    Slice available() const { return Slice(buf_.data() + pos_, end_ - pos_); }
    void Skip(size_t n) { pos_ += n; }
    bool done() const { return pos_ == end_ && read_ == file_->size(); }

   private:
    const SpillFile* const file_;
    const size_t buffer_bytes_;
    std::unique_ptr<FSSequentialFile> in_;
    std::string buf_;
    size_t pos_ = 0, end_ = 0;
    uint64_t read_ = 0;
  };

 private:
  SpillDir* const dir_;
  std::string name_;
  std::unique_ptr<FSWritableFile> out_;
  std::string buf_;
  uint64_t size_ = 0;
  bool closed_ = false;
};

// Bytes appended in order and read back in order: in memory until Spill(),
// in a SpillFile from then on.
class SpillBuffer {
 public:
  SpillBuffer() = default;
  Status Append(const Slice& data) {
    size_ += data.size();
    if (file_ == nullptr) {
      mem_.append(data.data(), data.size());
      return Status::OK();
    }
    return file_->Append(data);
  }
  // Moves the bytes held to a file in `dir`; later ones follow them.
  Status Spill(SpillDir* dir);
  bool spilled() const { return file_ != nullptr; }
  uint64_t size() const { return size_; }
  size_t MemoryUsage() const {
    return mem_.capacity() + (file_ ? SpillFile::kBufferBytes : 0);
  }
  // Hands the bytes to `sink` in order, in pieces of at most
  // SpillFile::kBufferBytes.
  Status ForEachPiece(const std::function<Status(const Slice&)>& sink);
  // Hands each record to `visit` in order, as SpillFile::ForEachRecord.
  Status ForEachRecord(const std::function<size_t(const Slice&)>& length,
                       const std::function<Status(const Slice&)>& visit);
  // Frees memory and files.
  void Clear();

 private:
  std::string mem_;
  std::unique_ptr<SpillFile> file_;
  uint64_t size_ = 0;
};

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
