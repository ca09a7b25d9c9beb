// rh.Writer: one RobinHoodTable SST file written with RocksDB's
// SstFileWriter, ready for DB.ingest. Keys must come in strictly increasing
// order (SstFileWriter's rule; it names the offence).
//
//   with rh.Writer(path, options="load_factor=0.85") as w:
//       w.put(b"a", b"1")
//       w.put_many(sorted_pairs)
//   w.info  ->  {"path", "entries", "bytes", "layout", "smallest_key",
//                "largest_key"}
//
// Leaving the `with` block normally finishes the file; leaving it by an
// exception, or abandon(), removes it, as does dropping a writer that was
// never finished: a half-written file is of no use to anyone.
//
// put_many copies a batch of pairs while holding the GIL, then builds from
// the copy with the GIL released, so other Python threads (or a Dask
// worker's other tasks) run while the file is built; finish releases it too.
#include <unistd.h>

#include <utility>
#include <vector>

#include "rocksdb/env.h"
#include "rocksdb/sst_file_reader.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/table_properties.h"
#include "rocksdb_robinhood/robinhood_table.h"
#include "tools/python/binding/binding.h"

namespace rh_python {

using namespace ROCKSDB_NAMESPACE;

namespace {

// A put_many batch: large enough that releasing the GIL is cheap beside
// the work, small enough to bound the copy's memory.
constexpr size_t kBatchBytes = 8u << 20;
constexpr size_t kBatchEntries = 65536;

class Writer {
 public:
  Writer(const py::object& path, const std::string& table_options)
      : path_(PathString(path)), options_(OptionsFromString(table_options)) {
    writer_.reset(new SstFileWriter(EnvOptions(options_), options_));
    Status s;
    {
      py::gil_scoped_release unlocked;
      s = writer_->Open(path_);
    }
    if (!s.ok()) writer_.reset();
    RaiseIfError(s, path_);
  }

  ~Writer() {
    if (writer_ != nullptr) Abandon();
  }

  void Put(const py::bytes& key, const py::bytes& value) {
    CheckOpen();
    Status s = writer_->Put(BytesSlice(key, "key"), BytesSlice(value, "value"));
    RaiseIfError(s, path_ + ", entry " + std::to_string(entries_));
    ++entries_;
  }

  // `pairs`: any iterable of (key, value) bytes pairs, in key order.
  void PutMany(const py::iterable& pairs) {
    CheckOpen();
    std::vector<std::pair<std::string, std::string>> batch;
    size_t bytes = 0;
    for (const py::handle& pair : pairs) {
      const py::tuple t = py::reinterpret_borrow<py::object>(pair);
      if (t.size() != 2) {
        throw py::value_error("put_many: entry " +
                              std::to_string(entries_ + batch.size()) +
                              " is not a (key, value) pair");
      }
      const std::string_view k = BytesView(t[0], "key");
      const std::string_view v = BytesView(t[1], "value");
      batch.emplace_back(std::string(k), std::string(v));
      bytes += k.size() + v.size();
      if (bytes >= kBatchBytes || batch.size() >= kBatchEntries) {
        Build(&batch);
        bytes = 0;
      }
    }
    Build(&batch);
  }

  py::dict Finish() {
    CheckOpen();
    ExternalSstFileInfo file;
    Status s;
    std::string layout;
    {
      py::gil_scoped_release unlocked;
      s = writer_->Finish(&file);
      if (s.ok()) s = ReadLayout(&layout);
    }
    writer_.reset();
    if (!s.ok()) unlink(path_.c_str());
    RaiseIfError(s, path_);
    info_ = py::dict();
    info_["path"] = path_;
    info_["entries"] = file.num_entries;
    info_["bytes"] = file.file_size;
    info_["layout"] = layout;
    info_["smallest_key"] = py::bytes(file.smallest_key);
    info_["largest_key"] = py::bytes(file.largest_key);
    return info_;
  }

  void Abandon() {
    writer_.reset();
    unlink(path_.c_str());
    abandoned_ = true;
  }

  py::dict Info() const {
    if (info_.empty()) {
      PyErr_SetString(PyExc_RuntimeError,
                      ("Writer(" + path_ + ") is not finished").c_str());
      throw py::error_already_set();
    }
    return info_;
  }

  bool Exit(const py::object& exc_type, const py::object&, const py::object&) {
    if (writer_ == nullptr) return false;
    if (exc_type.is_none()) {
      Finish();
    } else {
      Abandon();
    }
    return false;
  }

 private:
  void CheckOpen() const {
    if (writer_ != nullptr) return;
    RaiseIfError(Status::InvalidArgument(
                     abandoned_ ? "the writer was abandoned"
                                : "the writer is finished"),
                 path_);
  }

  Slice BytesSlice(const py::bytes& b, const char* what) {
    const std::string_view v = BytesView(b, what);
    return Slice(v.data(), v.size());
  }

  // Puts and clears `batch` with the GIL released.
  void Build(std::vector<std::pair<std::string, std::string>>* batch) {
    Status s;
    size_t done = 0;
    {
      py::gil_scoped_release unlocked;
      for (; done < batch->size(); ++done) {
        s = writer_->Put((*batch)[done].first, (*batch)[done].second);
        if (!s.ok()) break;
      }
    }
    RaiseIfError(s, path_ + ", entry " + std::to_string(entries_ + done));
    entries_ += batch->size();
    batch->clear();
  }

  // The layout the builder chose (inline or log), from the properties.
  Status ReadLayout(std::string* layout) {
    SstFileReader reader(options_);
    Status s = reader.Open(path_);
    if (!s.ok()) return s;
    const auto props = reader.GetTableProperties();
    const auto& user = props->user_collected_properties;
    const auto it = user.find(RobinHoodTablePropertyNames::kLayout);
    *layout = it == user.end() ? "log" : it->second;
    return s;
  }

  const std::string path_;
  const Options options_;
  std::unique_ptr<SstFileWriter> writer_;
  uint64_t entries_ = 0;
  bool abandoned_ = false;
  py::dict info_;
};

}  // namespace

void DefineWriter(py::module_& m) {
  py::class_<Writer>(m, "Writer",
                     "One RobinHoodTable SST file, written in key order.")
      .def(py::init<const py::object&, const std::string&>(), py::arg("path"),
           py::arg("options") = "")
      .def("put", &Writer::Put, py::arg("key"), py::arg("value"))
      .def("put_many", &Writer::PutMany, py::arg("pairs"))
      .def("finish", &Writer::Finish)
      .def("abandon", &Writer::Abandon)
      .def_property_readonly("info", &Writer::Info)
      .def("__enter__", [](Writer& w) -> Writer& { return w; },
           py::return_value_policy::reference)
      .def("__exit__", &Writer::Exit);
}

}  // namespace rh_python
