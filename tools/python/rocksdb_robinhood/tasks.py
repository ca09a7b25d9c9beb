"""The work a bulk load sends to Dask workers: sample, split, build.

Every task writes its output under a temporary name and renames it when
complete, so a task Dask runs again (its worker was lost) replaces, never
mixes with, what an earlier attempt left; and no task creates a directory,
so a task still running after its job failed (and removed its directory)
writes nothing anywhere.
"""

import bisect
import os
import random
import struct
import uuid
import zlib

from ._rocksdb_robinhood import InvalidArgument, load
from . import formats

_LENGTHS = struct.Struct("<II")
# A split task's buffered pieces are written out past this many bytes.
_SPLIT_BUFFER_BYTES = 8 << 20


def shard_of(key, shards):
    """The hash shard of `key`: CRC-32 of its bytes modulo `shards`.

    A reader of a sharded load finds a key's DB with the same function.
    """
    return zlib.crc32(key) % shards


def read_files(paths, input_format):
    """The entries of input files, in the order given (a bag partition)."""
    for path in paths:
        yield from formats.read(path, input_format)


def _checked(entries, index):
    """The entries of bag partition `index`, refusing anything but pairs of
    bytes with a message saying which entry."""
    for n, pair in enumerate(entries):
        try:
            k, v = pair
        except (TypeError, ValueError):
            raise InvalidArgument(
                "bag partition %d, entry %d: not a (key, value) pair: %r"
                % (index, n, type(pair).__name__)) from None
        if type(k) is not bytes or type(v) is not bytes:
            raise InvalidArgument(
                "bag partition %d, entry %d: keys and values must be bytes, "
                "not %s and %s"
                % (index, n, type(k).__name__, type(v).__name__))
        yield k, v


def sample(entries, index_part, per_partition):
    """A uniform sample of up to `per_partition` keys of one partition
    (reservoir sampling, seeded by the partition's index so a run is
    repeatable), with the partition's entry and byte counts."""
    index = index_part[0]
    rng = random.Random(index)
    keys = []
    count = 0
    size = 0
    for k, v in _checked(entries, index):
        count += 1
        size += len(k) + len(v)
        if len(keys) < per_partition:
            keys.append(k)
        else:
            j = rng.randrange(count)
            if j < per_partition:
                keys[j] = k
    return [{"index": index, "keys": keys, "entries": count, "bytes": size}]


def split(entries, index_part, boundaries, shards, piece_dir):
    """Writes partition `index`'s entries into one piece file per (shard,
    range), in input order, in the binary input format. Range r holds the
    keys k with boundaries[r-1] <= k < boundaries[r]."""
    index = index_part[0]
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
                    piece_dir, "%06d-%04d-%05d.%s.tmp"
                    % (index, where[0], where[1], uuid.uuid4().hex))
            with open(temps[where], "ab") as f:
                f.write(buf)
        buffers.clear()

    for k, v in _checked(entries, index):
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
        final = os.path.join(piece_dir, "%06d-%04d-%05d.bin"
                             % (index, where[0], where[1]))
        os.replace(tmp, final)
        pieces[where] = final
    return [{"index": index, "entries": count, "pieces": pieces}]


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
