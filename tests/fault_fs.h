// A file system for tests that misbehaves on request: it wraps RocksDB's
// own and makes chosen appends, syncs, closes or reads fail, or makes reads
// come back short or with a flipped bit, at a chosen call (the Nth matching
// one) or at random with a seed the test prints, so a failure replays.
//
//   auto fs = std::make_shared<FaultFS>(FileSystem::Default());
//   std::unique_ptr<Env> env = NewFaultEnv(fs);
//   options.env = env.get();
//   fs->Arm({FaultFS::kAppend, ".sst", /*nth=*/1});  // next SST append fails
//   ...
//   fs->Clear();
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "env/composite_env_wrapper.h"
#include "rocksdb/env.h"
#include "rocksdb/file_system.h"
#include "rocksdb/system_clock.h"
#include "table/compat.h"

namespace ROCKSDB_NAMESPACE {

class FaultFS : public FileSystemWrapper {
 public:
  enum Op { kAppend, kSync, kClose, kRead };
  enum Effect {
    kError,      // the call returns IOError and does nothing
    kShortRead,  // a read returns half of what it would (status OK)
    kFlipBit,    // a read returns one bit flipped (status OK)
  };

  struct Rule {
    Op op;
    std::string name_contains;  // files whose name contains this
    // Fire at the nth matching call counted from Arm (1-based); 0: fire
    // with `probability` on every matching call instead.
    uint64_t nth = 1;
    Effect effect = kError;
    // After firing at the nth call, fire on every later call too (a device
    // that stays broken), not just once.
    bool sticky = false;
    double probability = 0;
    uint64_t seed = 0;
    // For reads: only reads whose data contains this string count as
    // matching calls, and a kFlipBit flips the lowest bit of the first byte
    // of its first occurrence instead of a random bit, so a test can aim
    // at a key, a value, or the second read of the same bytes.
    std::string flip_where;
  };

  explicit FaultFS(const std::shared_ptr<FileSystem>& base)
      : FileSystemWrapper(base) {}

  static const char* kClassName() { return "RobinHoodTestFaultFS"; }
  const char* Name() const override { return kClassName(); }

  void Arm(const Rule& rule) {
    std::lock_guard<std::mutex> lock(mu_);
    rules_.push_back({rule, 0, std::mt19937_64(rule.seed)});
  }
  void Clear() {
    std::lock_guard<std::mutex> lock(mu_);
    rules_.clear();
  }
  // How many faults were injected since construction.
  uint64_t fired() const { return fired_.load(); }
  // Makes Sync/Fsync/RangeSync of files and directories return OK without
  // syncing; for tests that crash nothing and only need speed.
  void SkipSyncs(bool skip) { skip_syncs_.store(skip); }
  // Print every injected fault to stderr (to see where a failure began).
  void Verbose(bool on) { verbose_.store(on); }
  void Log(const std::string& what) const {
    if (verbose_.load()) fprintf(stderr, "FaultFS: %s\n", what.c_str());
  }
  bool skip_syncs() const { return skip_syncs_.load(); }
  // Counts the bytes that reads return from the SST files of directory
  // `dir` (from now on; empty: none), for tests of how much a job reads,
  // and those reads' timeouts, for tests of what options reach the file
  // system.
  void CountSstReadsIn(const std::string& dir) {
    std::lock_guard<std::mutex> lock(mu_);
    counted_dir_ = dir.empty() || dir.back() == '/' ? dir : dir + "/";
    sst_bytes_read_.store(0);
    sst_reads_ = sst_timed_reads_ = 0;
    longest_timeout_ = shortest_timeout_ = std::chrono::microseconds(0);
    counting_.store(!dir.empty());
  }
  uint64_t sst_bytes_read() const { return sst_bytes_read_.load(); }
  // Of the counted reads: how many, how many carried a timeout, and the
  // longest and shortest timeout among those.
  uint64_t sst_reads() const {
    std::lock_guard<std::mutex> lock(mu_);
    return sst_reads_;
  }
  uint64_t sst_timed_reads() const {
    std::lock_guard<std::mutex> lock(mu_);
    return sst_timed_reads_;
  }
  std::chrono::microseconds longest_timeout() const {
    std::lock_guard<std::mutex> lock(mu_);
    return longest_timeout_;
  }
  std::chrono::microseconds shortest_timeout() const {
    std::lock_guard<std::mutex> lock(mu_);
    return shortest_timeout_;
  }
  void NoteRead(const std::string& fname, const IOStatus& s,
                const Slice& data, const IOOptions& o) {
    if (!counting_.load(std::memory_order_relaxed) || !s.ok() || data.empty()) {
      return;
    }
    const Slice name(fname);
    std::lock_guard<std::mutex> lock(mu_);
    if (!counted_dir_.empty() && name.starts_with(counted_dir_) &&
        name.ends_with(".sst") &&
        fname.find('/', counted_dir_.size()) == std::string::npos) {
      sst_bytes_read_ += data.size();
      sst_reads_++;
      if (o.timeout.count() > 0) {
        longest_timeout_ = sst_timed_reads_ == 0
                               ? o.timeout
                               : std::max(longest_timeout_, o.timeout);
        shortest_timeout_ = sst_timed_reads_ == 0
                                ? o.timeout
                                : std::min(shortest_timeout_, o.timeout);
        sst_timed_reads_++;
      }
    }
  }

  // Whether a call `op` on `fname` fails now and how; for reads, `pick`
  // gets a random number to choose which byte to damage, and `data` is
  // what the read returned.
  bool Decide(Op op, const std::string& fname, Effect* effect,
              uint64_t* pick, std::string* flip_where = nullptr,
              const Slice* data = nullptr) {
    std::lock_guard<std::mutex> lock(mu_);
    for (Armed& a : rules_) {
      if (a.rule.op != op ||
          fname.find(a.rule.name_contains) == std::string::npos) {
        continue;
      }
      if (!a.rule.flip_where.empty() &&
          (data == nullptr ||
           data->ToString().find(a.rule.flip_where) == std::string::npos)) {
        continue;
      }
      a.calls++;
      bool fire;
      if (a.rule.nth == 0) {
        fire = std::uniform_real_distribution<double>(0, 1)(a.rng) <
               a.rule.probability;
      } else {
        fire = a.calls == a.rule.nth || (a.rule.sticky && a.calls > a.rule.nth);
      }
      if (fire) {
        *effect = a.rule.effect;
        *pick = a.rng();
        if (flip_where != nullptr) *flip_where = a.rule.flip_where;
        fired_++;
        return true;
      }
    }
    return false;
  }

  static IOStatus Injected(const char* what, const std::string& fname) {
    return IOStatus::IOError(std::string("injected ") + what + " fault", fname);
  }

  IOStatus NewWritableFile(const std::string& f, const FileOptions& o,
                           std::unique_ptr<FSWritableFile>* r,
                           IODebugContext* dbg) override {
    IOStatus s = target()->NewWritableFile(f, o, r, dbg);
    if (s.ok()) r->reset(new Writable(this, f, std::move(*r)));
    return s;
  }
  IOStatus ReopenWritableFile(const std::string& f, const FileOptions& o,
                              std::unique_ptr<FSWritableFile>* r,
                              IODebugContext* dbg) override {
    IOStatus s = target()->ReopenWritableFile(f, o, r, dbg);
    if (s.ok()) r->reset(new Writable(this, f, std::move(*r)));
    return s;
  }
  IOStatus ReuseWritableFile(const std::string& f, const std::string& old,
                             const FileOptions& o,
                             std::unique_ptr<FSWritableFile>* r,
                             IODebugContext* dbg) override {
    IOStatus s = target()->ReuseWritableFile(f, old, o, r, dbg);
    if (s.ok()) r->reset(new Writable(this, f, std::move(*r)));
    return s;
  }
  IOStatus NewRandomAccessFile(const std::string& f, const FileOptions& o,
                               std::unique_ptr<FSRandomAccessFile>* r,
                               IODebugContext* dbg) override {
    IOStatus s = target()->NewRandomAccessFile(f, o, r, dbg);
    if (s.ok()) r->reset(new RandomAccess(this, f, std::move(*r)));
    return s;
  }
  IOStatus NewSequentialFile(const std::string& f, const FileOptions& o,
                             std::unique_ptr<FSSequentialFile>* r,
                             IODebugContext* dbg) override {
    IOStatus s = target()->NewSequentialFile(f, o, r, dbg);
    if (s.ok()) r->reset(new Sequential(this, f, std::move(*r)));
    return s;
  }
  IOStatus NewDirectory(const std::string& name, const IOOptions& io_opts,
                        std::unique_ptr<FSDirectory>* result,
                        IODebugContext* dbg) override {
    IOStatus s = target()->NewDirectory(name, io_opts, result, dbg);
    if (s.ok()) result->reset(new Directory(this, std::move(*result)));
    return s;
  }

 private:
  // Damages a read result as `effect` says. The result may point into a
  // mapping or a buffer the caller did not give, so damaged bytes are
  // copied into `keep`, which must live as long as the result is used.
  static void Damage(Effect effect, uint64_t pick, const std::string& where,
                     Slice* result, std::string* keep) {
    if (effect == kShortRead) {
      *result = Slice(result->data(), result->size() / 2);
      return;
    }
    if (result->empty()) return;
    keep->assign(result->data(), result->size());
    if (where.empty()) {
      (*keep)[pick % keep->size()] ^= static_cast<char>(1 << ((pick >> 32) % 8));
    } else {
      const size_t at = keep->find(where);
      if (at == std::string::npos) return;
      (*keep)[at] ^= 1;
    }
    *result = Slice(*keep);
  }

  class Writable : public FSWritableFileOwnerWrapper {
   public:
    Writable(FaultFS* fs, std::string name, std::unique_ptr<FSWritableFile> t)
        : FSWritableFileOwnerWrapper(std::move(t)),
          fs_(fs),
          name_(std::move(name)) {}
    IOStatus Append(const Slice& data, const IOOptions& o,
                    IODebugContext* dbg) override {
      if (Fails(kAppend)) return Injected("append", name_);
      return target()->Append(data, o, dbg);
    }
    IOStatus Append(const Slice& data, const IOOptions& o,
                    const DataVerificationInfo& v,
                    IODebugContext* dbg) override {
      if (Fails(kAppend)) return Injected("append", name_);
      return target()->Append(data, o, v, dbg);
    }
    IOStatus PositionedAppend(const Slice& data, uint64_t offset,
                              const IOOptions& o,
                              IODebugContext* dbg) override {
      if (Fails(kAppend)) return Injected("append", name_);
      return target()->PositionedAppend(data, offset, o, dbg);
    }
    IOStatus PositionedAppend(const Slice& data, uint64_t offset,
                              const IOOptions& o,
                              const DataVerificationInfo& v,
                              IODebugContext* dbg) override {
      if (Fails(kAppend)) return Injected("append", name_);
      return target()->PositionedAppend(data, offset, o, v, dbg);
    }
    IOStatus Sync(const IOOptions& o, IODebugContext* dbg) override {
      if (Fails(kSync)) return Injected("sync", name_);
      return fs_->skip_syncs() ? IOStatus::OK() : target()->Sync(o, dbg);
    }
    IOStatus Fsync(const IOOptions& o, IODebugContext* dbg) override {
      if (Fails(kSync)) return Injected("sync", name_);
      return fs_->skip_syncs() ? IOStatus::OK() : target()->Fsync(o, dbg);
    }
    IOStatus RangeSync(uint64_t offset, uint64_t n, const IOOptions& o,
                       IODebugContext* dbg) override {
      if (Fails(kSync)) return Injected("sync", name_);
      return fs_->skip_syncs() ? IOStatus::OK()
                               : target()->RangeSync(offset, n, o, dbg);
    }
    IOStatus Close(const IOOptions& o, IODebugContext* dbg) override {
      // The descriptor is released either way, as a failing close(2) does.
      IOStatus s = target()->Close(o, dbg);
      if (Fails(kClose)) return Injected("close", name_);
      return s;
    }

   private:
    bool Fails(Op op) {
      Effect e;
      uint64_t pick;
      if (!fs_->Decide(op, name_, &e, &pick)) return false;
      fs_->Log(std::string(op == kAppend ? "append" : op == kSync ? "sync" : "close") +
               " fails on " + name_);
      return true;
    }
    FaultFS* const fs_;
    const std::string name_;
  };

  class RandomAccess : public FSRandomAccessFileOwnerWrapper {
   public:
    RandomAccess(FaultFS* fs, std::string name,
                 std::unique_ptr<FSRandomAccessFile> t)
        : FSRandomAccessFileOwnerWrapper(std::move(t)),
          fs_(fs),
          name_(std::move(name)) {}
    IOStatus Read(uint64_t offset, size_t n, const IOOptions& o,
                  Slice* result, char* scratch,
                  IODebugContext* dbg) const override {
      // Read first, so a rule can choose reads by what they return.
      IOStatus s = target()->Read(offset, n, o, result, scratch, dbg);
      fs_->NoteRead(name_, s, *result, o);
      Effect e;
      uint64_t pick;
      std::string where;
      if (!s.ok() || !fs_->Decide(kRead, name_, &e, &pick, &where, result)) {
        return s;
      }
      fs_->Log(std::string(e == kError ? "error" : e == kShortRead ? "short" : "flip") +
               " on read of " + std::to_string(n) + " bytes at " +
               std::to_string(offset) + " of " + name_ + " (pick " +
               std::to_string(pick) + ")");
      if (e == kError) return Injected("read", name_);
      // An mmap file's results stay valid while the file is open, so its
      // damaged copies must too.
      std::lock_guard<std::mutex> lock(mu_);
      kept_.emplace_back();
      Damage(e, pick, where, result, &kept_.back());
      return s;
    }
    // Through Read, so batched and asynchronous reads meet the faults too.
    IOStatus MultiRead(FSReadRequest* reqs, size_t n, const IOOptions& o,
                       IODebugContext* dbg) override {
      for (size_t i = 0; i < n; i++) {
        reqs[i].status = Read(reqs[i].offset, reqs[i].len, o, &reqs[i].result,
                              reqs[i].scratch, dbg);
      }
      return IOStatus::OK();
    }
    IOStatus ReadAsync(FSReadRequest& req, const IOOptions& o,
                       robinhood::compat::ReadAsyncCallback cb,
                       void* cb_arg, void** /*io_handle*/,
                       IOHandleDeleter* /*del_fn*/,
                       IODebugContext* dbg) override {
      req.status = Read(req.offset, req.len, o, &req.result, req.scratch, dbg);
      cb(req, cb_arg);
      return IOStatus::OK();
    }

   private:
    FaultFS* const fs_;
    const std::string name_;
    mutable std::mutex mu_;
    mutable std::deque<std::string> kept_;
  };

  class Sequential : public FSSequentialFileOwnerWrapper {
   public:
    Sequential(FaultFS* fs, std::string name,
               std::unique_ptr<FSSequentialFile> t)
        : FSSequentialFileOwnerWrapper(std::move(t)),
          fs_(fs),
          name_(std::move(name)) {}
    IOStatus Read(size_t n, const IOOptions& o, Slice* result, char* scratch,
                  IODebugContext* dbg) override {
      IOStatus s = target()->Read(n, o, result, scratch, dbg);
      fs_->NoteRead(name_, s, *result, o);
      Effect e;
      uint64_t pick;
      std::string where;
      if (!s.ok() || !fs_->Decide(kRead, name_, &e, &pick, &where, result)) {
        return s;
      }
      if (e == kError) return Injected("read", name_);
      // A short sequential read means the end of the file to the caller,
      // so only bit flips apply here.
      if (s.ok() && e == kFlipBit) Damage(e, pick, where, result, &kept_);
      return s;
    }
    IOStatus PositionedRead(uint64_t offset, size_t n, const IOOptions& o,
                            Slice* result, char* scratch,
                            IODebugContext* dbg) override {
      IOStatus s = target()->PositionedRead(offset, n, o, result, scratch, dbg);
      fs_->NoteRead(name_, s, *result, o);
      Effect e;
      uint64_t pick;
      std::string where;
      if (s.ok() && fs_->Decide(kRead, name_, &e, &pick, &where, result)) {
        return Injected("read", name_);
      }
      return s;
    }

   private:
    FaultFS* const fs_;
    const std::string name_;
    std::string kept_;
  };

  class Directory : public FSDirectoryWrapper {
   public:
    Directory(FaultFS* fs, std::unique_ptr<FSDirectory> t)
        : FSDirectoryWrapper(std::move(t)), fs_(fs) {}
    IOStatus Fsync(const IOOptions& o, IODebugContext* dbg) override {
      return fs_->skip_syncs() ? IOStatus::OK() : FSDirectoryWrapper::Fsync(o, dbg);
    }
    IOStatus FsyncWithDirOptions(const IOOptions& o, IODebugContext* dbg,
                                 const DirFsyncOptions& d) override {
      return fs_->skip_syncs()
                 ? IOStatus::OK()
                 : FSDirectoryWrapper::FsyncWithDirOptions(o, dbg, d);
    }

   private:
    FaultFS* const fs_;
  };

  struct Armed {
    Rule rule;
    uint64_t calls;
    std::mt19937_64 rng;
  };
  mutable std::mutex mu_;
  std::vector<Armed> rules_;
  std::atomic<uint64_t> fired_{0};
  std::string counted_dir_;  // guarded by mu_
  std::atomic<uint64_t> sst_bytes_read_{0};
  uint64_t sst_reads_ = 0;        // guarded by mu_, as the three below
  uint64_t sst_timed_reads_ = 0;
  std::chrono::microseconds longest_timeout_{0};
  std::chrono::microseconds shortest_timeout_{0};
  std::atomic<bool> counting_{false};
  std::atomic<bool> skip_syncs_{false};
  std::atomic<bool> verbose_{false};
};

// RocksDB sleeps a second after a failed flush or compaction before it
// schedules more background work; tests that fail dozens of them on
// purpose wait a hundredth of that.
class ShortSleepClock : public SystemClockWrapper {
 public:
  ShortSleepClock() : SystemClockWrapper(SystemClock::Default()) {}
  static const char* kClassName() { return "RobinHoodTestShortSleepClock"; }
  const char* Name() const override { return kClassName(); }
  void SleepForMicroseconds(int micros) override {
    target_->SleepForMicroseconds(std::min(micros, 10000));
  }
};

// An Env whose files go through `fs` and whose sleeps are short.
inline std::unique_ptr<Env> NewFaultEnv(const std::shared_ptr<FaultFS>& fs) {
  return std::unique_ptr<Env>(new CompositeEnvWrapper(
      Env::Default(), fs, std::make_shared<ShortSleepClock>()));
}

}  // namespace ROCKSDB_NAMESPACE
