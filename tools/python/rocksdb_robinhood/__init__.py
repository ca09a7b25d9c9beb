"""RobinHoodTable for Python.

    import rocksdb_robinhood as rh
    with rh.Writer("/data/part-0001.sst", options="load_factor=0.85") as w:
        w.put(b"key", b"value")      # strictly increasing keys; w.put_many(pairs)
    w.info                           # entries, bytes, layout, path
    db = rh.DB("/data/db", options="", read_only=False)
    db.put(b"k", b"v"); db.get(b"k"); db.multi_get([b"a", b"b"])
    for k, v in db.iterate(start=None, stop=None): ...
    db.ingest(["/data/part-0001.sst"], move=True)
    rh.inspect("/data/part-0001.sst")   # what `rh_inspect info --json` prints

`options` is a RobinHoodTable options string (the options of
RobinHoodTableOptions, as in `table_factory={id=RobinHoodTable;...}`); an
unknown option or a bad value raises rh.InvalidArgument naming it.

Errors are rh.Error, or its subclass for RocksDB's status code
(rh.Corruption, rh.InvalidArgument, rh.IOError, rh.NotFound, ...), with
RocksDB's message. The GIL is released while files are built (put_many,
finish), ingested, and in multi_get.

rh.read_input(path, "tsv") reads rh_load's input formats with rh_load's
parser, and rh.load(inputs, output_dir, ...) is rh_load as a function.

rocksdb_robinhood.dask builds a database from a Dask bag or input files on
a Dask cluster; `python3 -m rocksdb_robinhood.dask_load` does it from the
command line.
"""

from ._rocksdb_robinhood import (DB, Aborted, Busy, Corruption, Error,
                                 Expired, Incomplete, InputIterator,
                                 InvalidArgument, IOError, Iterator,
                                 MergeInProgress, NotFound, NotSupported,
                                 ShutdownInProgress, TimedOut, TryAgain,
                                 Writer, inspect, load, read_input)

__all__ = ["DB", "Writer", "Iterator", "inspect", "read_input",
           "InputIterator", "load", "Error", "Aborted", "Busy",
           "Corruption", "Expired", "Incomplete", "InvalidArgument",
           "IOError", "MergeInProgress", "NotFound", "NotSupported",
           "ShutdownInProgress", "TimedOut", "TryAgain"]
