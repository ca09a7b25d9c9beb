// rh.DB: a RocksDB database whose table factory is RobinHoodTable.
//
//   db = rh.DB(path, options="", read_only=False)
//   db.put(k, v); db.delete(k); db.get(k) -> bytes | None
//   db.multi_get([k, ...]) -> [bytes | None, ...]
//   for k, v in db.iterate(start=None, stop=None): ...   # start <= k < stop
//   db.ingest([file, ...], move=False)                   # one atomic call
//   db.live_files() -> [{"name", "level", "entries", ...}]; db.property(name)
//   db.close()  (also on leaving a `with` block)
//
// The GIL is released while RocksDB works in multi_get, ingest, flush and
// compact_range; single gets and puts keep it (they take microseconds).
//
// An iterator shares ownership of the database, so closing the DB while an
// iterator is alive leaves it open until the iterator is dropped.
#include <utility>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/metadata.h"
#include "tools/python/binding/binding.h"
#include "tools/common/db_open.h"

namespace rh_python {

using namespace ROCKSDB_NAMESPACE;
using ROCKSDB_NAMESPACE::robinhood::DBResult;

namespace {

Slice AsSlice(const py::handle& h, const char* what) {
  const std::string_view v = BytesView(h, what);
  return Slice(v.data(), v.size());
}

class Iterator {
 public:
  Iterator(std::shared_ptr<DB> db, const py::object& start,
           const py::object& stop)
      : db_(std::move(db)) {
    // Not copied or moved (pybind11 holds it by pointer): the read options
    // point at stop_slice_, which points into stop_.
    ReadOptions ro;
    if (!stop.is_none()) {
      stop_ = std::string(BytesView(stop, "stop"));
      stop_slice_ = Slice(stop_);
      ro.iterate_upper_bound = &stop_slice_;
    }
    it_.reset(db_->NewIterator(ro));
    if (start.is_none()) {
      it_->SeekToFirst();
    } else {
      it_->Seek(AsSlice(start, "start"));
    }
  }

  Iterator(const Iterator&) = delete;
  Iterator& operator=(const Iterator&) = delete;

  py::tuple Next() {
    if (!started_) {
      started_ = true;
    } else if (it_->Valid()) {
      it_->Next();
    }
    if (!it_->Valid()) {
      RaiseIfError(it_->status(), "iterate");
      throw py::stop_iteration();
    }
    const Slice k = it_->key(), v = it_->value();
    return py::make_tuple(py::bytes(k.data(), k.size()),
                          py::bytes(v.data(), v.size()));
  }

 private:
  // Declared first so it is destroyed last: the iterator must go first.
  std::shared_ptr<DB> db_;
  std::string stop_;
  Slice stop_slice_;
  std::unique_ptr<ROCKSDB_NAMESPACE::Iterator> it_;
  bool started_ = false;
};

class Database {
 public:
  Database(const py::object& path_like, const std::string& table_options,
           bool read_only, bool create_if_missing)
      : path_(PathString(path_like)) {
    const std::string& path = path_;
    Options options = OptionsFromString(table_options);
    options.create_if_missing = create_if_missing && !read_only;
    std::unique_ptr<DB> db;
    Status s;
    {
      py::gil_scoped_release unlocked;
      s = read_only ? DB::OpenForReadOnly(options, path, DBResult(&db))
                    : DB::Open(options, path, DBResult(&db));
    }
    RaiseIfError(s, path);
    db_ = std::move(db);
  }

  void Put(const py::bytes& k, const py::bytes& v) {
    RaiseIfError(db()->Put(WriteOptions(), AsSlice(k, "key"),
                           AsSlice(v, "value")));
  }

  void Delete(const py::bytes& k) {
    RaiseIfError(db()->Delete(WriteOptions(), AsSlice(k, "key")));
  }

  py::object Get(const py::bytes& k) {
    std::string value;
    const Status s = db()->Get(ReadOptions(), AsSlice(k, "key"), &value);
    if (s.IsNotFound()) return py::none();
    RaiseIfError(s);
    return py::bytes(value);
  }

  // The keys are copied (with the GIL) before RocksDB looks them up
  // without it: the Python objects may not be touched unlocked.
  py::list MultiGet(const py::iterable& keys) {
    std::vector<std::string> owned;
    for (const py::handle& k : keys) owned.emplace_back(BytesView(k, "key"));
    std::vector<Slice> slices(owned.begin(), owned.end());
    std::vector<std::string> values;
    std::vector<Status> statuses;
    DB* const d = db();
    {
      py::gil_scoped_release unlocked;
      statuses = d->MultiGet(ReadOptions(), slices, &values);
    }
    py::list out(owned.size());
    for (size_t i = 0; i < owned.size(); ++i) {
      if (statuses[i].IsNotFound()) {
        out[i] = py::none();
      } else {
        RaiseIfError(statuses[i], "multi_get, key " + std::to_string(i));
        out[i] = py::bytes(values[i]);
      }
    }
    return out;
  }

  std::unique_ptr<Iterator> Iterate(const py::object& start,
                                    const py::object& stop) {
    db();
    return std::make_unique<Iterator>(db_, start, stop);
  }

  void Ingest(const py::iterable& paths, bool move) {
    std::vector<std::string> files;
    for (const py::handle& p : paths) files.push_back(PathString(p));
    IngestExternalFileOptions o;
    o.move_files = move;
    DB* const d = db();
    Status s;
    {
      py::gil_scoped_release unlocked;
      s = d->IngestExternalFile(files, o);
    }
    RaiseIfError(s, "ingest of " + std::to_string(files.size()) + " files");
  }

  void Flush() {
    DB* const d = db();
    Status s;
    {
      py::gil_scoped_release unlocked;
      s = d->Flush(FlushOptions());
    }
    RaiseIfError(s);
  }

  void CompactRange() {
    DB* const d = db();
    Status s;
    {
      py::gil_scoped_release unlocked;
      s = d->CompactRange(CompactRangeOptions(), nullptr, nullptr);
    }
    RaiseIfError(s);
  }

  py::object Property(const std::string& name) {
    std::string value;
    if (!db()->GetProperty(name, &value)) return py::none();
    return py::str(value);
  }

  // Where each table file is: enough to check that ingested files sit in
  // the bottom level with sequence number 0.
  py::list LiveFiles() {
    std::vector<LiveFileMetaData> files;
    db()->GetLiveFilesMetaData(&files);
    py::list out;
    for (const LiveFileMetaData& f : files) {
      py::dict d;
      d["name"] = f.name;
      d["column_family"] = f.column_family_name;
      d["level"] = f.level;
      d["bytes"] = f.size;
      d["entries"] = f.num_entries;
      d["smallest_key"] = py::bytes(f.smallestkey);
      d["largest_key"] = py::bytes(f.largestkey);
      d["smallest_seqno"] = f.smallest_seqno;
      d["largest_seqno"] = f.largest_seqno;
      out.append(d);
    }
    return out;
  }

  void Close() {
    if (db_ == nullptr) return;
    std::shared_ptr<DB> d = std::move(db_);
    py::gil_scoped_release unlocked;
    d.reset();
  }

 private:
  DB* db() const {
    if (db_ == nullptr) {
      RaiseIfError(Status::InvalidArgument("the DB is closed"), path_);
    }
    return db_.get();
  }

  const std::string path_;
  std::shared_ptr<DB> db_;
};

}  // namespace

void DefineDB(py::module_& m) {
  py::class_<Iterator>(m, "Iterator")
      .def("__iter__", [](Iterator& it) -> Iterator& { return it; },
           py::return_value_policy::reference_internal)
      .def("__next__", &Iterator::Next);
  py::class_<Database>(m, "DB",
                       "A RocksDB database with RobinHoodTable as its table "
                       "factory.")
      .def(py::init<const py::object&, const std::string&, bool, bool>(),
           py::arg("path"), py::arg("options") = "",
           py::arg("read_only") = false, py::arg("create_if_missing") = true)
      .def("put", &Database::Put, py::arg("key"), py::arg("value"))
      .def("delete", &Database::Delete, py::arg("key"))
      .def("get", &Database::Get, py::arg("key"))
      .def("multi_get", &Database::MultiGet, py::arg("keys"))
      .def("iterate", &Database::Iterate, py::arg("start") = py::none(),
           py::arg("stop") = py::none())
      .def("ingest", &Database::Ingest, py::arg("files"),
           py::arg("move") = false)
      .def("flush", &Database::Flush)
      .def("compact_range", &Database::CompactRange)
      .def("property", &Database::Property, py::arg("name"))
      .def("live_files", &Database::LiveFiles)
      .def("close", &Database::Close)
      .def("__enter__", [](Database& d) -> Database& { return d; },
           py::return_value_policy::reference)
      .def("__exit__", [](Database& d, const py::object&, const py::object&,
                          const py::object&) {
        d.Close();
        return false;
      });
}

}  // namespace rh_python
