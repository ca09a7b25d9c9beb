"""The Dask bulk load on a LocalCluster of 2 worker processes: a million
entries against a model and against rh_load, duplicates, shards, bad
input, a worker killed mid-job, and the dask_load command."""

import itertools
import json
import os
import signal
import struct
import subprocess
import sys
import threading
import time

import dask
import dask.bag as dbag
import pytest
from dask.distributed import Client, KilledWorker, LocalCluster

import rocksdb_robinhood as rh
from rocksdb_robinhood.dask import bulk_load, shard_of
from conftest import build_program, write_binary

MILLION_FILES = 4
PER_FILE = 250000


def _local_cluster():
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                           dashboard_address=None)
    return cluster, Client(cluster)


@pytest.fixture(scope="module")
def client():
    cluster, c = _local_cluster()
    yield c
    c.close()
    cluster.close()


def _key(i):
    # Ids hashed (a bijection of 64-bit numbers), big-endian: spread over
    # the key space, in no order, so the load must sort. (Keys this even
    # make inline files in key order, which iterate fast enough to check
    # a million entries in CI's time.)
    return struct.pack(">Q", (i * 0x9E3779B97F4A7C15) % (1 << 64))


def _million_inputs(directory):
    """4 binary files of 250,000 entries with duplicates within a file and
    across files; returns the paths and the model (last occurrence wins)."""
    paths = []
    model = {}
    for f in range(MILLION_FILES):
        entries = [(_key(i), b"%d.%d" % (f, i))
                   for i in range(f * PER_FILE, (f + 1) * PER_FILE)]
        if f == 1:  # keys of this file again, later in the file
            entries[-5000:] = [(entries[i][0], b"again.%d" % i)
                               for i in range(5000)]
        if f == 3:  # keys of the first file again
            entries[:20000] = [(_key(i), b"3.over.%d" % i)
                               for i in range(20000)]
        path = os.path.join(directory, "part-%d.bin" % f)
        write_binary(path, entries)
        paths.append(path)
        model.update(entries)
    return paths, model


@pytest.fixture(scope="module")
def million(client, tmp_path_factory):
    """The million-entry inputs, loaded by bulk_load into a DB."""
    directory = str(tmp_path_factory.mktemp("million"))
    paths, model = _million_inputs(directory)
    db_path = os.path.join(directory, "db")
    summary = bulk_load(client, paths, db_path, partitions=4,
                        tmp_dir=directory)
    return {"paths": paths, "model": model, "db": db_path,
            "summary": summary, "dir": directory}


def _assert_bottom_level_and_disjoint(db):
    files = sorted(db.live_files(), key=lambda f: f["smallest_key"])
    assert files
    for f in files:
        assert (f["level"], f["smallest_seqno"], f["largest_seqno"]) == \
            (6, 0, 0), f
    for a, b in zip(files, files[1:]):
        assert a["largest_key"] < b["smallest_key"]
    return files


def test_million_entries_equal_the_model(million):
    model, summary = million["model"], million["summary"]
    assert len(model) >= 1000000 - 30000
    assert summary["input_entries"] == MILLION_FILES * PER_FILE
    assert summary["entries"] == len(model)
    assert summary["duplicates"] == MILLION_FILES * PER_FILE - len(model)
    assert set(summary["seconds"]) == {"sample", "shuffle", "build",
                                       "ingest", "total"}
    with rh.DB(million["db"], read_only=True) as db:
        files = _assert_bottom_level_and_disjoint(db)
        assert len(files) == summary["files"] >= 4
        assert sum(f["entries"] for f in files) == len(model)
        it = db.iterate()
        for expected, got in itertools.zip_longest(sorted(model.items()),
                                                   it):
            assert expected == got
    # Nothing of the job is left beside the inputs and the DB.
    assert sorted(os.listdir(million["dir"])) == sorted(
        [os.path.basename(p) for p in million["paths"]] + ["db"])


def test_million_entries_equal_rh_load(million):
    """rh_load in one process, on the same input, gives the same DB."""
    out = os.path.join(million["dir"], "rh_load_out")
    db_path = os.path.join(million["dir"], "rh_load_db")
    subprocess.run([build_program("rh_load"),
                    "--input=" + ",".join(million["paths"]),
                    "--input_format=binary", "--output_dir=" + out,
                    "--db=" + db_path, "--progress=off"],
                   check=True, capture_output=True, timeout=120)
    with rh.DB(db_path, read_only=True) as theirs, \
            rh.DB(million["db"], read_only=True) as ours:
        n = 0
        for a, b in itertools.zip_longest(theirs.iterate(), ours.iterate()):
            assert a == b, n
            n += 1
    assert n == len(million["model"])


def _generated(part, n):
    for p in part:
        for i in range(n):
            yield (b"key%02d-%06d" % (i % 7, i), b"%d.%d" % (p, i))


def test_bag_duplicates_last_in_input_order_wins(client, tmp_path):
    # Every partition holds the same keys: the last partition's values win.
    bag = dbag.from_sequence(range(5), npartitions=5).map_partitions(
        _generated, 2000)
    summary = bulk_load(client, bag, str(tmp_path / "db"), partitions=3)
    assert summary["input_entries"] == 10000
    assert summary["entries"] == 2000 and summary["duplicates"] == 8000
    with rh.DB(tmp_path / "db", read_only=True) as db:
        _assert_bottom_level_and_disjoint(db)
        got = list(db.iterate())
    assert got == sorted(dict(_generated([4], 2000)).items())


def test_shards_are_databases_of_their_own(client, tmp_path):
    bag = dbag.from_sequence(range(3), npartitions=3).map_partitions(
        _generated, 3000)
    summary = bulk_load(client, bag, str(tmp_path / "db"), shards=3,
                        partitions=2)
    model = dict(_generated([2], 3000))
    assert summary["shards"] == 3 and len(summary["db_paths"]) == 3
    seen = {}
    for s, path in enumerate(summary["db_paths"]):
        assert os.path.basename(path) == "shard-%04d" % s
        with rh.DB(path, read_only=True) as db:
            _assert_bottom_level_and_disjoint(db)
            for k, v in db.iterate():
                assert shard_of(k, 3) == s
                seen[k] = v
    assert seen == model


def test_bad_input_fails_cleanly(client, tmp_path):
    good = tmp_path / "good.tsv"
    good.write_bytes(b"".join(b"k%d\tv\n" % i for i in range(1000)))
    bad = tmp_path / "bad.tsv"
    bad.write_bytes(b"a\t1\nb\t2\nno tab here\n")
    work = tmp_path / "work"
    work.mkdir()
    with pytest.raises(rh.InvalidArgument) as e:
        bulk_load(client, [str(good), str(bad)], str(tmp_path / "db"),
                  tmp_dir=str(work))
    assert str(bad) in str(e.value) and "line 3" in str(e.value)
    assert os.listdir(work) == []
    with rh.DB(tmp_path / "db", read_only=True) as db:
        assert db.live_files() == [] and list(db.iterate()) == []


def _not_pairs(part):
    for p in part:
        yield (b"k", b"v")
        yield (b"k2", "text")


def test_bag_of_wrong_types_is_refused(client, tmp_path):
    bag = dbag.from_sequence([0], npartitions=1).map_partitions(_not_pairs)
    with pytest.raises(rh.InvalidArgument) as e:
        bulk_load(client, bag, str(tmp_path / "db"))
    assert "entry 1 of a partition" in str(e.value)


def _call_number(marker_dir, p):
    for n in itertools.count(1):
        try:
            os.close(os.open(os.path.join(marker_dir, "call-%d-%d" % (p, n)),
                             os.O_CREAT | os.O_EXCL))
            return n
        except FileExistsError:
            pass


def _stalling(part, marker_dir, n):
    """Partition 3's second computation (the shuffle's first attempt; the
    sample was the first) publishes its worker's pid and stalls, to be
    killed there. Later attempts run through."""
    for p in part:
        if p == 3 and _call_number(marker_dir, p) == 2:
            with open(os.path.join(marker_dir, "pid.tmp"), "w") as f:
                f.write(str(os.getpid()))
            os.rename(os.path.join(marker_dir, "pid.tmp"),
                      os.path.join(marker_dir, "pid"))
            time.sleep(120)  # killed long before; if not, the test fails
        yield from _stalled_entries(p, n)


def _stalled_entries(p, n):
    for i in range(n):
        yield (b"%d-%06d" % (i % 10, i), b"%d.%d" % (p, i))


def _wait_for(condition, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def _killer(marker_dir, work_dir, result):
    """Kills the stalled worker once other tasks' pieces are on disk, so
    the job has temporary files to clean up."""
    pid_file = os.path.join(marker_dir, "pid")

    def pieces():
        return any(name.endswith(".bin")
                   for _, _, names in os.walk(work_dir) for name in names)

    if _wait_for(lambda: os.path.exists(pid_file), 90) and \
            _wait_for(pieces, 60):
        with open(pid_file) as f:
            os.kill(int(f.read()), signal.SIGKILL)
        result["killed"] = True


def _load_with_a_kill(client, tmp_path):
    marker = tmp_path / "marker"
    work = tmp_path / "work"
    marker.mkdir()
    work.mkdir()
    bag = dbag.from_sequence(range(4), npartitions=4).map_partitions(
        _stalling, str(marker), 20000)
    result = {}
    killer = threading.Thread(target=_killer,
                              args=(str(marker), str(work), result))
    killer.start()
    try:
        result["summary"] = bulk_load(client, bag, str(tmp_path / "db"),
                                      partitions=2, tmp_dir=str(work))
    finally:
        killer.join()
    assert result.get("killed"), "the worker was never killed"
    return result["summary"], work


def test_worker_killed_mid_job_is_retried(client, tmp_path):
    summary, work = _load_with_a_kill(client, tmp_path)
    model = dict(_stalled_entries(3, 20000))  # the last partition wins
    assert summary["entries"] == len(model)
    with rh.DB(tmp_path / "db", read_only=True) as db:
        _assert_bottom_level_and_disjoint(db)
        assert list(db.iterate()) == sorted(model.items())
    assert os.listdir(work) == []


def test_worker_killed_without_retries_fails_cleanly(tmp_path):
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        cluster, c = _local_cluster()
    try:
        with pytest.raises(KilledWorker):
            _load_with_a_kill(c, tmp_path)
    finally:
        c.close()
        cluster.close()
    assert os.listdir(tmp_path / "work") == []
    with rh.DB(tmp_path / "db", read_only=True) as db:
        assert db.live_files() == [] and list(db.iterate()) == []


def test_dask_load_command(client, tmp_path):
    (tmp_path / "a.tsv").write_bytes(b"b\t2\na\t1\n")
    (tmp_path / "b.csv").write_bytes(b"c,3\n\"a\",\"one, again\"\r\n")
    db_path = tmp_path / "db"
    run = subprocess.run(
        [sys.executable, "-m", "rocksdb_robinhood.dask_load",
         "--scheduler=" + client.scheduler.address,
         "--input=%s,%s" % (tmp_path / "a.tsv", tmp_path / "b.csv"),
         "--db=" + str(db_path), "--options=load_factor=0.9"],
        capture_output=True, timeout=120)
    assert run.returncode == 0, run.stderr.decode()
    summary = json.loads(run.stdout)
    assert (summary["entries"], summary["duplicates"]) == (3, 1)
    with rh.DB(db_path, read_only=True) as db:
        assert list(db.iterate()) == [(b"a", b"one, again"), (b"b", b"2"),
                                      (b"c", b"3")]

    bad = subprocess.run(
        [sys.executable, "-m", "rocksdb_robinhood.dask_load",
         "--scheduler=" + client.scheduler.address,
         "--input=" + str(tmp_path / "a.tsv"), "--db=" + str(db_path),
         "--options=load_factor=3"], capture_output=True, timeout=120)
    assert bad.returncode == 1
    assert b"load_factor" in bad.stderr


def test_file_and_bag_splits_agree(tmp_path):
    """The shuffle of an input file (C++) and of a bag partition (Python)
    put every entry in the same piece, in the same order."""
    from rocksdb_robinhood import formats, tasks
    entries = [(_key(i), b"%d" % i) for i in range(20000)]
    entries += entries[:500]  # duplicates stay, in input order
    write_binary(tmp_path / "in.bin", entries)
    boundaries = sorted(k for k, _ in entries[::997])
    for shards in (None, 3):
        pieces = {}
        for name, run in [
                ("py", lambda d: tasks.split(iter(entries), boundaries,
                                             shards, d)),
                ("cc", lambda d: tasks.split_file(str(tmp_path / "in.bin"),
                                                  "binary", boundaries,
                                                  shards, d))]:
            d = tmp_path / ("%s-%s" % (name, shards))
            d.mkdir()
            (result,) = run(str(d))
            assert result["entries"] == len(entries)
            pieces[name] = {w: list(formats.read(p, "binary"))
                            for w, p in result["pieces"].items()}
        assert pieces["py"] == pieces["cc"]
        assert sum(len(p) for p in pieces["cc"].values()) == len(entries)
        for (shard, r), got in pieces["cc"].items():
            for k, _ in got:
                assert shard == (shard_of(k, shards) if shards else 0)
                assert (r == 0 or boundaries[r - 1] <= k) and \
                    (r == len(boundaries) or k < boundaries[r])
    (sampled,) = tasks.sample_file(str(tmp_path / "in.bin"), "binary", 100)
    assert sampled["entries"] == len(entries) and len(sampled["keys"]) == 100
    assert set(sampled["keys"]) <= {k for k, _ in entries}
