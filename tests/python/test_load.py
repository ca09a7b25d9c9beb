"""rh_load's library through the package: read_input (its parser) and
load (its loader)."""

import pytest

import rocksdb_robinhood as rh
from rocksdb_robinhood import formats
from conftest import write_binary


def test_read_input_formats(tmp_path):
    expected = [(b"a\tb", b"1\n"), (b"", b"\x00\xff"), (b"k,\"q\"", b"v")]
    (tmp_path / "in.tsv").write_bytes(
        b"a\\tb\t1\\n\n\t\\0\\xFF\r\nk,\"q\"\tv")
    (tmp_path / "in.csv").write_bytes(
        b"\"a\tb\",\"1\n\"\r\n,\x00\xff\n\"k,\"\"q\"\"\",v")
    write_binary(tmp_path / "in.bin", expected)
    for name in ("in.tsv", "in.csv", "in.bin"):
        path = str(tmp_path / name)
        assert list(formats.read(path)) == expected, name
    assert list(rh.read_input(tmp_path / "in.bin", "binary")) == expected


@pytest.mark.parametrize("fmt,content,where", [
    ("tsv", b"a\t1\nb 2\n", "line 2, byte 4"),
    ("tsv", b"a\t1\n\nc\t3\n", "line 2, byte 4"),
    ("tsv", b"a\t1\tx\n", "line 1"),
    ("tsv", b"a\\q\t1\n", "line 1"),
    ("csv", b"a,1\nb,2,3\n", "record 2, byte 4"),
    ("csv", b"a,1\n\"b,2\n", "record 2, byte 4"),
    ("binary", b"\x05\x00\x00\x00\x01\x00\x00\x00ab", "record 1, byte 0"),
])
def test_read_input_refuses_bad_input_by_place(tmp_path, fmt, content,
                                               where):
    path = tmp_path / ("bad." + fmt)
    path.write_bytes(content)
    with pytest.raises(rh.InvalidArgument) as e:
        list(rh.read_input(path, fmt))
    assert str(path) in str(e.value) and where in str(e.value), str(e.value)


def test_read_input_refusals(tmp_path):
    with pytest.raises(rh.IOError):
        rh.read_input(tmp_path / "missing.tsv", "tsv")
    with pytest.raises(rh.InvalidArgument):
        rh.read_input(tmp_path / "x", "json")
    with pytest.raises(rh.InvalidArgument):
        formats.format_of("data.json")


def test_load_resolves_duplicates_and_ingests(tmp_path):
    first = [(b"k%04d" % i, b"first") for i in range(0, 3000, 2)]
    second = [(b"k%04d" % i, b"second") for i in range(0, 3000, 3)]
    write_binary(tmp_path / "1.bin", first)
    write_binary(tmp_path / "2.bin", second)
    inputs = [tmp_path / "1.bin", tmp_path / "2.bin"]
    model = dict(first)
    model.update(second)  # the last occurrence wins

    summary = rh.load(inputs, tmp_path / "out", input_format="binary",
                      memory_limit=16 << 20, db=str(tmp_path / "db"))
    assert summary["entries_read"] == len(first) + len(second)
    assert summary["entries"] == len(model)
    with rh.DB(tmp_path / "db", read_only=True) as db:
        assert list(db.iterate()) == sorted(model.items())
        assert {f["level"] for f in db.live_files()} == {6}

    kept = rh.load(inputs, tmp_path / "out_first", input_format="binary",
                   memory_limit=16 << 20, on_duplicate="first")
    with rh.DB(tmp_path / "db_first") as db:
        db.ingest(kept["files"])
        first_model = dict(second)
        first_model.update(first)
        assert list(db.iterate()) == sorted(first_model.items())

    with pytest.raises(rh.InvalidArgument) as e:
        rh.load(inputs, tmp_path / "out_error", input_format="binary",
                memory_limit=16 << 20, on_duplicate="error")
    assert "1.bin record 1 and at" in str(e.value)  # k0000, in both files
    assert "2.bin record 1" in str(e.value)


def test_load_refuses_bad_arguments(tmp_path):
    write_binary(tmp_path / "1.bin", [(b"a", b"1")])
    for kwargs, named in [({"memory_limit": 1 << 20}, "--memory_limit"),
                          ({"options": "load_factor=7"}, "load_factor"),
                          ({"on_duplicate": "middle"}, "on_duplicate")]:
        with pytest.raises(rh.InvalidArgument) as e:
            rh.load([tmp_path / "1.bin"], tmp_path / "out",
                    input_format="binary", **kwargs)
        assert named in str(e.value)
