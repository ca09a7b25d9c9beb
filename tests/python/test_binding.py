"""The binding's round trips and errors: Writer, DB, inspect, options."""

import json
import os
import random
import subprocess
import threading
import time

import pytest

import rocksdb_robinhood as rh
from conftest import build_program


def pairs(n, value=b"v"):
    return [(b"key%07d" % i, value + b"%d" % i) for i in range(n)]


def test_writer_ingest_round_trip(tmp_path):
    data = pairs(5000)
    path = tmp_path / "part-0001.sst"
    with rh.Writer(path, options="load_factor=0.85") as w:
        w.put(*data[0])
        w.put_many(data[1:])
    info = w.info
    assert info["path"] == str(path)
    assert info["entries"] == len(data)
    assert info["bytes"] == os.path.getsize(path)
    assert info["layout"] == "inline"
    assert (info["smallest_key"], info["largest_key"]) == (data[0][0],
                                                           data[-1][0])

    with rh.DB(tmp_path / "db") as db:
        db.ingest([path], move=True)
        assert not path.exists()  # moved
        files = db.live_files()
        assert [(f["level"], f["largest_seqno"]) for f in files] == [(6, 0)]
        assert list(db.iterate()) == data
        assert db.get(b"key0000042") == b"v42"
        assert db.get(b"absent") is None
        assert db.multi_get([b"key0000001", b"nope", b"key0004999"]) == [
            b"v1", None, b"v4999"]
        assert list(db.iterate(start=b"key0000010", stop=b"key0000013")) == \
            data[10:13]
        assert list(db.iterate(start=b"key0004998")) == data[4998:]


def test_options_reach_the_file(tmp_path):
    # Values past inline_slot_limit bytes take pages; without them, the
    # log. Values that do not compress: the Writer's column family has
    # RocksDB's default codec, and entries it would compress keep the log.
    rng = random.Random(7)
    data = sorted((bytes(rng.getrandbits(8) for _ in range(12)),
                   bytes(rng.getrandbits(8) for _ in range(20)))
                  for _ in range(100))
    for options, layout in [("", "inline"), ("inline_slot_limit=0", "paged"),
                            ("inline_slot_limit=0;page_layout=false", "log")]:
        with rh.Writer(tmp_path / ("%s.sst" % layout), options=options) as w:
            w.put_many(data)
        assert w.info["layout"] == layout
        assert rh.inspect(w.info["path"])["layout"] == layout


@pytest.mark.parametrize("options,named", [
    ("load_factor=2", "load_factor"),
    ("load_factor=0.7;laod_factor=0.7", "laod_factor"),
    ("log_block_size=12", "log_block_size"),
    ("inline_order_array=maybe", "inline_order_array"),
])
def test_bad_options_are_refused_by_name(tmp_path, options, named):
    for make in (lambda: rh.Writer(tmp_path / "x.sst", options=options),
                 lambda: rh.DB(tmp_path / "db", options=options)):
        with pytest.raises(rh.InvalidArgument) as e:
            make()
        assert named in str(e.value)
        assert isinstance(e.value, ValueError)
    assert not (tmp_path / "x.sst").exists()


def test_writer_refuses_keys_out_of_order(tmp_path):
    w = rh.Writer(tmp_path / "a.sst")
    w.put(b"b", b"1")
    for bad in (b"a", b"b"):  # smaller, equal
        with pytest.raises(rh.InvalidArgument) as e:
            w.put(bad, b"2")
        assert "ascending" in str(e.value) and "entry 1" in str(e.value)
    with pytest.raises(rh.InvalidArgument) as e:
        w.put_many([(b"c", b"3"), (b"d", b"4"), (b"c", b"5")])
    assert "entry 3" in str(e.value)
    w.abandon()
    assert not (tmp_path / "a.sst").exists()


def test_writer_types_and_lifecycle(tmp_path):
    w = rh.Writer(tmp_path / "a.sst")
    with pytest.raises(TypeError):
        w.put("text", b"v")
    with pytest.raises(TypeError):
        w.put_many([(b"k", "text")])
    with pytest.raises(ValueError):
        w.put_many([(b"k", b"v", b"extra")])
    with pytest.raises(RuntimeError):
        w.info  # not finished
    w.put(b"k", b"v")
    w.finish()
    with pytest.raises(rh.InvalidArgument):
        w.put(b"l", b"v")
    # An empty file is refused (SstFileWriter's rule), and not left behind.
    with pytest.raises(rh.InvalidArgument):
        with rh.Writer(tmp_path / "empty.sst"):
            pass
    assert not (tmp_path / "empty.sst").exists()


def test_writer_leaving_by_exception_removes_the_file(tmp_path):
    path = tmp_path / "a.sst"
    with pytest.raises(KeyError):
        with rh.Writer(path) as w:
            w.put(b"k", b"v")
            raise KeyError("stop")
    assert not path.exists()


def test_inspect_is_rh_inspect_info_json(tmp_path):
    rh_inspect = build_program("rh_inspect")
    for options in ("", "inline_slot_limit=0",
                    "inline_slot_limit=0;page_layout=false;log_block_size=512"):
        path = tmp_path / "a.sst"
        with rh.Writer(path, options=options) as w:
            w.put_many(pairs(3000, value=b"value-" * 5))
        printed = subprocess.run([rh_inspect, "info", "--json", str(path)],
                                 check=True, capture_output=True).stdout
        assert rh.inspect(path) == json.loads(printed)
        path.unlink()


def test_damaged_file_is_corruption(tmp_path):
    path = tmp_path / "a.sst"
    with rh.Writer(path, options="inline_slot_limit=0;page_layout=false") as w:
        w.put_many(pairs(2000))
    index = [s for s in rh.inspect(path)["sections"]
             if s["name"] == "hash_index"][0]
    with open(path, "r+b") as f:
        f.seek(index["offset"] + index["bytes"] // 2)
        byte = f.read(1)
        f.seek(-1, os.SEEK_CUR)
        f.write(bytes([byte[0] ^ 0x40]))
    with pytest.raises(rh.Corruption) as e:
        rh.inspect(path)
    assert str(path) in str(e.value)
    with rh.DB(tmp_path / "db") as db:
        with pytest.raises(rh.Corruption):
            db.ingest([path])


def test_inspect_refusals(tmp_path):
    with pytest.raises(rh.IOError):
        rh.inspect(tmp_path / "missing.sst")
    (tmp_path / "text.sst").write_bytes(b"not a table" * 10)
    with pytest.raises(rh.InvalidArgument) as e:
        rh.inspect(tmp_path / "text.sst")
    assert "not a RobinHoodTable file" in str(e.value)


def test_db_operations_and_errors(tmp_path):
    path = tmp_path / "db"
    db = rh.DB(path, options="load_factor=0.9")
    db.put(b"a", b"1")
    db.put(b"b", b"2")
    db.delete(b"a")
    db.flush()
    db.compact_range()
    assert db.get(b"a") is None and db.get(b"b") == b"2"
    assert db.property("rocksdb.num-files-at-level0") == "0"  # compacted
    assert db.property("no.such.property") is None
    # The DB is locked while open.
    with pytest.raises(rh.IOError):
        rh.DB(path)
    db.close()
    with pytest.raises(rh.InvalidArgument):
        db.get(b"b")
    ro = rh.DB(path, read_only=True)
    assert ro.get(b"b") == b"2"
    with pytest.raises(rh.NotSupported):
        ro.put(b"c", b"3")
    ro.close()
    with pytest.raises(rh.IOError):
        rh.DB(tmp_path / "none", read_only=True)
    assert not (tmp_path / "none").exists()  # read-only creates nothing


def test_iterator_outlives_close(tmp_path):
    db = rh.DB(tmp_path / "db")
    for k, v in pairs(10):
        db.put(k, v)
    it = db.iterate()
    db.close()
    assert list(it) == pairs(10)


def test_multi_get_releases_the_gil(tmp_path):
    """While one thread is in a long multi_get, another keeps running
    Python: the longest pause it sees is a fraction of the call. (Held, the
    GIL would stop it for the whole lookup.)"""
    data = pairs(60000)
    path = tmp_path / "a.sst"
    with rh.Writer(path) as w:
        w.put_many(data)
    db = rh.DB(tmp_path / "db")
    db.ingest([path])
    # Every key four times: long enough a call to tell a pause from it.
    keys = [k for k, _ in data] * 4
    expected = [v for _, v in data] * 4

    results = {}

    def lookup():
        start = time.monotonic()
        results["values"] = db.multi_get(keys)
        results["seconds"] = time.monotonic() - start

    t = threading.Thread(target=lookup)
    longest = 0.0
    last = time.monotonic()
    t.start()
    while t.is_alive():
        now = time.monotonic()
        longest = max(longest, now - last)
        last = now
    t.join()
    assert results["values"] == expected
    assert results["seconds"] > 0.2, "too short to tell"
    assert longest < 0.5 * results["seconds"], (longest, results["seconds"])

    # And lookups from several threads at once agree with one.
    out = [None] * 4
    threads = [threading.Thread(target=lambda i=i: out.__setitem__(
        i, db.multi_get(keys[i::4]))) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out == [expected[i::4] for i in range(4)]
    db.close()
