// The Dask job's sample and shuffle over an input file, in C++: a file is
// read with rh_load's parser and its entries never become Python objects,
// so these two phases run at the parser's speed. The job's bag inputs take
// the same steps in Python (tasks.py), with the same results.
//
//   sample_input(path, input_format, per_partition)
//     -> {"keys": [...], "entries": n, "bytes": b}
//   split_input(path, input_format, boundaries, shards, piece_dir)
//     -> {"entries": n, "pieces": {(shard, range): path}}
//
// Both must agree with tasks.py: the reservoir differs (another generator)
// but any uniform sample serves; the split must not differ at all: range r
// holds boundaries[r-1] <= key < boundaries[r], the shard is CRC-32 (zlib's,
// as Python's zlib.crc32) of the key modulo `shards` (0: no shards), and
// each piece holds its entries in input order in the binary input format.
#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <cstdio>
#include <map>
#include <random>
#include <utility>
#include <vector>

#include "tools/load/input_reader.h"
#include "tools/load/posix_io.h"
#include "tools/python/binding/binding.h"
#include "util/coding.h"

namespace rh_python {

using ROCKSDB_NAMESPACE::Slice;
using ROCKSDB_NAMESPACE::Status;

namespace {

// Buffered pieces are written out past this many bytes.
constexpr size_t kSplitBufferBytes = 8u << 20;

Status Open(const std::string& path, const std::string& format,
            std::unique_ptr<rh_load::InputReader>* reader) {
  rh_load::InputFormat f;
  if (!rh_load::ParseInputFormat(format, &f)) {
    return Status::InvalidArgument("input format " + format +
                                   ": expected tsv, csv, binary or db");
  }
  return rh_load::OpenInput(f, path, "default", reader);
}

py::dict SampleInput(const py::object& path_like, const std::string& format,
                     size_t per_partition) {
  const std::string path = PathString(path_like);
  std::vector<std::string> keys;
  uint64_t entries = 0, bytes = 0;
  Status s;
  {
    py::gil_scoped_release unlocked;
    std::unique_ptr<rh_load::InputReader> reader;
    s = Open(path, format, &reader);
    std::mt19937_64 rng(0);  // fixed: the same input, the same sample
    Slice k, v;
    bool has = true;
    while (s.ok()) {
      s = reader->Next(&k, &v, &has);
      if (!s.ok() || !has) break;
      ++entries;
      bytes += k.size() + v.size();
      if (keys.size() < per_partition) {
        keys.emplace_back(k.data(), k.size());
      } else {
        const uint64_t j = rng() % entries;
        if (j < per_partition) keys[j].assign(k.data(), k.size());
      }
    }
  }
  RaiseIfError(s);
  py::list out;
  for (const std::string& k : keys) out.append(py::bytes(k));
  py::dict d;
  d["keys"] = out;
  d["entries"] = entries;
  d["bytes"] = bytes;
  return d;
}

class Pieces {
 public:
  Pieces(std::string dir, std::string attempt)
      : dir_(std::move(dir)), attempt_(std::move(attempt)) {}

  Status Add(uint32_t shard, size_t range, const Slice& k, const Slice& v) {
    std::string& buf = buffers_[{shard, range}];
    char lengths[8];
    ROCKSDB_NAMESPACE::EncodeFixed32(lengths, static_cast<uint32_t>(k.size()));
    ROCKSDB_NAMESPACE::EncodeFixed32(lengths + 4,
                                     static_cast<uint32_t>(v.size()));
    buf.append(lengths, 8);
    buf.append(k.data(), k.size());
    buf.append(v.data(), v.size());
    held_ += 8 + k.size() + v.size();
    return held_ >= kSplitBufferBytes ? Flush() : Status::OK();
  }

  Status Flush() {
    for (auto& [where, buf] : buffers_) {
      if (buf.empty()) continue;
      const std::string path = Name(where, ".tmp");
      const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      if (fd < 0) return Status::IOError("cannot write " + path, strerror(errno));
      Status s = rh_load::WriteAll(fd, buf.data(), buf.size(), path);
      if (close(fd) != 0 && s.ok()) {
        s = Status::IOError("cannot close " + path, strerror(errno));
      }
      if (!s.ok()) return s;
      buf.clear();
    }
    held_ = 0;
    return Status::OK();
  }

  // Renames every piece to its final name; returns them.
  Status Publish(std::vector<std::pair<std::pair<uint32_t, size_t>,
                                       std::string>>* out) {
    Status s = Flush();
    for (const auto& entry : buffers_) {
      if (!s.ok()) break;
      const std::string final_path = Name(entry.first, ".bin");
      if (rename(Name(entry.first, ".tmp").c_str(), final_path.c_str()) != 0) {
        s = Status::IOError("cannot rename to " + final_path, strerror(errno));
      }
      out->emplace_back(entry.first, final_path);
    }
    return s;
  }

 private:
  std::string Name(const std::pair<uint32_t, size_t>& where,
                   const char* suffix) const {
    char tail[48];
    snprintf(tail, sizeof(tail), "-%04u-%05zu%s", where.first, where.second,
             suffix);
    return dir_ + "/" + attempt_ + tail;
  }

  const std::string dir_, attempt_;
  std::map<std::pair<uint32_t, size_t>, std::string> buffers_;
  size_t held_ = 0;
};

py::dict SplitInput(const py::object& path_like, const std::string& format,
                    const py::list& boundary_list, uint32_t shards,
                    const std::string& piece_dir, const std::string& attempt) {
  const std::string path = PathString(path_like);
  std::vector<std::string> boundaries;
  for (const py::handle& b : boundary_list) {
    boundaries.emplace_back(BytesView(b, "boundary"));
  }
  std::vector<std::pair<std::pair<uint32_t, size_t>, std::string>> published;
  uint64_t entries = 0;
  Status s;
  {
    py::gil_scoped_release unlocked;
    std::unique_ptr<rh_load::InputReader> reader;
    s = Open(path, format, &reader);
    Pieces pieces(piece_dir, attempt);
    Slice k, v;
    bool has = true;
    while (s.ok()) {
      s = reader->Next(&k, &v, &has);
      if (!s.ok() || !has) break;
      ++entries;
      const std::string_view key(k.data(), k.size());
      const size_t range =
          std::upper_bound(boundaries.begin(), boundaries.end(), key,
                           [](std::string_view a, const std::string& b) {
                             return a < std::string_view(b);
                           }) -
          boundaries.begin();
      const uint32_t shard =
          shards == 0 ? 0
                      : static_cast<uint32_t>(
                            crc32(0, reinterpret_cast<const Bytef*>(k.data()),
                                  static_cast<uInt>(k.size())) %
                            shards);
      s = pieces.Add(shard, range, k, v);
    }
    if (s.ok()) s = pieces.Publish(&published);
  }
  RaiseIfError(s);
  py::dict out;
  for (const auto& [where, p] : published) {
    out[py::make_tuple(where.first, where.second)] = p;
  }
  py::dict d;
  d["entries"] = entries;
  d["pieces"] = out;
  return d;
}

}  // namespace

void DefinePartition(py::module_& m) {
  m.def("sample_input", &SampleInput, py::arg("path"),
        py::arg("input_format"), py::arg("per_partition"),
        "A uniform sample of an input file's keys, with its entry and byte "
        "counts.");
  m.def("split_input", &SplitInput, py::arg("path"), py::arg("input_format"),
        py::arg("boundaries"), py::arg("shards"), py::arg("piece_dir"),
        py::arg("attempt"),
        "Writes an input file's entries into one binary piece file per "
        "(shard, range).");
}

}  // namespace rh_python
