"""Bulk loading a RobinHoodTable database on a Dask cluster.

    from dask.distributed import Client
    from rocksdb_robinhood.dask import bulk_load
    summary = bulk_load(Client("scheduler:8786"), bag_or_files, "/shared/db")

The files are range-partitioned: the keys of the input are sampled, range
boundaries chosen from the sample, every entry sent to its range (the
shuffle), and each range sorted and written as RobinHoodTable files on a
worker. The ranges do not overlap, so one IngestExternalFile call puts every
file in the bottom level with sequence number 0, and a lookup probes one
file. (Files cut by hash would each span the whole key range: ingestion
stacks them on every level, and a lookup probes them all.)

With `shards=N` each entry first goes to hash shard shard_of(key, N) and
every shard is a database of its own, db_path/shard-0000 ... (as Venice's
partitions are); within a shard the files are range-partitioned as above.

Duplicate keys: the last occurrence in input order wins (rh_load's
default, --on_duplicate=last). Input order is the order of the bag's
partitions and of the entries in each, or of the files as listed and the
entries in each: the shuffle keeps it, as each range's pieces are read in
the order of the partitions they came from.

Every worker must reach `tmp_dir` (by default a directory beside db_path):
on a real cluster, a shared filesystem mounted at the same path everywhere.
The client process opens the database and ingests, so db_path is the
client's. Ingestion moves (hard-links) the files when tmp_dir is on the
database's filesystem, and copies them otherwise.

The work on the workers is rh_load's: its parser reads the input files,
and its loader sorts each range within memory_limit (spilling sorted runs
to tmp_dir), resolves duplicates and writes the files.

A failed job (an error in a task, a worker lost more often than Dask's
distributed.scheduler.allowed-failures allows) raises, ingests nothing,
and removes its temporary files. A worker lost fewer times than that only
has its tasks run again elsewhere: every task's output replaces what an
earlier attempt wrote.
"""

import math
import os
import shutil
import time
import uuid

import dask.bag

from ._rocksdb_robinhood import DB, InvalidArgument
from . import formats, tasks
from .tasks import shard_of

__all__ = ["bulk_load", "shard_of"]

# Keys sampled per range partition (over all input partitions): a range's
# size then varies by a few percent of the mean.
_SAMPLES_PER_RANGE = 200
_MIN_SAMPLES_PER_INPUT = 32
_DEFAULT_MEMORY_LIMIT = 256 << 20


class _Source:
    """The input, as partitions a task can run over: a bag's partitions,
    or one task a file. run(bag_task, file_task, *args) runs
    bag_task(entries, *args) over each bag partition, or
    file_task(path, input_format, *args) over each file (which reads it in
    C++), and returns the futures in input order."""

    def __init__(self, client, data, input_format):
        self.client = client
        self.bag = None
        if isinstance(data, dask.bag.Bag):
            self.bag = data
            self.partitions = data.npartitions
            return
        if isinstance(data, (str, bytes, os.PathLike)):
            data = [data]
        self.paths = [os.fspath(p) for p in data]
        if not self.paths:
            raise InvalidArgument("bulk_load: no input files")
        self.formats = []
        for p in self.paths:
            # Refused here, before any work, if it cannot be read.
            self.formats.append(formats.format_of(p, input_format))
            if not os.path.exists(p):
                raise InvalidArgument("bulk_load: %s: no such file" % p)
        self.partitions = len(self.paths)

    def run(self, bag_task, file_task, *args):
        if self.bag is not None:
            # One fused task a partition: the bag's own work, then ours.
            return self.client.compute(
                self.bag.map_partitions(bag_task, *args).to_delayed())
        return [self.client.submit(file_task, p, f, *args, pure=False)
                for p, f in zip(self.paths, self.formats)]


def _boundaries(samples, ranges):
    """ranges - 1 (or fewer, for few distinct keys) increasing keys that cut
    the sampled keys into ranges of equal counts."""
    keys = sorted(k for s in samples for k in s["keys"])
    cuts = []
    for r in range(1, ranges):
        k = keys[len(keys) * r // ranges] if keys else None
        if k is not None and (not cuts or k > cuts[-1]):
            cuts.append(k)
    return cuts


def _db_paths(db_path, shards):
    if not shards:
        return [db_path]
    return [os.path.join(db_path, "shard-%04d" % s) for s in range(shards)]


def _remove(job_dir):
    """Removes the job's directory. A task of a failed job may still be
    running (Dask cannot stop a running task) and add a file while the
    tree is removed; once the directory is gone it cannot (tasks never
    create the job's directories), so removing again until it stays gone
    is enough."""
    for attempt in range(50):
        shutil.rmtree(job_dir, ignore_errors=True)
        if not os.path.exists(job_dir):
            return
        time.sleep(0.1)


def bulk_load(client, data, db_path, partitions=None, shards=None, options="",
              tmp_dir=None, target_file_size=None, input_format=None,
              memory_limit=None):
    """Builds range-partitioned RobinHoodTable files from `data` on the
    workers of `client` and ingests them into `db_path` in one call.

    data              a dask.bag of (key, value) bytes pairs (computed
                      twice: to sample, then to shuffle), or a list of
                      input files in rh_load's formats (tsv, csv, binary,
                      db: rocksdb_robinhood.formats), read one task a file
    db_path           the database (created if missing), or with `shards`
                      the directory of one database a shard
    partitions        range partitions (a shard's, with `shards`); default
                      twice the cluster's threads (divided among shards)
    shards            hash shards, each a database of its own; default none
    options           a RobinHoodTable options string, for the files and
                      the database
    tmp_dir           where the job's temporary files go (a directory of
                      its own is made in it and removed); every worker must
                      reach it. Default: beside db_path
    target_file_size  bytes a file, about (at least 64 KiB); default
                      rh_load's, 256 MiB
    input_format      of the input files; default from each extension
                      (.tsv, .csv, .bin)
    memory_limit      bytes a build task may hold while sorting before it
                      spills sorted runs to tmp_dir (at least 16 MiB);
                      default 256 MiB

    Returns a summary: entries (in the database after duplicates are
    dropped), input_entries, duplicates, files, bytes (of the files),
    partitions, shards, db_paths, and seconds per phase (sample, shuffle,
    build, ingest, total).
    """
    started = time.monotonic()
    if shards is not None and shards < 1:
        raise InvalidArgument("bulk_load: shards must be at least 1")
    if partitions is not None and partitions < 1:
        raise InvalidArgument("bulk_load: partitions must be at least 1")
    if memory_limit is None:
        memory_limit = _DEFAULT_MEMORY_LIMIT
    source = _Source(client, data, input_format)
    inputs = source.partitions
    if partitions is None:
        threads = sum(client.nthreads().values()) or 1
        partitions = max(1, math.ceil(2 * threads / (shards or 1)))

    db_path = os.path.abspath(db_path)
    os.makedirs(db_path, exist_ok=True)
    # Opened first: a bad options string or a DB in use fails the job
    # before any work is done.
    dbs = [DB(p, options) for p in _db_paths(db_path, shards)]
    parent = tmp_dir or os.path.dirname(db_path)
    job_dir = os.path.join(parent, ".%s.bulk_load-%s"
                           % (os.path.basename(db_path), uuid.uuid4().hex))
    dirs = {name: os.path.join(job_dir, name)
            for name in ("pieces", "files", "runs")}
    futures = []
    seconds = {}
    try:
        for d in dirs.values():
            os.makedirs(d)
        t = time.monotonic()
        per_input = max(_MIN_SAMPLES_PER_INPUT,
                        math.ceil(_SAMPLES_PER_RANGE * partitions / inputs))
        futures = source.run(tasks.sample, tasks.sample_file, per_input)
        samples = [s for part in client.gather(futures) for s in part]
        boundaries = _boundaries(samples, partitions)
        seconds["sample"] = time.monotonic() - t

        t = time.monotonic()
        futures = source.run(tasks.split, tasks.split_file, boundaries,
                             shards, dirs["pieces"])
        splits = [s for part in client.gather(futures) for s in part]
        seconds["shuffle"] = time.monotonic() - t

        t = time.monotonic()
        ranges = len(boundaries) + 1
        futures = []
        for shard in range(shards or 1):
            for r in range(ranges):
                pieces = [s["pieces"][(shard, r)] for s in splits
                          if (shard, r) in s["pieces"]]
                if not pieces:
                    continue
                futures.append(client.submit(
                    tasks.build, pieces, shard, r, options, dirs["files"],
                    dirs["runs"], target_file_size, memory_limit,
                    key="rh-build-%s-%d-%d" % (uuid.uuid4().hex, shard, r),
                    pure=False))
        built = client.gather(futures)
        futures = []
        seconds["build"] = time.monotonic() - t

        t = time.monotonic()
        by_shard = [[] for _ in dbs]
        for b in sorted(built, key=lambda b: (b["shard"], b["partition"])):
            by_shard[b["shard"]].extend(b["files"])
        for db, files in zip(dbs, by_shard):
            if files:
                db.ingest(files, move=True)
        seconds["ingest"] = time.monotonic() - t
    finally:
        if futures:
            client.cancel(futures)
        for db in dbs:
            db.close()
        _remove(job_dir)
    seconds["total"] = time.monotonic() - started

    entries = sum(b["entries"] for b in built)
    input_entries = sum(s["entries"] for s in splits)
    return {
        "entries": entries,
        "input_entries": input_entries,
        "duplicates": input_entries - entries,
        "files": sum(len(b["files"]) for b in built),
        "bytes": sum(b["bytes"] for b in built),
        "partitions": ranges,
        "shards": shards or 0,
        "db_paths": _db_paths(db_path, shards),
        "seconds": seconds,
    }
