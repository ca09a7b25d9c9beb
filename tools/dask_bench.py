"""The Dask bulk load against rh_load on the same input: wall time and
where it goes (sample, shuffle, build, ingest), with 1 and 2 worker
processes, and rh_load in one process on 1 and 2 threads.

    PYTHONPATH=build/python /usr/bin/python3 tools/dask_bench.py \\
        --num=10000000 [--files=8] [--runs=1] [--memory_limit=BYTES]
        [--dir=/tmp/rh_dask_bench]

--memory_limit is rh_load's, and each Dask build task's (one a worker at a
time: a worker has one thread). Input: `--files` binary files of 8-byte keys (ids scrambled by a 64-bit
bijection, so no key repeats and none is in order) and 8-byte values,
written once. Every load builds a fresh DB from them with default options.
Prints one line a run and the medians; the cluster's start is timed apart
from the load, as a real cluster is already running.
"""

import argparse
import os
import shutil
import statistics
import struct
import subprocess
import sys
import time

from dask.distributed import Client, LocalCluster

from rocksdb_robinhood.dask import bulk_load

_BUILD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                      "build")


def write_inputs(directory, num, files):
    paths = []
    record = struct.Struct("<II8s8s")
    per_file = (num + files - 1) // files
    for f in range(files):
        path = os.path.join(directory, "in-%02d.bin" % f)
        paths.append(path)
        if os.path.exists(path):
            continue
        lo, hi = f * per_file, min(num, (f + 1) * per_file)
        buf = bytearray(record.size * (hi - lo))
        pack = record.pack_into
        for n, i in enumerate(range(lo, hi)):
            key = ((i * 0x9E3779B97F4A7C15) % (1 << 64)).to_bytes(8, "big")
            pack(buf, n * record.size, 8, 8, key, i.to_bytes(8, "little"))
        with open(path + ".tmp", "wb") as out:
            out.write(buf)
        os.rename(path + ".tmp", path)
    return paths


def run_rh_load(paths, directory, threads, memory_limit):
    out = os.path.join(directory, "rh_load_out")
    db = os.path.join(directory, "db")
    start = time.monotonic()
    subprocess.run([os.path.join(_BUILD, "rh_load"),
                    "--input=" + ",".join(paths), "--input_format=binary",
                    "--output_dir=" + out, "--db=" + db,
                    "--threads=%d" % threads,
                    "--memory_limit=%d" % memory_limit,
                    "--progress=off"], check=True, stdout=subprocess.DEVNULL)
    return {"total": time.monotonic() - start}


def run_dask(client, paths, directory, memory_limit):
    summary = bulk_load(client, paths, os.path.join(directory, "db"),
                        tmp_dir=directory, memory_limit=memory_limit)
    return summary["seconds"]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--num", type=int, default=10000000)
    p.add_argument("--files", type=int, default=8)
    p.add_argument("--runs", type=int, default=1)
    p.add_argument("--memory_limit", type=int, default=1 << 30)
    p.add_argument("--dir", default="/tmp/rh_dask_bench")
    a = p.parse_args()
    os.makedirs(a.dir, exist_ok=True)
    t = time.monotonic()
    paths = write_inputs(a.dir, a.num, a.files)
    print("input: %d entries in %d files, %.1f MB (%.1f s to write)"
          % (a.num, a.files, sum(os.path.getsize(x) for x in paths) / 1e6,
             time.monotonic() - t), flush=True)
    work = os.path.join(a.dir, "work")
    results = {}

    def clean():
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)

    for threads in (1, 2):
        name = "rh_load --threads=%d" % threads
        for r in range(a.runs):
            clean()
            s = run_rh_load(paths, work, threads, a.memory_limit)
            results.setdefault(name, []).append(s)
            print("%-26s run %d: %.2f s" % (name, r, s["total"]), flush=True)
    for workers in (1, 2):
        name = "dask, %d worker%s" % (workers, "s" if workers > 1 else "")
        t = time.monotonic()
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1,
                               processes=True, dashboard_address=None)
        client = Client(cluster)
        print("%-26s cluster started in %.2f s"
              % (name, time.monotonic() - t), flush=True)
        try:
            for r in range(a.runs):
                clean()
                s = run_dask(client, paths, work, a.memory_limit)
                results.setdefault(name, []).append(s)
                print("%-26s run %d: %.2f s (sample %.2f, shuffle %.2f, "
                      "build %.2f, ingest %.2f)"
                      % (name, r, s["total"], s["sample"], s["shuffle"],
                         s["build"], s["ingest"]), flush=True)
        finally:
            client.close()
            cluster.close()
    shutil.rmtree(work, ignore_errors=True)
    print("\nmedians of %d run%s:" % (a.runs, "s" if a.runs > 1 else ""))
    med = {n: statistics.median(r["total"] for r in rs)
           for n, rs in results.items()}
    for n, m in med.items():
        print("  %-26s %.2f s  (%.0f entries/s)" % (n, m, a.num / m))
    d1, d2 = med["dask, 1 worker"], med["dask, 2 workers"]
    print("  2 workers / 1 worker speedup: %.2fx" % (d1 / d2))
    print("  dask 1 worker / rh_load --threads=1: %.2fx (overhead %+.0f%%)"
          % (d1 / med["rh_load --threads=1"],
             100 * (d1 / med["rh_load --threads=1"] - 1)))
    print("  dask 2 workers / rh_load --threads=2: %.2fx"
          % (d2 / med["rh_load --threads=2"]))


if __name__ == "__main__":
    sys.exit(main())
