#include "tools/load/range_builder.h"

#include <memory>

#include "rocksdb/env.h"
#include "rocksdb/sst_file_writer.h"
#include "tools/load/signals.h"

namespace rh_load {

using namespace ROCKSDB_NAMESPACE;

Status BuildRange(Merger* merger, const Slice& lo, const Options& options,
                  const FilePlan& plan,
                  const std::function<std::string(size_t)>& temp_name,
                  Progress* progress, std::vector<BuiltFile>* files) {
  Status s = merger->Seek(lo);
  std::unique_ptr<SstFileWriter> writer;
  BuiltFile current;
  uint64_t bytes = 0;
  auto finish = [&]() -> Status {
    ExternalSstFileInfo info;
    Status fs = writer->Finish(&info);
    writer.reset();
    if (!fs.ok()) return fs;
    current.entries = info.num_entries;
    current.file_bytes = info.file_size;
    progress->files_done.fetch_add(1, std::memory_order_relaxed);
    progress->file_bytes.fetch_add(info.file_size, std::memory_order_relaxed);
    files->push_back(current);
    return Status::OK();
  };
  uint64_t since_check = 0;
  while (s.ok()) {
    bool has = false;
    s = merger->Next(&has);
    if (!s.ok() || !has) break;
    if (writer == nullptr) {
      current = BuiltFile();
      current.path = temp_name(files->size());
      writer = std::make_unique<SstFileWriter>(EnvOptions(), options);
      s = writer->Open(current.path);
      if (!s.ok()) break;
      bytes = 0;
      current.entries = 0;
    }
    s = writer->Put(merger->key(), merger->value());
    if (!s.ok()) break;
    const uint64_t entry = merger->key().size() + merger->value().size();
    bytes += entry;
    current.entries++;
    progress->entries_out.fetch_add(1, std::memory_order_relaxed);
    if (++since_check == 4096) {
      since_check = 0;
      if (StopRequested()) s = Interrupted();
    }
    const double held = kBuilderBytesPerInputByte * double(bytes) +
                        double(kBuilderBytesPerEntry * current.entries);
    if (s.ok() && (bytes >= plan.target_bytes || held >= double(plan.builder_budget))) {
      current.cut_by_memory = bytes < plan.target_bytes;
      s = finish();
    }
  }
  if (writer != nullptr) {
    if (s.ok()) {
      s = finish();
    } else {
      writer.reset();  // the caller removes its file with the others
      files->push_back(current);
    }
  }
  return s;
}

}  // namespace rh_load
