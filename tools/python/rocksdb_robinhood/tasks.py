"""The work a bulk load sends to Dask workers: sample, split, build.

Every task writes its output under a temporary name and renames it when
complete, so a task Dask runs again (its worker was lost) replaces, never
mixes with, what an earlier attempt left. No task creates the job's
directories (a build task's loader makes one directory inside them, never
their parents), so a task still running after its job failed (and removed
its directory) can write nothing anywhere.
"""

import bisect
import os
import random
import struct
import uuid
import zlib

from ._rocksdb_robinhood import (InvalidArgument, load, sample_input,
                                 split_input)

_LENGTHS = struct.Struct("<II")
# A split task's buffered pieces are written out past this many bytes.
_SPLIT_BUFFER_BYTES = 8 << 20


def shard_of(key, shards):
    """The hash shard of `key`: CRC-32 of its bytes modulo `shards`.

    A reader of a sharded load finds a key's DB with the same function.
    """
    return zlib.crc32(key) % shards


def sample_file(path, input_format, per_partition):
    """sample() of an input file, in C++ (partition.cc)."""
    return [sample_input(path, input_format, per_partition)]


def split_file(path, input_format, boundaries, shards, piece_dir):
    """split() of an input file, in C++ (partition.cc)."""
    return [split_input(path, input_format, boundaries, shards or 0,
                        piece_dir, uuid.uuid4().hex)]


def _checked(entries):
    """The entries of a partition, refusing anything but pairs of bytes
    with a message saying which entry."""
    for n, pair in enumerate(entries):
        try:
            k, v = pair
        except (TypeError, ValueError):
            raise InvalidArgument(
                "entry %d of a partition: not a (key, value) pair but a %s"
                % (n, type(pair).__name__)) from None
        if type(k) is not bytes or type(v) is not bytes:
            raise InvalidArgument(
                "entry %d of a partition: keys and values must be bytes, "
                "not %s and %s" % (n, type(k).__name__, type(v).__name__))
        yield k, v


def sample(entries, per_partition):
    """A uniform sample of up to `per_partition` keys of one partition
    (reservoir sampling with a fixed seed, so a run is repeatable), with
    the partition's entry and byte counts."""
    rng = random.Random(0)
    keys = []
    count = 0
    size = 0
    for k, v in _checked(entries):
        count += 1
        size += len(k) + len(v)
        if len(keys) < per_partition:
            keys.append(k)
        else:
            j = rng.randrange(count)
            if j < per_partition:
                keys[j] = k
    return [{"keys": keys, "entries": count, "bytes": size}]


def split(entries, boundaries, shards, piece_dir):
    """Writes a partition's entries into one piece file per (shard, range),
    in input order, in the binary input format. Range r holds the keys k
    with boundaries[r-1] <= k < boundaries[r]. The pieces' names are the
    attempt's own; the client orders them by the partition they came from."""
    attempt = uuid.uuid4().hex
    buffers = {}
    temps = {}
    held = 0
    count = 0
    pack = _LENGTHS.pack
    find = bisect.bisect_right

    def flush():
        for where, buf in buffers.items():
            if where not in temps:
                temps[where] = os.path.join(
                    piece_dir, "%s-%04d-%05d.tmp"
                    % (attempt, where[0], where[1]))
            with open(temps[where], "ab") as f:
                f.write(buf)
        buffers.clear()

    for k, v in _checked(entries):
        where = (shard_of(k, shards) if shards else 0, find(boundaries, k))
        buf = buffers.get(where)
        if buf is None:
            buf = buffers[where] = bytearray()
        buf += pack(len(k), len(v))
        buf += k
        buf += v
        held += len(k) + len(v) + 8
        count += 1
        if held >= _SPLIT_BUFFER_BYTES:
            flush()
            held = 0
    flush()
    pieces = {}
    for where, tmp in temps.items():
        final = tmp[:-len(".tmp")] + ".bin"
        os.replace(tmp, final)
        pieces[where] = final
    return [{"entries": count, "pieces": pieces}]


def build(piece_paths, shard, part, options, file_dir, run_dir,
          target_file_size, memory_limit):
    """Sorts one (shard, range)'s pieces, given in input order, within
    `memory_limit`, keeps the last entry of each key and writes
    RobinHoodTable files of about `target_file_size` bytes: rh_load's
    loader does all of it, in C++, with the GIL released. Each attempt
    writes into a directory of its own, so a retried task never meets an
    earlier attempt's files."""
    attempt = "%04d-%05d-%s" % (shard, part, uuid.uuid4().hex)
    kwargs = {}
    if target_file_size:
        kwargs["target_file_size"] = target_file_size
    summary = load(piece_paths, os.path.join(file_dir, attempt),
                   input_format="binary", memory_limit=memory_limit,
                   threads=1, tmp_dir=os.path.join(run_dir, attempt),
                   options=options, on_duplicate="last", **kwargs)
    return {"shard": shard, "partition": part, "files": summary["files"],
            "entries": summary["entries"],
            "input_entries": summary["entries_read"],
            "bytes": summary["file_bytes"], "runs": summary["runs"]}
