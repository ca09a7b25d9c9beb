"""Readers of rh_load's input formats: tsv, csv and binary.

Each reader yields (key, value) bytes pairs in file order, and refuses bad
input with rocksdb_robinhood.InvalidArgument naming the file, the line (or
record) and the byte offset. The formats, byte for byte:

tsv     one entry a line: key, one TAB, value, then LF (a CR before the LF
        is dropped). Inside key and value a backslash starts an escape:
        \\\\ backslash, \\t TAB, \\n LF, \\r CR, \\0 NUL, \\xHH any byte.
        Any other byte after a backslash, a line without a TAB, a second
        TAB, or an empty line is refused. A last line without LF is taken.
csv     RFC 4180 without a header row: two fields a record, separated by a
        comma; records end with LF or CRLF; a field holding a comma, a
        quote, CR or LF is quoted, a quote inside doubled. Field bytes are
        taken as they are. A record of one or three fields, or a stray
        quote, is refused.
binary  records back to back: key length and value length (4 bytes each,
        unsigned little-endian), then the key's and the value's bytes. A
        truncated record is refused.

The same files are what the rh_load program reads, so a data set loaded
either way gives the same database.
"""

import mmap
import os
import struct

from ._rocksdb_robinhood import InvalidArgument

FORMATS = ("tsv", "csv", "binary")

_BY_EXTENSION = {".tsv": "tsv", ".csv": "csv", ".bin": "binary",
                 ".binary": "binary"}

_TSV_ESCAPES = {ord("\\"): 0x5C, ord("t"): 0x09, ord("n"): 0x0A,
                ord("r"): 0x0D, ord("0"): 0x00}
_HEX = frozenset(b"0123456789abcdefABCDEF")
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
    """The (key, value) pairs of the file `path`, in file order."""
    fmt = format_of(path, input_format)
    if fmt == "tsv":
        return read_tsv(path)
    if fmt == "csv":
        return read_csv(path)
    return read_binary(path)


def _refuse(path, where, offset, what):
    raise InvalidArgument("%s: %s, byte offset %d: %s"
                          % (path, where, offset, what))


def _tsv_unescape(field, path, line_no, offset):
    """`field` with its escapes decoded; `offset` is the field's in the file."""
    out = bytearray()
    i = 0
    n = len(field)
    while True:
        j = field.find(b"\\", i)
        if j < 0:
            out += field[i:]
            return bytes(out)
        out += field[i:j]
        if j + 1 >= n:
            _refuse(path, "line %d" % line_no, offset + j,
                    "a backslash ends the field")
        c = field[j + 1]
        if c in _TSV_ESCAPES:
            out.append(_TSV_ESCAPES[c])
            i = j + 2
        elif (c == ord("x") and j + 4 <= n and field[j + 2] in _HEX
              and field[j + 3] in _HEX):
            out.append(int(field[j + 2:j + 4], 16))
            i = j + 4
        else:
            _refuse(path, "line %d" % line_no, offset + j,
                    "unknown escape %r" % field[j:j + 4])


def read_tsv(path):
    with open(path, "rb") as f:
        offset = 0
        for line_no, line in enumerate(f, 1):
            start = offset
            offset += len(line)
            if line.endswith(b"\r\n"):
                body = line[:-2]
            elif line.endswith(b"\n"):
                body = line[:-1]
            else:
                body = line  # the last line, without LF
            if not body:
                _refuse(path, "line %d" % line_no, start, "an empty line")
            tab = body.find(b"\t")
            if tab < 0:
                _refuse(path, "line %d" % line_no, start, "no TAB")
            second = body.find(b"\t", tab + 1)
            if second >= 0:
                _refuse(path, "line %d" % line_no, start + second,
                        "a second TAB (write a TAB inside a field as \\t)")
            key = body[:tab]
            value = body[tab + 1:]
            if b"\\" in key:
                key = _tsv_unescape(key, path, line_no, start)
            if b"\\" in value:
                value = _tsv_unescape(value, path, line_no, start + tab + 1)
            yield key, value


def _csv_quoted_record(path, record_no, start, line, lines):
    """Parses a record holding a quote, character by character. `line` is
    its first line, terminator included; `lines` yields the lines after it,
    which a quoted field may run into. Returns (fields, bytes consumed)."""
    fields = []
    field = bytearray()
    consumed = 0       # bytes of the lines before `line`
    i = 0
    quoted = False     # inside a quoted field
    after_quote = False  # the quoted field has closed
    while True:
        if i >= len(line):
            if quoted:
                nxt = next(lines, None)
                if nxt is None:
                    _refuse(path, "record %d" % record_no, start,
                            "a quoted field is not closed")
                consumed += len(line)
                line = nxt
                i = 0
                continue
            fields.append(bytes(field))  # the last record, without LF
            return fields, consumed + len(line)
        c = line[i]
        if quoted:
            if c == 0x22:  # '"'
                if i + 1 < len(line) and line[i + 1] == 0x22:
                    field.append(0x22)
                    i += 2
                    continue
                quoted = False
                after_quote = True
            else:
                field.append(c)
            i += 1
            continue
        if c == 0x2C:  # ','
            fields.append(bytes(field))
            field = bytearray()
            after_quote = False
        elif c == 0x0A or (c == 0x0D and line[i + 1:i + 2] == b"\n"):
            fields.append(bytes(field))
            return fields, consumed + len(line)
        elif after_quote:
            _refuse(path, "record %d" % record_no, start + consumed + i,
                    "a byte after a quoted field's closing quote")
        elif c == 0x22:
            if field:
                _refuse(path, "record %d" % record_no, start + consumed + i,
                        "a quote inside an unquoted field")
            quoted = True
        elif c == 0x0D:
            _refuse(path, "record %d" % record_no, start + consumed + i,
                    "a CR outside quotes")
        else:
            field.append(c)
        i += 1


def read_csv(path):
    with open(path, "rb") as f:
        lines = iter(f)
        offset = 0
        record_no = 0
        for line in lines:
            record_no += 1
            start = offset
            if b'"' in line:
                fields, used = _csv_quoted_record(path, record_no, start,
                                                  line, lines)
                offset += used
            else:
                offset += len(line)
                if line.endswith(b"\r\n"):
                    body = line[:-2]
                elif line.endswith(b"\n"):
                    body = line[:-1]
                else:
                    body = line
                if b"\r" in body:
                    _refuse(path, "record %d" % record_no,
                            start + body.index(b"\r"), "a CR outside quotes")
                fields = body.split(b",")
            if len(fields) != 2:
                _refuse(path, "record %d" % record_no, start,
                        "%d field%s (a record is a key and a value)"
                        % (len(fields), "" if len(fields) == 1 else "s"))
            yield fields[0], fields[1]


def read_binary(path):
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size == 0:
            return
        with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
            offset = 0
            record_no = 0
            unpack = _LENGTHS.unpack_from
            header = _LENGTHS.size
            while offset < size:
                record_no += 1
                if offset + header > size:
                    _refuse(path, "record %d" % record_no, offset,
                            "truncated: %d of the %d bytes of the lengths"
                            % (size - offset, header))
                klen, vlen = unpack(m, offset)
                end = offset + header + klen + vlen
                if end > size:
                    _refuse(path, "record %d" % record_no, offset,
                            "truncated: a %d-byte key and a %d-byte value "
                            "need %d bytes, the file has %d"
                            % (klen, vlen, end - offset, size - offset))
                k = offset + header
                yield m[k:k + klen], m[k + klen:end]
                offset = end


def encode_binary(pairs):
    """`pairs` as the binary format's bytes (for writing inputs)."""
    out = bytearray()
    pack = _LENGTHS.pack
    for k, v in pairs:
        out += pack(len(k), len(v))
        out += k
        out += v
    return bytes(out)
