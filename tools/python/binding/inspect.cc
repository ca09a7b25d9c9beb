// rh.inspect(path) -> dict: what `rh_inspect info --json` prints, made by
// the inspector's own code (its JSON written into memory, then parsed), so
// the two can never differ. A file rh_inspect refuses raises instead:
// rh.Corruption for a damaged file, rh.IOError for one that cannot be read,
// rh.InvalidArgument for one that is not a RobinHoodTable file.
#include <cstdio>
#include <cstdlib>

#include "tools/inspect/command.h"
#include "tools/inspect/table_file.h"
#include "tools/python/binding/binding.h"

namespace rh_python {

namespace {

using ROCKSDB_NAMESPACE::Status;

// rh_inspect's messages start with RocksDB's Status text where there is
// one; the rest are its own (file_kind.cc, table_file.cc).
Status AsStatus(const std::string& problem) {
  auto starts = [&](const char* p) { return problem.rfind(p, 0) == 0; };
  if (starts("Corruption: ")) return Status::Corruption(problem.substr(12));
  if (starts("IO error: ")) return Status::IOError(problem.substr(10));
  if (starts("cannot ")) return Status::IOError(problem);
  if (starts("Not implemented: ")) {
    return Status::NotSupported(problem.substr(17));
  }
  return Status::InvalidArgument(problem);
}

py::dict Inspect(const py::object& path_like) {
  const std::string path = PathString(path_like);
  rh_inspect::Args args;
  args.command = "info";
  args.file = path;
  args.json = true;
  char* buf = nullptr;
  size_t size = 0;
  FILE* out = open_memstream(&buf, &size);
  if (out == nullptr) throw std::bad_alloc();
  args.out = out;
  std::string problem;
  {
    py::gil_scoped_release unlocked;
    rh_inspect::TableFile t;
    problem = t.Open(path);
    if (problem.empty()) rh_inspect::Info(args, t);
    fclose(out);
  }
  const std::string json(buf, size);
  free(buf);
  if (!problem.empty()) RaiseIfError(AsStatus(problem), path);
  return py::module_::import("json").attr("loads")(json);
}

}  // namespace

void DefineInspect(py::module_& m) {
  m.def("inspect", &Inspect, py::arg("path"),
        "What `rh_inspect info --json PATH` prints, as a dict.");
}

}  // namespace rh_python
