// rh_load's library in Python: its input readers and its loader, so that
// the package reads the input formats with the very parser rh_load uses
// and builds files with the very sort, duplicate rule and builder it uses.
//
//   for key, value in rh.read_input(path, "tsv"): ...
//   rh.load(inputs, output_dir, input_format="binary", memory_limit=...,
//           threads=1, target_file_size=..., tmp_dir="", db="",
//           column_family="default", options="", on_duplicate="last")
//     -> {"files", "entries", "entries_read", "runs", "file_bytes",
//         "read_seconds", "build_seconds", "ingest_seconds", "seconds"}
//
// load() is rh_load's command without its flags' parsing, and the GIL is
// released while it runs. Bad input raises rh.InvalidArgument or
// rh.Corruption with rh_load's message (file, line or record, offset).
#include <pybind11/stl.h>

#include <utility>
#include <vector>

#include "tools/load/input_reader.h"
#include "tools/load/loader.h"
#include "tools/python/binding/binding.h"

namespace rh_python {

using ROCKSDB_NAMESPACE::Slice;
using ROCKSDB_NAMESPACE::Status;

namespace {

rh_load::InputFormat FormatNamed(const std::string& name) {
  rh_load::InputFormat f;
  if (!rh_load::ParseInputFormat(name, &f)) {
    RaiseIfError(Status::InvalidArgument(
        "input format " + name + ": expected tsv, csv, binary or db"));
  }
  return f;
}

class InputIterator {
 public:
  InputIterator(const py::object& path, const std::string& format,
                const std::string& column_family)
      : path_(PathString(path)) {
    Status s = rh_load::OpenInput(FormatNamed(format), path_, column_family,
                                  &reader_);
    RaiseIfError(s);
  }

  py::tuple Next() {
    Slice k, v;
    bool has = false;
    if (reader_ == nullptr) throw py::stop_iteration();
    const Status s = reader_->Next(&k, &v, &has);
    if (!s.ok()) reader_.reset();
    RaiseIfError(s);
    if (!has) {
      reader_.reset();  // closes the file now, not when Python collects
      throw py::stop_iteration();
    }
    return py::make_tuple(py::bytes(k.data(), k.size()),
                          py::bytes(v.data(), v.size()));
  }

 private:
  const std::string path_;
  std::unique_ptr<rh_load::InputReader> reader_;
};

py::dict Load(const py::iterable& inputs, const py::object& output_dir,
              const std::string& input_format, uint64_t memory_limit,
              int threads, uint64_t target_file_size,
              const std::string& tmp_dir, const std::string& db,
              const std::string& column_family, const std::string& options,
              const std::string& on_duplicate) {
  rh_load::LoadOptions o;
  for (const py::handle& p : inputs) o.inputs.push_back(PathString(p));
  o.format = FormatNamed(input_format);
  o.output_dir = PathString(output_dir);
  o.memory_limit = memory_limit;
  o.threads = threads;
  o.target_file_size = target_file_size;
  o.tmp_dir = tmp_dir;
  o.db = db;
  o.column_family = column_family;
  o.table_options = options;
  if (!rh_load::ParseOnDuplicate(on_duplicate, &o.on_duplicate)) {
    RaiseIfError(Status::InvalidArgument(
        "on_duplicate " + on_duplicate + ": expected last, first or error"));
  }
  rh_load::LoadSummary summary;
  Status s;
  {
    py::gil_scoped_release unlocked;
    s = rh_load::Load(o, &summary);
  }
  RaiseIfError(s);
  py::dict d;
  d["files"] = summary.files;
  d["entries"] = summary.entries;
  d["entries_read"] = summary.entries_read;
  d["runs"] = summary.runs;
  d["file_bytes"] = summary.file_bytes;
  d["read_seconds"] = summary.read_seconds;
  d["build_seconds"] = summary.build_seconds;
  d["ingest_seconds"] = summary.ingest_seconds;
  d["seconds"] = summary.seconds;
  return d;
}

}  // namespace

void DefineLoad(py::module_& m) {
  py::class_<InputIterator>(m, "InputIterator")
      .def("__iter__", [](InputIterator& it) -> InputIterator& { return it; },
           py::return_value_policy::reference_internal)
      .def("__next__", &InputIterator::Next);
  m.def(
      "read_input",
      [](const py::object& path, const std::string& format,
         const std::string& column_family) {
        return std::make_unique<InputIterator>(path, format, column_family);
      },
      py::arg("path"), py::arg("input_format"),
      py::arg("column_family") = "default",
      "The (key, value) entries of an input file in one of rh_load's "
      "formats (tsv, csv, binary, db), in input order.");
  const rh_load::LoadOptions defaults;
  m.def("load", &Load, py::arg("inputs"), py::arg("output_dir"),
        py::arg("input_format") = "tsv",
        py::arg("memory_limit") = defaults.memory_limit,
        py::arg("threads") = defaults.threads,
        py::arg("target_file_size") = defaults.target_file_size,
        py::arg("tmp_dir") = "", py::arg("db") = "",
        py::arg("column_family") = "default", py::arg("options") = "",
        py::arg("on_duplicate") = "last",
        "rh_load: sort the inputs within memory_limit and write "
        "range-partitioned RobinHoodTable files into output_dir "
        "(ingested into db if given).");
}

}  // namespace rh_python
