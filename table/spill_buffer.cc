#include "table/spill_buffer.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>

namespace ROCKSDB_NAMESPACE {
namespace robinhood {

namespace {
Status RecordCutShort() {
  return Status::Corruption("RobinHoodTable: spilled record cut short");
}
}  // namespace

SpillDir::SpillDir(FileSystem* fs, std::string dir, std::string prefix)
    : fs_(fs), dir_(std::move(dir)) {
  static std::atomic<uint64_t> builders{0};
  prefix_ = std::move(prefix) + "." + std::to_string(getpid()) + "-" +
            std::to_string(builders.fetch_add(1));
}

IOStatus SpillDir::Create(std::string* name,
                          std::unique_ptr<FSWritableFile>* file) {
  *name = dir_ + "/" + prefix_ + "." + std::to_string(next_++) + ".rhspill";
  return fs_->NewWritableFile(*name, FileOptions(), file, nullptr);
}

IOStatus SpillDir::Open(const std::string& name,
                        std::unique_ptr<FSSequentialFile>* file) {
  return fs_->NewSequentialFile(name, FileOptions(), file, nullptr);
}

void SpillDir::Remove(const std::string& name) {
  // A file left behind costs disk, not correctness: nothing reads it again.
  fs_->DeleteFile(name, IOOptions(), nullptr).PermitUncheckedError();
}

std::string SpillDir::DirOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

Status SpillFile::Append(const Slice& data) {
  if (closed_) return Status::InvalidArgument("RobinHoodTable: spill file closed");
  if (out_ == nullptr) {
    IOStatus s = dir_->Create(&name_, &out_);
    if (!s.ok()) return s;
    buf_.reserve(kBufferBytes);
  }
  size_ += data.size();
  if (buf_.size() + data.size() <= kBufferBytes) {
    buf_.append(data.data(), data.size());
    return Status::OK();
  }
  IOStatus s;
  if (!buf_.empty()) {
    s = out_->Append(buf_, IOOptions(), nullptr);
    dir_->CountWritten(buf_.size());
    buf_.clear();
  }
  if (s.ok() && data.size() >= kBufferBytes) {
    s = out_->Append(data, IOOptions(), nullptr);
    dir_->CountWritten(data.size());
  } else {
    buf_.append(data.data(), data.size());
  }
  return s;
}

Status SpillFile::Close() {
  if (closed_) return Status::OK();
  closed_ = true;
  if (out_ == nullptr) return Status::OK();
  IOStatus s;
  if (!buf_.empty()) {
    s = out_->Append(buf_, IOOptions(), nullptr);
    dir_->CountWritten(buf_.size());
  }
  std::string().swap(buf_);
  if (s.ok()) s = out_->Close(IOOptions(), nullptr);
  out_.reset();
  return s;
}

void SpillFile::Remove() {
  if (out_ != nullptr) {
    out_->Close(IOOptions(), nullptr).PermitUncheckedError();
    out_.reset();
  }
  if (!name_.empty()) dir_->Remove(name_);
  name_.clear();
  std::string().swap(buf_);
}

Status SpillFile::Reader::Fill(size_t n) {
  if (end_ - pos_ >= n || read_ == file_->size()) return Status::OK();
  if (in_ == nullptr) {
    if (!file_->closed_ || file_->name_.empty()) {
      return Status::Corruption("RobinHoodTable: spill file read before closed");
    }
    IOStatus s = file_->dir_->Open(file_->name_, &in_);
    if (!s.ok()) return s;
    buf_.resize(std::max(buffer_bytes_, n));
  }
  // Move what is left to the front, then fill the rest.
  memmove(&buf_[0], buf_.data() + pos_, end_ - pos_);
  end_ -= pos_;
  pos_ = 0;
  while (end_ < n && read_ < file_->size()) {
    const size_t want = static_cast<size_t>(
        std::min<uint64_t>(buf_.size() - end_, file_->size() - read_));
    Slice got;
    IOStatus s = in_->Read(want, IOOptions(), &got, &buf_[end_], nullptr);
    if (!s.ok()) return s;
    if (got.empty()) {
      return Status::IOError("RobinHoodTable: spill file " + file_->name_ +
                             " shorter than written");
    }
    if (got.data() != &buf_[end_]) memmove(&buf_[end_], got.data(), got.size());
    end_ += got.size();
    read_ += got.size();
  }
  return Status::OK();
}

Status SpillFile::ForEachPiece(
    const std::function<Status(const Slice&)>& sink) {
  Status s = Close();
  Reader r(this, kBufferBytes);
  while (s.ok() && !r.done()) {
    s = r.Fill(kBufferBytes);
    if (s.ok()) s = sink(r.available());
    r.Skip(r.available().size());
  }
  return s;
}

Status SpillFile::ForEachRecord(
    const std::function<size_t(const Slice&)>& length,
    const std::function<Status(const Slice&)>& visit) {
  Status s = Close();
  Reader r(this, kBufferBytes);
  while (s.ok() && !r.done()) {
    // A record's length is told from its first bytes; make sure the
    // buffer holds a whole one before asking.
    s = r.Fill(kMaxRecordBytes);
    if (!s.ok()) break;
    const size_t n = length(r.available());
    if (n == 0 || n > r.available().size()) return RecordCutShort();
    s = visit(Slice(r.available().data(), n));
    r.Skip(n);
  }
  return s;
}

Status SpillBuffer::Spill(SpillDir* dir) {
  if (file_ != nullptr) return Status::OK();
  file_.reset(new SpillFile(dir));
  Status s = file_->Append(mem_);
  std::string().swap(mem_);
  return s;
}

Status SpillBuffer::ForEachPiece(
    const std::function<Status(const Slice&)>& sink) {
  if (file_ == nullptr) {
    for (size_t at = 0; at < mem_.size(); at += SpillFile::kBufferBytes) {
      Status s = sink(Slice(mem_.data() + at,
                            std::min(SpillFile::kBufferBytes, mem_.size() - at)));
      if (!s.ok()) return s;
    }
    return Status::OK();
  }
  return file_->ForEachPiece(sink);
}

Status SpillBuffer::ForEachRecord(
    const std::function<size_t(const Slice&)>& length,
    const std::function<Status(const Slice&)>& visit) {
  if (file_ != nullptr) return file_->ForEachRecord(length, visit);
  Slice rest(mem_);
  while (!rest.empty()) {
    const size_t n = length(rest);
    if (n == 0 || n > rest.size()) return RecordCutShort();
    Status s = visit(Slice(rest.data(), n));
    if (!s.ok()) return s;
    rest.remove_prefix(n);
  }
  return Status::OK();
}

void SpillBuffer::Clear() {
  std::string().swap(mem_);
  file_.reset();
  size_ = 0;
}

}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
