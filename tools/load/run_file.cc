#include "tools/load/run_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <cstring>

#include "tools/load/posix_io.h"

namespace rh_load {

namespace {
constexpr size_t kWriteBuffer = size_t(1) << 20;
}  // namespace

RunWriter::~RunWriter() {
  if (fd_ >= 0) close(fd_);
}

Status RunWriter::Open(const std::string& path) {
  fd_ = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) return IoError("cannot create run file", path);
  info_ = RunInfo();
  info_.path = path;
  buf_.reserve(kWriteBuffer + 64);
  return Status::OK();
}

Status RunWriter::Add(const RunRecord& r) {
  if (info_.records % kIndexInterval == 0) {
    // The order, checked where a key is copied anyway.
    assert(info_.index.empty() ||
           Slice(info_.index.back().key).compare(r.key) <= 0);
    info_.index.push_back(
        RunInfo::Mark{r.key.ToString(), info_.bytes + buf_.size()});
  }
  info_.records++;
  AppendRecord(&buf_, r);
  return buf_.size() >= kWriteBuffer ? Flush() : Status::OK();
}

Status RunWriter::Flush() {
  Status s = WriteAll(fd_, buf_.data(), buf_.size(), info_.path);
  info_.bytes += buf_.size();
  buf_.clear();
  return s;
}

Status RunWriter::Finish(RunInfo* info) {
  Status s = Flush();
  if (close(fd_) != 0 && s.ok()) s = IoError("cannot close run file", info_.path);
  fd_ = -1;
  *info = std::move(info_);
  return s;
}

namespace {

class MemorySource : public SortedSource {
 public:
  explicit MemorySource(const SortBuffer* buffer) : buffer_(buffer) {}
  Status Seek(const Slice& lo) override {
    i_ = buffer_->LowerBound(lo);
    Load();
    return Status::OK();
  }
  bool Valid() const override { return i_ < buffer_->size(); }
  const RunRecord& record() const override {
    assert(Valid());
    return record_;
  }
  Status Next() override {
    i_++;
    Load();
    return Status::OK();
  }

 private:
  void Load() {
    if (Valid()) record_ = buffer_->At(i_);
  }
  const SortBuffer* buffer_;
  size_t i_ = 0;
  RunRecord record_;
};

class RunSource : public SortedSource {
 public:
  RunSource(const RunInfo* run, size_t buffer_size)
      : run_(run), capacity_(std::max<size_t>(buffer_size, 4096)) {}
  ~RunSource() override {
    if (fd_ >= 0) close(fd_);
  }

  Status Seek(const Slice& lo) override {
    if (fd_ < 0) {
      fd_ = open(run_->path.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd_ < 0) return IoError("cannot open run file", run_->path);
    }
    // The last mark before `lo`: records from it on include every record
    // not less than `lo` (equal keys may precede a mark that equals `lo`).
    auto it = std::lower_bound(
        run_->index.begin(), run_->index.end(), lo,
        [](const RunInfo::Mark& m, const Slice& k) { return Slice(m.key).compare(k) < 0; });
    next_offset_ = it == run_->index.begin() ? 0 : std::prev(it)->offset;
    buf_.clear();
    pos_ = 0;
    valid_ = true;
    Status s = Load();
    while (s.ok() && valid_ && record_.key.compare(lo) < 0) s = Next();
    return s;
  }
  bool Valid() const override { return valid_; }
  const RunRecord& record() const override {
    assert(Valid());
    return record_;
  }
  Status Next() override {
    pos_ += record_size_;
    return Load();
  }

 private:
  // Decodes the record at pos_, reading more of the file as needed.
  Status Load() {
    for (;;) {
      const Slice rest(buf_.data() + pos_, buf_.size() - pos_);
      size_t need = 0;
      if (WholeRecord(rest, &need)) {
        Slice in = rest;
        Status s = DecodeRecord(&in, &record_);
        record_size_ = need;
        return s;
      }
      if (next_offset_ >= run_->bytes) {
        valid_ = false;
        return rest.empty() ? Status::OK()
                            : Status::Corruption("run file cut short", run_->path);
      }
      buf_.erase(0, pos_);
      pos_ = 0;
      const size_t want = std::max(capacity_, need + kMaxRecordHeader);
      const size_t have = buf_.size();
      const size_t n = std::min<uint64_t>(want - std::min(want, have) + 4096,
                                          run_->bytes - next_offset_);
      buf_.resize(have + n);
      Status s = ReadAll(fd_, &buf_[have], n, next_offset_, run_->path);
      if (!s.ok()) return s;
      next_offset_ += n;
    }
  }

  const RunInfo* run_;
  const size_t capacity_;
  int fd_ = -1;
  std::string buf_;
  size_t pos_ = 0;
  uint64_t next_offset_ = 0;
  bool valid_ = false;
  RunRecord record_;
  size_t record_size_ = 0;
};

}  // namespace

std::unique_ptr<SortedSource> NewMemorySource(const SortBuffer* buffer) {
  return std::make_unique<MemorySource>(buffer);
}

std::unique_ptr<SortedSource> NewRunSource(const RunInfo* run,
                                           size_t buffer_size) {
  return std::make_unique<RunSource>(run, buffer_size);
}

}  // namespace rh_load
