// The table-level harness shared by the table and corruption suites: a
// scratch file built by RobinHoodTableBuilder and opened by
// RobinHoodTableReader, through the factory as RocksDB's table cache does
// (or directly, where a test swaps the hash function or passes a largest
// seqno), with mmap on or off.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "db/dbformat.h"
#include "file/random_access_file_reader.h"
#include "file/writable_file_writer.h"
#include "options/cf_options.h"
#include "rocksdb/env.h"
#include "rocksdb/file_system.h"
#include "rocksdb/options.h"
#include "rocksdb_robinhood/robinhood_table.h"
#include "table/robinhood_table_builder.h"
#include "table/inline_layout.h"
#include "table/log_layout.h"
#include "table/paged_log_layout.h"
#include "table/robinhood_table_reader.h"
#include "tests/test_util.h"

namespace ROCKSDB_NAMESPACE {
namespace robinhood {
namespace harness {

// (internal key, value) pairs, in the order a builder receives them.
using Entries = std::vector<std::pair<std::string, std::string>>;

inline std::string IKey(const std::string& user_key, SequenceNumber seq,
                        ValueType type) {
  std::string k;
  AppendInternalKey(&k, ParsedInternalKey(user_key, seq, type));
  return k;
}

// The view of an open RobinHoodTable reader, and its layout's own parts:
// the slots of an inline file (null for a log file), the blocks of a log
// (none for an inline file; a log tail's for pages then a log).
inline const TableView& ViewOf(const TableReader* t) {
  return static_cast<const RobinHoodTableReader*>(t)->view();
}
inline const InlineTable* InlineOf(const TableReader* t) {
  const InlineLayout* in = ViewOf(t).layout().AsInline();
  return in != nullptr ? &in->table() : nullptr;
}
// Whether the reader times its lookups of `user_key`: one key in 64, by
// what lookups sample by (layout.h SampleOf).
inline bool TimedKey(const TableReader* t, const Slice& user_key) {
  const Layout& layout = ViewOf(t).layout();
  return Residency::Sampled(
      SampleOf(layout.HashOf(user_key), layout.HashIsKeyHash()));
}
inline const BlockTable& BlocksOf(const TableReader* t) {
  static const BlockTable kNone;
  const Layout& layout = ViewOf(t).layout();
  const LogLayout* log = layout.AsPagedLog() != nullptr
                             ? &layout.AsPagedLog()->log()
                             : layout.AsLog();
  return log != nullptr ? log->blocks() : kNone;
}

// A file system file that records the ranges read from it.
class RecordingFile : public FSRandomAccessFileOwnerWrapper {
 public:
  using Reads = std::vector<std::pair<uint64_t, size_t>>;
  RecordingFile(std::unique_ptr<FSRandomAccessFile> t, Reads* reads)
      : FSRandomAccessFileOwnerWrapper(std::move(t)), reads_(reads) {}
  IOStatus Read(uint64_t offset, size_t n, const IOOptions& o, Slice* result,
                char* scratch, IODebugContext* dbg) const override {
    reads_->emplace_back(offset, n);
    return target()->Read(offset, n, o, result, scratch, dbg);
  }

 private:
  Reads* const reads_;
};

class TableFile {
 public:
  // A scratch file named after `name`, deleted at the end; or, with
  // `existing`, a file of someone else's (a DB's) to read.
  explicit TableFile(const std::string& name, bool existing = false)
      : path_(existing ? name : test_util::TempPath("table", name + ".sst")),
        owned_(!existing),
        factory_(NewRobinHoodTableFactory()) {
    for (int mmap = 0; mmap < 2; ++mmap) {
      options_[mmap].allow_mmap_reads = mmap != 0;
      ioptions_[mmap].reset(new ImmutableOptions(options_[mmap]));
    }
    moptions_.reset(new MutableCFOptions(options_[0]));
  }
  ~TableFile() {
    if (owned_) Env::Default()->DeleteFile(path_);
  }

  const std::string& path() const { return path_; }
  const InternalKeyComparator& icmp() const { return icmp_; }
  const ImmutableOptions& ioptions(bool mmap = false) const {
    return *ioptions_[mmap];
  }

  // Writes `entries` with a builder of `opts`. `hash` other than the
  // format's builds directly (the factory always uses KeyHash); `*peak`
  // gets the builder's peak index memory.
  Status Build(const Entries& entries, const RobinHoodTableOptions& opts,
               CompressionType compression = kNoCompression,
               HashFunction hash = &KeyHash, size_t* peak = nullptr) {
    factory_.reset(NewRobinHoodTableFactory(opts));
    std::unique_ptr<FSWritableFile> f;
    Status s = ioptions_[0]->fs->NewWritableFile(path_, FileOptions(), &f,
                                                 nullptr);
    if (!s.ok()) return s;
    if (wrap_writes_) f = wrap_writes_(std::move(f));
    WritableFileWriter writer(std::move(f), path_, write_options_);
    compat::OwnedBuilderOptions owned(*ioptions_[0], *moptions_, icmp_,
                                      compression);
    const TableBuilderOptions& tbo = owned.tbo;
    std::unique_ptr<RobinHoodTableBuilder> builder(
        hash == &KeyHash ? static_cast<RobinHoodTableBuilder*>(
                               factory_->NewTableBuilder(tbo, &writer))
                         : new RobinHoodTableBuilder(opts, tbo, &writer, hash));
    for (const auto& e : entries) {
      builder->Add(e.first, e.second);
    }
    estimated_before_finish_ = builder->EstimatedFileSize();
    s = builder->Finish();
    EXPECT_EQ(builder->NumEntries(), entries.size());  // as BlockBasedTable's
    if (peak != nullptr) *peak = builder->PeakMemoryUsage();
    if (s.ok()) s = compat::Close(&writer);
    if (s.ok()) {
      EXPECT_EQ(builder->FileSize(), FileSize());
    }
    return s;
  }

  // What the last Build's builder estimated its file's size at, with
  // every entry added (RocksDB cuts compaction outputs by it).
  uint64_t estimated_before_finish() const { return estimated_before_finish_; }

  uint64_t FileSize() const {
    uint64_t size = 0;
    EXPECT_OK(Env::Default()->GetFileSize(path_, &size));
    return size;
  }
  std::string Bytes() const {
    std::string bytes;
    EXPECT_OK(ReadFileToString(Env::Default(), path_, &bytes));
    return bytes;
  }
  void Write(const std::string& bytes) {
    ASSERT_OK(WriteStringToFile(Env::Default(), bytes, path_, false));
  }

  // Readers opened from now on take their time from `clock` (the
  // ImmutableOptions' clock a DB passes them; owned by the caller).
  void SetClock(SystemClock* clock) {
    for (auto& io : ioptions_) io->clock = clock;
  }
  // Readers opened from now on count their tickers in `stats` (owned by
  // the caller), as a DB's do.
  void SetStatistics(Statistics* stats) {
    for (auto& io : ioptions_) io->stats = stats;
  }
  // Every file Open opens from now on passes through `wrap` (to watch or
  // change its reads).
  using Wrap = std::function<std::unique_ptr<FSRandomAccessFile>(
      std::unique_ptr<FSRandomAccessFile>)>;
  void WrapReads(Wrap wrap) { wrap_ = std::move(wrap); }
  // Every file Build writes from now on passes through `wrap` (to watch
  // its writes), behind a WritableFileWriter made with `options`.
  using WrapWrite = std::function<std::unique_ptr<FSWritableFile>(
      std::unique_ptr<FSWritableFile>)>;
  void WrapWrites(WrapWrite wrap, const FileOptions& options) {
    wrap_writes_ = std::move(wrap);
    write_options_ = options;
  }

  // Later Opens open the file mapped or not whatever their `mmap` (which
  // then only sets the reader's allow_mmap_reads), as RocksDB's repair
  // opens a DB's files for positioned reads under any options.
  void OpenFilesMapped(bool mapped) { file_mapped_ = mapped; }

  // Opens the file on disk, telling the reader it has `size` bytes (the
  // size on disk unless given): through the factory, or directly with a
  // swapped `hash` or a `largest_seqno` (TableReaderOptions' meaning).
  // `immortal`: as RocksDB's read-only DB opens its tables.
  Status Open(bool mmap, std::unique_ptr<TableReader>* table,
              uint64_t size = ~uint64_t{0}, HashFunction hash = &KeyHash,
              SequenceNumber largest_seqno = 0, bool immortal = false) {
    if (size == ~uint64_t{0}) {
      Status s = Env::Default()->GetFileSize(path_, &size);
      if (!s.ok()) return s;
    }
    FileOptions fo;
    fo.use_mmap_reads = file_mapped_ < 0 ? mmap : file_mapped_ != 0;
    std::unique_ptr<FSRandomAccessFile> raf;
    Status s =
        ioptions_[mmap]->fs->NewRandomAccessFile(path_, fo, &raf, nullptr);
    if (!s.ok()) return s;
    if (wrap_) raf = wrap_(std::move(raf));
    std::unique_ptr<RandomAccessFileReader> reader(
        new RandomAccessFileReader(std::move(raf), path_));
    table->reset();
    if (hash != &KeyHash || largest_seqno != 0) {
      return RobinHoodTableReader::Open(*ioptions_[mmap], icmp_,
                                        std::move(reader), size,
                                        largest_seqno, table, hash);
    }
    TableReaderOptions tro = compat::MakeReaderOptions(
        *ioptions_[mmap], no_prefix_, env_options_, icmp_);
    tro.immortal = immortal;
    return factory_->NewTableReader(ReadOptions(), tro, std::move(reader),
                                    size, table, false);
  }

 private:
  const std::string path_;
  const bool owned_;
  uint64_t estimated_before_finish_ = 0;
  int file_mapped_ = -1;  // as Open's mmap
  Wrap wrap_;
  WrapWrite wrap_writes_;
  FileOptions write_options_;
  std::shared_ptr<TableFactory> factory_;
  Options options_[2];
  std::unique_ptr<ImmutableOptions> ioptions_[2];
  std::unique_ptr<MutableCFOptions> moptions_;
  const InternalKeyComparator icmp_{BytewiseComparator()};
  const std::shared_ptr<const SliceTransform> no_prefix_;
  const EnvOptions env_options_;  // TableReaderOptions refers to it
};

}  // namespace harness
}  // namespace robinhood
}  // namespace ROCKSDB_NAMESPACE
