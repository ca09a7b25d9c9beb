#!/usr/bin/env bash
# Tool test: rh_inspect on files of known contents written by rh_sample
# (tests/tools/rh_sample.cc says exactly what each holds): every command's
# text and --json output (parsed by Python), FROM/TO bounds and --limit,
# binary keys with --hex, a reverse-comparator file, that get finds the keys
# written and not their neighbours, the exit statuses (0 ok, 1 key not found,
# 2 not a RobinHoodTable file or damaged, 64 usage), and damaged or foreign
# files (a BlockBasedTable SST, a text file, empty, missing, truncated, one
# byte flipped in each part), which must fail with status 2 and a message
# naming the file (and for damage, "Corruption" and the offset), never a
# crash.
#
# Environment (set by CMake's ctest): RH_BUILD_DIR = the build directory,
# holding rh_inspect and rh_sample.
set -euo pipefail

fail() {
  echo "inspect_test: FAIL: $*" >&2
  exit 1
}
[[ -n "${RH_BUILD_DIR:-}" ]] || fail "RH_BUILD_DIR is not set"
INSPECT="$RH_BUILD_DIR/rh_inspect"
SAMPLE="$RH_BUILD_DIR/rh_sample"
[[ -x "$INSPECT" ]] || fail "not built: $INSPECT"
[[ -x "$SAMPLE" ]] || fail "not built: $SAMPLE"
command -v python3 >/dev/null || fail "python3 is needed to check --json output"
# The interpreter itself: a version manager's python3 shim can take half a
# second to start, and this test starts Python a hundred times.
PYTHON="$(python3 -c 'import sys; print(sys.executable)')"
python3() { "$PYTHON" "$@"; }

WORK="$(mktemp -d "${TMPDIR:-/tmp}/rh_inspect_test.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
OUT="$WORK/out"
ERR="$WORK/err"
"$SAMPLE" "$WORK" >"$OUT" || fail "rh_sample failed: $(cat "$OUT")"
F="$WORK/sample.sst"
V="$WORK/versions.sst"
R="$WORK/reverse.sst"
C="$WORK/compressed.sst"  # absent if the library has no codec

# run STATUS ARGS...: runs rh_inspect, output in $OUT and $ERR, and checks
# the exit status (and that a crash never passes for one).
run() {
  local want=$1 got=0
  shift
  "$INSPECT" "$@" >"$OUT" 2>"$ERR" || got=$?
  [[ $got -eq $want ]] ||
    fail "rh_inspect $* exited $got, expected $want; stderr: $(head -c 600 "$ERR")"
}
# has PATTERN: $OUT has a line matching the extended regex.
has() {
  grep -Eq -- "$1" "$OUT" || fail "output lacks /$1/:"$'\n'"$(head -c 2000 "$OUT")"
}
err_has() {
  grep -Fq -- "$1" "$ERR" || fail "stderr lacks '$1': $(cat "$ERR")"
}
# json PYTHON: $OUT parses as JSON, and the expression (over `d`) is true.
json() {
  python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
ok = eval(sys.argv[2])
sys.exit(0 if ok else 1)' "$OUT" "$1" ||
    fail "JSON check failed: $1"$'\n'"$(head -c 2000 "$OUT")"
}

# --- info ---
run 0 info "$F"
has '^table factory +RobinHoodTable$'
has '^format version +3$'
has '^filter +[0-9]+ bytes, [0-9.]+ bits a key, robinhood\.HashBloom$'
has '^comparator +leveldb\.BytewiseComparator$'
has '^entries +1002 \(10 deletions, 10 merge operands\)$'
has '^distinct keys +1002$'
has '^range deletions +1$'
has '^compression +NoCompression \(0 of [0-9]+ blocks compressed\)$'
has '^  hash_seed +0x526f62696e486f6f$'
has '^  log_block_size +512$'
has '^  sparse_index_interval +16$'
has '^  load_factor +0\.8[0-9]* '
# num_entries counts the range deletion too, as BlockBasedTable's does.
has '^  rocksdb\.num\.entries +1003$'
has '^  rocksdb\.comparator +leveldb\.BytewiseComparator$'
has '^  rocksdb\.robinhood\.factory +RobinHoodTable$'
has '^  rocksdb\.external_sst_file\.version +2 \(fixed32\)$'
run 0 info "$F" --json
SIZE=$(stat -c %s "$F")
json "d['ok'] and d['entries'] == 1002 and d['distinct_keys'] == 1002"
json "d['deletions'] == 10 and d['merge_operands'] == 10 and d['range_deletions'] == 1"
json "d['file_size'] == $SIZE and sum(s['bytes'] for s in d['sections']) == $SIZE"
json "d['options']['log_block_size'] == 512 and d['options']['hash_seed'] == '0x526f62696e486f6f'"
json "d['table_factory'] == 'RobinHoodTable' and d['format_version'] == 3"
json "d['properties']['rocksdb.num.entries'] == 1003"
json "d['user_collected_properties']['rocksdb.robinhood.factory'] == 'RobinHoodTable'"
json "d['comparator'] == 'leveldb.BytewiseComparator' and d['log']['compressed_blocks'] == 0"
# SstFileWriter's binary properties, decoded: version 2, global seqno 0.
json "d['user_collected_properties']['rocksdb.external_sst_file.global_seqno'] == 0"
json "d['user_collected_properties']['rocksdb.external_sst_file.version'] == 2"
# rocksdb.deleted.keys is num_deletions: 10 deletions and the range deletion.
json "d['user_collected_properties']['rocksdb.deleted.keys'] == 11"
BLOCKS=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["log"]["blocks"])' "$OUT")
[[ $BLOCKS -gt 10 ]] || fail "sample.sst has $BLOCKS log blocks; rh_sample asks for 512-byte blocks"
if [[ -f "$C" ]]; then
  run 0 info "$C" --json
  json "d['compression'] != 'NoCompression' and d['log']['compressed_blocks'] > 0"
  json "d['log']['file_bytes'] < d['log']['logical_bytes']"
fi

# --- stats ---
run 0 stats "$F"
has '^load factor +0\.8[0-9]* \(1002 keys in [0-9]+ home slots\)$'
has '^probe length \(hit\) +mean [0-9.]+, max [0-9]+'
has '^probe length \(miss\) +mean [0-9.]+'
has '^displacement histogram'
for part in keys values entry_overhead block_trailers compression hash_index \
  block_table sparse_index range_deletions properties metaindex meta footer; do
  has "^  $part +-?[0-9.]+ +\(-?[0-9]+ bytes"
done
has "^  total +[0-9.]+ +\($SIZE bytes, 100\.0% of the file\)$"
run 0 info "$F" --json
MAXD=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["user_collected_properties"]["rocksdb.robinhood.max.displacement"])' "$OUT")
MEAND=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["user_collected_properties"]["rocksdb.robinhood.mean.displacement"])' "$OUT")
run 0 stats "$F" --json
json "d['index']['used_slots'] == 1002 and sum(h['keys'] for h in d['displacement']['histogram']) == 1002"
json "d['displacement']['max'] == $MAXD and abs(d['displacement']['mean'] - $MEAND) < 1e-3"
json "abs(d['probe_length_hit']['mean'] - d['displacement']['mean'] - 1) < 1e-9"
json "d['probe_length_hit']['max'] == $MAXD + 1 and d['probe_length_miss']['samples'] == 100000"
# The parts add up to the file, and the entries' share is what rh_sample
# wrote: user keys 6 + 1000 * 9 + 8 bytes (UTF-8 "zz-été"); values as below.
json "sum(v for k, v in d['bytes'].items() if k != 'file') == d['bytes']['file'] == $SIZE"
json "d['bytes']['keys'] == 6 + 9000 + 8 and d['bytes']['compression'] == 0"
json "d['bytes']['values'] == 5 + 6 + sum(0 if i % 100 == 0 else len('m%d' % i) if i % 100 == 50 else len('value-%d' % i) for i in range(1000))"
json "d['bytes']['block_trailers'] == 5 * $BLOCKS and 2 * 1002 <= d['bytes']['entry_overhead'] <= 3 * 1002"
json "0.8 < d['load_factor'] <= 0.85 and abs(d['bytes_per_entry']['total'] * 1002 - $SIZE) < 1"
run 0 stats "$F" --json --samples 0
json "d['probe_length_miss']['samples'] == 0"
if [[ -f "$C" ]]; then
  run 0 stats "$C" --json
  json "d['bytes']['compression'] < 0 and d['bytes']['keys'] == 6 + 9000 + 8"
  json "sum(v for k, v in d['bytes'].items() if k != 'file') == d['bytes']['file']"
fi

# --- get ---
run 0 get "$F" key000001
has '^newest +seq 0 PUT value-1$'
has '^versions +1$'
run 0 get "$F" key000050
has '^newest +seq 0 MERGE m50$'
run 0 get "$F" key000100
has '^newest +seq 0 DELETE$'
run 0 get "$F" key000920
has '^covered by +range deletion \[key000900, key000950\) at seq 0$'
run 0 get --hex "$F" 00ff0162696e
has '^newest +seq 0 PUT 000102feff$'
run 0 get "$F" 00ff0162696e --hex --json
json "d['found'] and d['key'] == {'hex': '00ff0162696e'} and d['newest']['value'] == {'hex': '000102feff'}"
run 0 get "$F" "zz-été" --json
json "d['key'] == 'zz-\u00e9t\u00e9' and d['newest'] == {'seq': 0, 'type': 'PUT', 'value': 'summer'}"
run 0 get "$V" apple
has '^newest +seq 5 PUT golden$'
has '^versions +5$'
run 0 get "$V" apple --json
json "[(v['seq'], v['type'], v['value']) for v in d['versions']] == [(5, 'PUT', 'golden'), (4, 'DELETE', ''), (3, 'MERGE', 'ripe'), (2, 'PUT', 'green'), (1, 'PUT', 'red')]"
json "d['newest']['seq'] == 5 and d['covering_range_deletions'] == []"
# The keys rh_sample wrote are found (every 13th, to keep the test fast:
# verify below looks up every key), with their type and value; keys next to
# them are not.
for ((i = 0; i < 1000; i += 13)); do
  k=$(printf 'key%06d' $i)
  if ((i % 100 == 0)); then want="DELETE"
  elif ((i % 100 == 50)); then want="MERGE m$i"
  else want="PUT value-$i"; fi
  run 0 get "$F" "$k"
  has "^newest +seq 0 $want\$"
  run 1 get "$F" "${k}x"
  has '^newest +not found$'
done
for miss in "" key00000 key001000 Key000001 key00000x apple 00ff0162696e; do
  run 1 get "$F" "$miss"
  has '^newest +not found$'
done
# A missing key: status 1, "key not found" naming the file.
run 1 get "$F" key000001x
has '^newest +not found$'
err_has "$F: key not found"
run 1 get "$F" nosuchkey --json
json "d['found'] is False and d['newest'] is None and d['versions'] == []"

# --- scan ---
run 0 scan "$F"
[[ $(wc -l <"$OUT") -eq 1003 ]] || fail "scan: $(wc -l <"$OUT") lines, expected 1002 entries + 1 range deletion"
[[ "$(head -n1 "$OUT")" == $'\\x00\\xff\\x01bin\t0\tPUT\t\\x00\\x01\\x02\\xfe\\xff' ]] ||
  fail "scan: first line $(head -n1 "$OUT")"
has $'^key000000\t0\tDELETE\t$'
has $'^key000050\t0\tMERGE\tm50$'
has $'^key000900\t0\tRANGE_DELETE\tkey000950$'
run 0 scan "$F" --json
json "d['ok'] and d['count'] == 1002 and not d['truncated'] and len(d['entries']) == 1002"
json "[bytes.fromhex(e['key']['hex']) if isinstance(e['key'], dict) else e['key'].encode() for e in d['entries']] == sorted(bytes.fromhex(e['key']['hex']) if isinstance(e['key'], dict) else e['key'].encode() for e in d['entries'])"
json "d['range_deletions'] == [{'start': 'key000900', 'end': 'key000950', 'seq': 0}]"
run 0 scan "$F" key000095 key000102
[[ "$(cut -f1 "$OUT" | tr '\n' ' ')" == "key000095 key000096 key000097 key000098 key000099 key000100 key000101 " ]] ||
  fail "scan FROM TO: $(cut -f1 "$OUT" | tr '\n' ' ')"
run 0 scan "$F" key000998
[[ "$(cut -f1 "$OUT" | tr '\n' ' ')" == "key000998 key000999 zz-\\xc3\\xa9t\\xc3\\xa9 " ]] ||
  fail "scan FROM: $(cut -f1 "$OUT" | tr '\n' ' ')"
run 0 scan "$F" key000010 --limit 3 --json
json "[e['key'] for e in d['entries']] == ['key000010', 'key000011', 'key000012'] and d['truncated']"
run 0 scan "$F" --hex 00 01
[[ "$(cat "$OUT")" == $'00ff0162696e\t0\tPUT\t000102feff' ]] || fail "scan --hex: $(cat "$OUT")"
run 0 scan "$F" key000905 key000906 --json
json "d['count'] == 1 and len(d['range_deletions']) == 1"
run 0 scan "$V" --json
json "[(e['key'], e['seq']) for e in d['entries']] == [('apple', 5), ('apple', 4), ('apple', 3), ('apple', 2), ('apple', 1), ('banana', 6), ('cherry', 7)]"
# The ingested file's entries surface with the global seqno (8).
run 0 scan "$WORK/ingested.sst" --json
json "[(e['key'], e['seq'], e['value']) for e in d['entries']] == [('ant', 8, '6 legs'), ('bee', 8, 'buzz')]"
# A file in ReverseBytewiseComparator order: opened with its comparator.
run 0 info "$R"
has '^comparator +rocksdb\.ReverseBytewiseComparator$'
run 0 scan "$R" --json
json "[e['key'] for e in d['entries']] == ['r%03d' % i for i in range(99, -1, -1)]"
run 0 scan "$R" r002
[[ "$(cut -f1 "$OUT" | tr '\n' ' ')" == "r002 r001 r000 " ]] || fail "reverse scan FROM: $(cut -f1 "$OUT" | tr '\n' ' ')"
run 0 get "$R" r042
has '^newest +seq 0 PUT value-r042$'
run 1 get "$R" r100

# --- the inline layout: the reverse file's 100 compacted puts fit slots;
# the sample file, with versions and deletions, keeps a log.
run 0 info "$R"
has '^layout +inline '
has '^inline slots +15 bytes each: key 4, value 10; 1 pages of 272 slots$'
run 0 info "$R" --json
json "d['layout'] == 'inline' and d['inline']['slot_width'] == 15 and d['inline']['slots'] >= 125 and 'log' not in d"
run 0 info "$F" --json
json "d['layout'] == 'log' and 'inline' not in d"
run 0 stats "$R" --json
json "d['distinct_keys'] == 100 and d['load_factor'] == 0.8"
has '"slot_overhead"'
run 0 stats "$R"
has '^probe length \(miss\) '
run 0 verify "$R"
has '^checksums match: 1 pages of inline slots, '

# --- pages, then a log: the first 2,000 keys in pages, the rest in a log
# behind them, from the 70,000-byte value no page takes.
PL="$WORK/paged_log.sst"
run 0 info "$PL" --json
json "d['layout'] == 'paged+log' and d['format_version'] == 8 and d['entries'] == 3000"
json "d['pages']['pages'] > 50 and d['log']['blocks'] > 100 and d['hash_index']['capacity'] > 900"
run 0 info "$PL"
has '^layout +paged\+log '
run 0 get "$PL" pg00007
has '^newest +seq 0 PUT v7\.+$'
run 0 get "$PL" pg02000 --json
json "d['found'] and d['newest']['value'] == 'x' * 70000"
run 0 get "$PL" pg02999
has '^newest +seq 0 PUT v2999\.+$'
run 0 get "$PL" pg02013
has '^newest +seq 0 DELETE$'
run 1 get "$PL" pg03000
run 1 get "$PL" pg00007x
run 0 scan "$PL" pg01998 --json --limit 4
json "[e['key'] for e in d['entries']] == ['pg01998', 'pg01999', 'pg02000', 'pg02001']"
run 0 stats "$PL" --json
json "sum(v for k, v in d['bytes'].items() if k != 'file') == d['bytes']['file']"
run 0 verify "$PL"

# --- an inline file without an order array: the reader sorts the slots by
# the file's (reverse) comparator.
RS="$WORK/reverse_sorted.sst"
run 0 info "$RS"
has '^key order +sorted by readers on first iteration$'
has '^filter +[0-9]+ bytes, [0-9.]+ bits a key, bloomfilter$'
run 0 info "$R"
has '^key order +stored \(order array\)$'
run 0 info "$RS" --json
json "d['inline']['order_array'] == False and d['filter']['usable'] and d['filter']['policy'] == 'bloomfilter'"
run 0 scan "$RS" --json
json "[e['key'] for e in d['entries']] == ['r%03d' % i for i in range(99, -1, -1)]"
run 0 scan "$RS" r002
[[ "$(cut -f1 "$OUT" | tr '\n' ' ')" == "r002 r001 r000 " ]] || fail "sorted reverse scan FROM: $(cut -f1 "$OUT" | tr '\n' ' ')"
run 0 verify "$RS"
has "^OK: "

# --- an inline file with its slots in key order: its own order, homes from
# a model of the keys; scans, FROM, get and stats go by it.
K="$WORK/keyorder.sst"
run 0 info "$K"
has '^key order +the slots'"'"' own \(homes from the keys\)$'
has '^key order model +[0-9]+ buckets of 2\^[0-9]+ numbers, past a 2-byte prefix$'
has '^format version +11$'
has '^inline slots +[0-9]+ bytes each: key 4 past the 2-byte prefix every key shares, '
run 0 info "$K" --json
json "d['inline']['key_ordered_slots'] and not d['inline']['order_array'] and d['inline']['key_order_prefix_bytes'] == 2"
json "d['inline']['elided_prefix_bytes'] == 2 and d['inline']['key_width'] == 4"
run 0 scan "$K" --json --hex
json "[e['key']['hex'] for e in d['entries']] == ['6b6f%08x' % (i * 21474836 + 7) for i in range(200)]"
run 0 scan "$K" --json --hex --limit 3 6b6f00000000
json "[e['key']['hex'] for e in d['entries']] == ['6b6f%08x' % (i * 21474836 + 7) for i in range(3)]"
run 0 scan "$K" --json --hex --limit 2 6b6f0147ae1b
json "[e['key']['hex'] for e in d['entries']] == ['6b6f%08x' % (i * 21474836 + 7) for i in (1, 2)]"
run 0 scan "$K" --json --hex --limit 2 6b6f0147ae1c
json "[e['key']['hex'] for e in d['entries']] == ['6b6f%08x' % (i * 21474836 + 7) for i in (2, 3)]"
run 0 scan "$K" --json --hex 6b6fff
json "d['entries'] == []"
run 0 get "$K" --hex 6b6f0147ae1b
has '^newest +seq 0 PUT 7631$'
run 1 get "$K" --hex 6b6f0147ae1c
run 0 stats "$K" --json
json "d['distinct_keys'] == 200"
run 0 verify "$K"
has "^OK: "

# --- verify ---
for f in "$F" "$V" "$R" "$WORK/ingested.sst" "$C"; do
  [[ -f "$f" ]] || continue
  run 0 verify "$f"
  has "^OK: "
  run 0 verify "$f" --json
  json "d['ok'] and d['error'] is None"
done
run 0 verify "$F"
has '^OK: .*: 1002 entries, 1002 distinct keys$'
has "^checksums match: $BLOCKS log blocks, hash index, block table, sparse index, range deletions, filter, properties, metaindex, meta block, footer$"
run 0 verify "$F" --json
json "d['checksums'] == ['log', 'hash_index', 'block_table', 'sparse_index', 'range_deletions', 'filter', 'properties', 'metaindex', 'meta', 'footer'] and d['entries'] == 1002"

# --- usage errors: status 64 and the usage text ---
usage() {  # ARGS...: a usage error, status 64, with the usage text
  run 64 "$@"
  err_has "usage: rh_inspect"
}
usage
usage info
usage frobnicate "$F"
usage get "$F"
usage scan "$F" a b c
usage info "$F" --bogus
usage scan "$F" --limit x
usage get "$F" --hex 0g
run 0 --help
has '^usage: rh_inspect'

# --- files that are not RobinHoodTable files, or are damaged: status 2,
# a message naming the file, and with --json an object saying why ---
expect_bad() {  # FILE MESSAGE-FRAGMENT COMMANDS...
  local file=$1 what=$2 c
  shift 2
  for c in "$@"; do
    local args=("$c" "$file")
    [[ $c == get ]] && args+=(key000001)
    run 2 "${args[@]}"
    err_has "rh_inspect: $file: "
    err_has "$what"
    run 2 "${args[@]}" --json
    json "d['ok'] is False and d['file'] == '$file' and '$what' in d['error']"
  done
}
ALL=(info stats get scan verify)
head -c 3000 "$0" >"$WORK/script.txt"
expect_bad "$WORK/script.txt" "not a RobinHoodTable file (magic number" "${ALL[@]}"
head -c $((SIZE / 2)) "$F" >"$WORK/truncated.sst"
expect_bad "$WORK/truncated.sst" "not a RobinHoodTable file" "${ALL[@]}"
head -c $((SIZE - 1)) "$F" >"$WORK/short1.sst"
expect_bad "$WORK/short1.sst" "not a RobinHoodTable file" info
expect_bad "$WORK/blockbased.sst" "not a RobinHoodTable file" info
expect_bad "$WORK/blockbased.sst" "it is a BlockBasedTable SST file" "${ALL[@]}"
: >"$WORK/empty.sst"
expect_bad "$WORK/empty.sst" "too short (0 bytes)" "${ALL[@]}"
expect_bad "$WORK/missing.sst" "cannot open" info
expect_bad "$WORK" "not a regular file" info

# flip BYTE-OFFSET DEST: a copy of the sample with one byte inverted.
flip() {
  python3 -c '
import sys
d = bytearray(open(sys.argv[1], "rb").read())
d[int(sys.argv[2])] ^= 0xff
open(sys.argv[3], "wb").write(d)' "$F" "$1" "$2"
}
# In the log: opening does not read log blocks, so info still works, but
# verify, a scan and a get of a key in the block find the bad checksum.
flip 1000 "$WORK/flip_log.sst"
run 0 info "$WORK/flip_log.sst"
expect_bad "$WORK/flip_log.sst" "log block: checksum mismatch" verify scan
expect_bad "$WORK/flip_log.sst" "Corruption: log block: checksum mismatch at offset " verify
run 2 verify "$WORK/flip_log.sst"
err_has "rh_inspect: $WORK/flip_log.sst: Corruption: "
# In the hash index, the footer, the meta block, the properties: open fails;
# in the samples, info and verify fail.
run 0 info "$F" --json
cp "$OUT" "$WORK/info.json"
for section in hash_index block_table sparse_index properties meta footer; do
  off=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = [s for s in d["sections"] if s["name"] == sys.argv[2]][0]
print(s["offset"] + s["bytes"] // 2)' "$WORK/info.json" "$section")
  flip "$off" "$WORK/flip_$section.sst"
  if [[ $section == sparse_index ]]; then
    # Open leaves the samples to their first use: the commands that show
    # or check them refuse the file.
    expect_bad "$WORK/flip_$section.sst" "Corruption" info verify
  else
    expect_bad "$WORK/flip_$section.sst" "Corruption" "${ALL[@]}"
  fi
done

# --- garbage never crashes: every 29th byte of a small file flipped, and
# every 23rd length of it, through every command: status 0, 1 or 2 only ---
VSIZE=$(stat -c %s "$V")
mkdir "$WORK/fuzz"
python3 -c '
import sys
src = open(sys.argv[1], "rb").read()
for i in range(0, len(src), 29):
    d = bytearray(src)
    d[i] ^= 0x5a
    open("%s/%d.sst" % (sys.argv[2], i), "wb").write(d)' "$V" "$WORK/fuzz"
for ((i = 0; i < VSIZE; i += 29)); do
  for c in info stats scan verify; do
    got=0
    "$INSPECT" "$c" "$WORK/fuzz/$i.sst" --samples 100 >/dev/null 2>&1 || got=$?
    [[ $got -eq 0 || $got -eq 2 ]] || fail "$c on $V with byte $i flipped: status $got"
  done
  got=0
  "$INSPECT" get "$WORK/fuzz/$i.sst" apple >/dev/null 2>&1 || got=$?
  [[ $got -le 2 ]] || fail "get on $V with byte $i flipped: status $got"
done
for ((n = 0; n < VSIZE; n += 23)); do
  head -c "$n" "$V" >"$WORK/fuzz.sst"
  got=0
  "$INSPECT" info "$WORK/fuzz.sst" >/dev/null 2>&1 || got=$?
  [[ $got -eq 2 ]] || fail "info on $V cut to $n bytes: status $got"
done

# --- verify on a directory: every *.sst in it, the worst status ---
mkdir "$WORK/dir"
cp "$F" "$WORK/dir/a.sst"
cp "$V" "$WORK/dir/b.sst"
echo "not a table" >"$WORK/dir/notes.txt"
run 0 verify "$WORK/dir"
has "^OK: $WORK/dir/a.sst: "
has "^OK: $WORK/dir/b.sst: "
cp "$WORK/flip_log.sst" "$WORK/dir/c.sst"
cp "$F" "$WORK/dir/d.sst"
run 2 verify "$WORK/dir"
has "^OK: $WORK/dir/b.sst: "
has "^OK: $WORK/dir/d.sst: "
err_has "rh_inspect: $WORK/dir/c.sst: Corruption: log block: checksum mismatch"
# Files verified side by side report as one at a time does, in name order.
for json_flag in "" --json; do
  run 2 verify "$WORK/dir" --threads=1 $json_flag
  cp "$OUT" "$WORK/dir1.out"
  cp "$ERR" "$WORK/dir1.err"
  run 2 verify "$WORK/dir" --threads=3 $json_flag
  cmp -s "$OUT" "$WORK/dir1.out" || fail "verify --threads=3 $json_flag reports otherwise than --threads=1"
  cmp -s "$ERR" "$WORK/dir1.err" || fail "verify --threads=3 $json_flag errs otherwise than --threads=1"
done
# A lone file large enough is scanned in key ranges side by side, with the
# verdict one scan gives.
for big in big_log big_inline; do
  run 0 verify "$WORK/$big.sst" --threads=1
  cp "$OUT" "$WORK/$big.1.out"
  run 0 verify "$WORK/$big.sst" --threads=3
  cmp -s "$OUT" "$WORK/$big.1.out" || fail "verify $big --threads=3 reports otherwise than --threads=1"
  has "^OK: $WORK/$big.sst: 300000 entries, 300000 distinct keys"
  run 0 verify "$WORK/$big.sst" --threads=3 --json
  json "d['ok'] and d['entries'] == 300000 and d['distinct_keys'] == 300000 and d['key_ranges'] == 3"
  run 0 verify "$WORK/$big.sst" --threads=1 --json
  json "d['key_ranges'] == 1"
done
run 64 verify "$WORK/dir" --threads=0
err_has "--threads needs a count from 1 to 1024"
run 2 verify "$WORK/fuzz" --json
mkdir "$WORK/nosst"
run 2 verify "$WORK/nosst"
err_has "a directory without *.sst files"

echo "inspect_test: OK"
