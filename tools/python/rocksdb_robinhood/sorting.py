"""Sorting entries in bounded memory, with duplicate keys resolved.

sorted_unique(pairs, ...) yields the pairs in key order with one entry a
key: the last of its duplicates in input order (rh_load's default,
--on_duplicate=last). Entries are held up to `memory_limit` bytes (an
estimate of what Python spends on them); past that a sorted run is written
to `run_dir` in the binary input format, and the runs are merged at the end.

Why the last wins: Python's sort and heapq.merge are both stable (equal keys
keep the order of the input and of the runs), so among equal keys the input
order survives, and keeping the last of each group is keeping the latest.
"""

import heapq
import operator
import os
import uuid

from . import formats

# What a (key, value) pair of bytes costs Python beyond its bytes: the tuple,
# two bytes objects' headers, the list's pointer. An estimate, on the high
# side, so the bound holds.
ENTRY_OVERHEAD = 120

_KEY = operator.itemgetter(0)


def _last_of_each_key(sorted_pairs, stats):
    """Keeps the last of each run of equal keys; counts what it drops."""
    prev = None
    for pair in sorted_pairs:
        if prev is not None:
            if pair[0] == prev[0]:
                stats["duplicates"] += 1
            else:
                yield prev
        prev = pair
    if prev is not None:
        yield prev


def _spill(buffer, run_dir, runs):
    buffer.sort(key=_KEY)
    path = os.path.join(run_dir, "run-%s.bin" % uuid.uuid4().hex)
    with open(path, "wb") as f:
        f.write(formats.encode_binary(buffer))
    runs.append(path)


def sorted_unique(pairs, memory_limit, run_dir, stats):
    """`pairs` sorted by key, one entry a key (the last one given).

    `stats` (a dict) gets "entries" (pairs read), "duplicates" (pairs
    dropped) and "runs" (runs spilled). The caller removes `run_dir`'s
    files: sorted_unique removes the runs it wrote once they are merged.
    """
    stats.setdefault("entries", 0)
    stats.setdefault("duplicates", 0)
    stats.setdefault("runs", 0)
    buffer = []
    held = 0
    runs = []
    for k, v in pairs:
        buffer.append((k, v))
        held += len(k) + len(v) + ENTRY_OVERHEAD
        if held >= memory_limit:
            _spill(buffer, run_dir, runs)
            buffer = []
            held = 0
    if not runs:
        stats["entries"] += len(buffer)
        buffer.sort(key=_KEY)
        yield from _last_of_each_key(buffer, stats)
        return
    if buffer:
        _spill(buffer, run_dir, runs)
        buffer = []
    stats["runs"] += len(runs)
    try:
        streams = [formats.read_binary(r) for r in runs]
        counted = _counting(heapq.merge(*streams, key=_KEY), stats)
        yield from _last_of_each_key(counted, stats)
    finally:
        for r in runs:
            try:
                os.unlink(r)
            except FileNotFoundError:
                pass


def _counting(pairs, stats):
    for pair in pairs:
        stats["entries"] += 1
        yield pair
