// What the module's parts share: each part defines its classes or
// functions on the module (module.cc calls them in turn), and every call
// into RocksDB ends in RaiseIfError, which turns a failed Status into the
// Python exception of its code.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <string_view>

#include "rocksdb/options.h"
#include "rocksdb/status.h"

namespace rh_python {

namespace py = pybind11;

// errors.cc: rh.Error and one subclass per Status code.
void DefineErrors(py::module_& m);
// REQUIRES: the GIL is held (call it after a gil_scoped_release ends).
// `context` (a file, an operation), when given, follows RocksDB's message.
void RaiseIfError(const ROCKSDB_NAMESPACE::Status& s,
                  const std::string& context = "");

// table_options.cc: Options whose table factory is RobinHoodTable
// configured by `table_options`, a RobinHoodTable options string
// ("load_factor=0.85;inline_slot_limit=64"). Raises rh.InvalidArgument
// naming an unknown option or a bad value.
ROCKSDB_NAMESPACE::Options OptionsFromString(const std::string& table_options);

// The bytes of a Python bytes object, without a copy. Raises TypeError for
// anything else (str included: keys and values are bytes).
std::string_view BytesView(const py::handle& h, const char* what);

// A path given as str or os.PathLike (os.fspath), as a string.
std::string PathString(const py::handle& path);

void DefineWriter(py::module_& m);    // writer.cc
void DefineDB(py::module_& m);        // db.cc
void DefineInspect(py::module_& m);   // inspect.cc
void DefineLoad(py::module_& m);      // load.cc
void DefinePartition(py::module_& m); // partition.cc

}  // namespace rh_python
