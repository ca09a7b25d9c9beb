// Python exceptions for RocksDB's Status codes. They are created under the
// package's name (rocksdb_robinhood.Corruption, ...) and re-exported there,
// so that an error raised on a Dask worker pickles and is raised again, as
// the same class, on the client.
#include <Python.h>

#include <cassert>

#include "tools/python/binding/binding.h"

namespace rh_python {

using ROCKSDB_NAMESPACE::Status;

namespace {

// Owned by the module for the life of the process.
PyObject* g_error = nullptr;
PyObject* g_by_code[Status::kMaxCode] = {};

PyObject* NewError(py::module_& m, const char* name, PyObject* bases) {
  const std::string qualified = std::string("rocksdb_robinhood.") + name;
  PyObject* cls = PyErr_NewException(qualified.c_str(), bases, nullptr);
  if (cls == nullptr) throw py::error_already_set();
  m.add_object(name, py::handle(cls));  // takes a reference; keep ours
  return cls;
}

}  // namespace

void DefineErrors(py::module_& m) {
  g_error = NewError(m, "Error", PyExc_Exception);
  struct Named {
    Status::Code code;
    const char* name;
    PyObject* also;  // a built-in class callers may already catch
  };
  const Named kClasses[] = {
      {Status::kNotFound, "NotFound", nullptr},
      {Status::kCorruption, "Corruption", nullptr},
      {Status::kNotSupported, "NotSupported", nullptr},
      {Status::kInvalidArgument, "InvalidArgument", PyExc_ValueError},
      {Status::kIOError, "IOError", nullptr},
      {Status::kMergeInProgress, "MergeInProgress", nullptr},
      {Status::kIncomplete, "Incomplete", nullptr},
      {Status::kShutdownInProgress, "ShutdownInProgress", nullptr},
      {Status::kTimedOut, "TimedOut", nullptr},
      {Status::kAborted, "Aborted", nullptr},
      {Status::kBusy, "Busy", nullptr},
      {Status::kExpired, "Expired", nullptr},
      {Status::kTryAgain, "TryAgain", nullptr},
  };
  for (const Named& n : kClasses) {
    PyObject* bases = n.also ? PyTuple_Pack(2, g_error, n.also)
                             : PyTuple_Pack(1, g_error);
    if (bases == nullptr) throw py::error_already_set();
    g_by_code[n.code] = NewError(m, n.name, bases);
    Py_DECREF(bases);
  }
}

void RaiseIfError(const Status& s, const std::string& context) {
  assert(PyGILState_Check());
  if (s.ok()) return;
  PyObject* cls = s.code() < Status::kMaxCode ? g_by_code[s.code()] : nullptr;
  std::string message = s.ToString();
  if (!context.empty()) message += " (" + context + ")";
  PyErr_SetString(cls ? cls : g_error, message.c_str());
  throw py::error_already_set();
}

std::string_view BytesView(const py::handle& h, const char* what) {
  if (!PyBytes_Check(h.ptr())) {
    throw py::type_error(std::string(what) + " must be bytes, not " +
                         std::string(py::str(h.get_type().attr("__name__"))));
  }
  char* data = nullptr;
  Py_ssize_t size = 0;
  PyBytes_AsStringAndSize(h.ptr(), &data, &size);
  return std::string_view(data, static_cast<size_t>(size));
}

std::string PathString(const py::handle& path) {
  const py::object p = py::module_::import("os").attr("fspath")(path);
  if (!py::isinstance<py::str>(p)) {
    throw py::type_error("paths must be str or os.PathLike of str");
  }
  return p.cast<std::string>();
}

}  // namespace rh_python
