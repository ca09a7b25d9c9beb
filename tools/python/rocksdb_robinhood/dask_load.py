"""Bulk load input files into a RobinHoodTable database on a Dask cluster.

    python3 -m rocksdb_robinhood.dask_load --scheduler=ADDRESS|local:N \\
        --input=FILE[,FILE...] --input_format=tsv|csv|binary --db=DIR \\
        [--partitions=N] [--shards=N] [--options=STRING] [--tmp_dir=DIR] \\
        [--target_file_size=BYTES] [--memory_limit=BYTES]

--scheduler is a Dask scheduler's address (tcp://host:8786), or local:N for
a cluster of N worker processes on this machine. The input files are in
rh_load's formats and read one task a file, so give several files to use
several workers in the read. On a cluster, the input files and --tmp_dir
must be reachable at the same paths from every worker (a shared
filesystem); --db is written by this process.

Prints the summary as JSON on stdout. Exit status: 0 done, 1 the load
failed (the message on stderr; nothing was ingested), 2 usage error.
"""

import argparse
import json
import sys

from . import formats
from ._rocksdb_robinhood import Error


def _size(text):
    """A byte count: digits, optionally with a K, M or G suffix (powers of
    1024), as rh_load takes them."""
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
    t = text.strip().lower()
    scale = 1
    if t and t[-1] in units:
        scale = units[t[-1]]
        t = t[:-1]
    if not t.isdigit():
        raise argparse.ArgumentTypeError("not a byte count: %r" % text)
    return int(t) * scale


def _positive(text):
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError("not a positive count: %r" % text)
    return int(text)


def _parser():
    p = argparse.ArgumentParser(
        prog="python3 -m rocksdb_robinhood.dask_load",
        description="Bulk load files into a RobinHoodTable database with "
                    "Dask: sample, range-partition, build, ingest.")
    p.add_argument("--scheduler", required=True,
                   help="a scheduler address, or local:N worker processes")
    p.add_argument("--input", required=True,
                   help="input files, separated by commas")
    p.add_argument("--input_format", choices=formats.FORMATS,
                   help="default: from each file's extension")
    p.add_argument("--db", required=True, help="the database directory")
    p.add_argument("--partitions", type=_positive)
    p.add_argument("--shards", type=_positive)
    p.add_argument("--options", default="",
                   help="a RobinHoodTable options string")
    p.add_argument("--tmp_dir")
    p.add_argument("--target_file_size", type=_size)
    p.add_argument("--memory_limit", type=_size)
    return p


def _client(scheduler):
    from dask.distributed import Client, LocalCluster
    if scheduler.startswith("local:"):
        n = scheduler[len("local:"):]
        if not n.isdigit() or int(n) < 1:
            raise ValueError("--scheduler=local:N needs a worker count")
        cluster = LocalCluster(n_workers=int(n), threads_per_worker=1,
                               processes=True, dashboard_address=None)
        return Client(cluster), cluster
    return Client(scheduler), None


def main(argv=None):
    args = _parser().parse_args(argv)
    from .dask import bulk_load
    try:
        client, cluster = _client(args.scheduler)
    except (OSError, ValueError) as e:
        print("dask_load: scheduler %s: %s" % (args.scheduler, e),
              file=sys.stderr)
        return 1
    try:
        summary = bulk_load(
            client, [f for f in args.input.split(",") if f], args.db,
            partitions=args.partitions, shards=args.shards,
            options=args.options, tmp_dir=args.tmp_dir,
            target_file_size=args.target_file_size,
            input_format=args.input_format, memory_limit=args.memory_limit)
    except (Error, OSError) as e:
        print("dask_load: %s" % e, file=sys.stderr)
        return 1
    except Exception as e:  # a worker lost too often, a scheduler gone
        print("dask_load: %s: %s" % (type(e).__name__, e), file=sys.stderr)
        return 1
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    json.dump(summary, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
