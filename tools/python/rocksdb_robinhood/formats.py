"""rh_load's input formats, read by rh_load's own parser (read_input).

tsv     one entry a line: key, one TAB, value, then LF (a CR before the LF
        is dropped); backslash escapes \\\\ \\t \\n \\r \\0 \\xHH inside key
        and value
csv     RFC 4180 without a header row: two fields a record, LF or CRLF
        between records, fields with a comma, quote, CR or LF quoted
binary  records back to back: key length and value length (4 bytes each,
        unsigned little-endian), then the key's and the value's bytes
db      a RocksDB database directory: the default column family's entries

Bad input raises rocksdb_robinhood.InvalidArgument (or Corruption) naming
the file, the line or record, and the byte offset, as rh_load reports it.
docs/guide.md describes the formats in full.
"""

import os
import struct

from ._rocksdb_robinhood import InvalidArgument, read_input

FORMATS = ("tsv", "csv", "binary", "db")

_BY_EXTENSION = {".tsv": "tsv", ".csv": "csv", ".bin": "binary",
                 ".binary": "binary"}
_LENGTHS = struct.Struct("<II")


def format_of(path, input_format=None):
    """The format of `path`: `input_format` if given, else its extension's."""
    if input_format is not None:
        if input_format not in FORMATS:
            raise InvalidArgument(
                "input format %r: expected one of %s"
                % (input_format, ", ".join(FORMATS)))
        return input_format
    ext = os.path.splitext(path)[1].lower()
    if ext not in _BY_EXTENSION:
        raise InvalidArgument(
            "%s: cannot tell the input format from the extension %r; give "
            "input_format (%s)" % (path, ext, ", ".join(FORMATS)))
    return _BY_EXTENSION[ext]


def read(path, input_format=None):
    """The (key, value) pairs of `path`, in input order."""
    return read_input(path, format_of(path, input_format))


def encode_binary(pairs):
    """`pairs` in the binary format, for writing inputs and pieces."""
    out = bytearray()
    pack = _LENGTHS.pack
    for k, v in pairs:
        out += pack(len(k), len(v))
        out += k
        out += v
    return bytes(out)
