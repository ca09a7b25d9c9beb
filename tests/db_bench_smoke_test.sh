#!/usr/bin/env bash
# Smoke test: a host's own db_bench runs on RobinHoodTable from an OPTIONS
# file naming the factory, then its ldb reads the same DB, and its sst_dump
# is given one of the files. Two kinds of host:
#  - the SYSTEM's tools (Debian's rocksdb-tools, which nobody here built),
#    through LD_PRELOAD of our shared library: RH_PLUGIN_SO;
#  - tools built with the plugin in tree (RocksDB's ROCKSDB_PLUGINS), with
#    no LD_PRELOAD: RH_HOST_TOOLS_DIR holds db_bench, ldb and sst_dump.
#
# Environment (set by CMake's ctest): one of the two above; RH_BUILD_DIR =
# the build directory (fallback for finding the .so).
#
# Keys are loaded with filluniquerandom (random order, every key once), so
# readrandom must find all of them: "(N of N found)". Plain fillrandom draws
# keys with replacement and leaves about a third of the key space unwritten.
set -euo pipefail

NUM=20000
fail() {
  echo "db_bench_smoke_test: FAIL: $*" >&2
  exit 1
}

# --- Find the plugin and the tools ---
HOST_TOOLS="${RH_HOST_TOOLS_DIR:-}"
SO="${RH_PLUGIN_SO:-}"
if [[ -z "$HOST_TOOLS" ]]; then
  if [[ -z "$SO" && -n "${RH_BUILD_DIR:-}" ]]; then
    SO="$RH_BUILD_DIR/librocksdb_robinhood.so"
  fi
  [[ -n "$SO" ]] || fail "neither RH_PLUGIN_SO nor RH_HOST_TOOLS_DIR is set"
  [[ -f "$SO" ]] || fail "plugin library not found: $SO"
  SO="$(cd "$(dirname "$SO")" && pwd)/$(basename "$SO")"
fi
# In tree the tools need nothing preloaded: that is the point.
preload() { if [[ -n "$SO" ]]; then LD_PRELOAD="$SO" "$@"; else "$@"; fi; }

find_tool() {  # name, alternatives...
  local t
  for t in "$@"; do
    if command -v "$t" >/dev/null 2>&1; then command -v "$t"; return 0; fi
    if [[ -x "/usr/bin/$t" ]]; then echo "/usr/bin/$t"; return 0; fi
  done
  if command -v dpkg >/dev/null 2>&1; then
    for t in "$@"; do
      local p
      p="$(dpkg -L rocksdb-tools 2>/dev/null | grep -E "/$t\$" | head -n1 || true)"
      if [[ -n "$p" && -x "$p" ]]; then echo "$p"; return 0; fi
    done
  fi
  return 1
}
if [[ -n "$HOST_TOOLS" ]]; then
  DB_BENCH="$HOST_TOOLS/db_bench"
  LDB="$HOST_TOOLS/ldb"
  SST_DUMP="$HOST_TOOLS/sst_dump"
  for t in "$DB_BENCH" "$LDB" "$SST_DUMP"; do [[ -x "$t" ]] || fail "$t not found"; done
else
  DB_BENCH="$(find_tool db_bench rocksdb_db_bench)" ||
    fail "no db_bench binary found (install Debian package rocksdb-tools; tools/setup.sh does)"
  LDB="$(find_tool ldb rocksdb_ldb)" ||
    fail "no ldb binary found (install Debian package rocksdb-tools)"
  SST_DUMP="$(find_tool sst_dump rocksdb_sst_dump)" ||
    fail "no sst_dump binary found (install Debian package rocksdb-tools)"
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/rh_db_bench_smoke.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
DB="$WORK/db"
OPTS="$WORK/OPTIONS-robinhood"
OUT="$WORK/db_bench.out"

# --- The OPTIONS file: our factory in [CFOptions "default"] plus its own
# [TableOptions/RobinHoodTable "default"] section, as RocksDB writes them.
cat >"$OPTS" <<'EOF'
# RocksDB options file naming RobinHoodTable (loaded by db_bench --options_file)

[Version]
  rocksdb_version=7.8.3
  options_file_version=1.1

[DBOptions]
  create_if_missing=true
  create_missing_column_families=true

[CFOptions "default"]
  table_factory=RobinHoodTable
  write_buffer_size=262144
  target_file_size_base=1048576
  compression=kNoCompression

[TableOptions/RobinHoodTable "default"]
  load_factor=0.85
  sparse_index_interval=16
  log_block_size=4096
  hash_seed=5939340891064594287
EOF

# --- Run db_bench ---
set +e
preload "$DB_BENCH" \
  --benchmarks=filluniquerandom,compact,readrandom \
  --options_file="$OPTS" \
  --db="$DB" \
  --num="$NUM" --reads="$NUM" \
  --key_size=16 --value_size=100 \
  --threads=1 --seed=12345 \
  --statistics=0 \
  >"$OUT" 2>&1
rc=$?
set -e
if [[ $rc -ne 0 ]]; then
  cat "$OUT" >&2
  fail "db_bench exited with status $rc"
fi

grep -q "Initializing RocksDB Options from the specified file" "$OUT" || {
  cat "$OUT" >&2
  fail "db_bench did not take its options from $OPTS"
}
read_line="$(grep -E '^readrandom[[:space:]]*:' "$OUT" || true)"
[[ -n "$read_line" ]] || { cat "$OUT" >&2; fail "no readrandom result line in db_bench output"; }
if [[ "$read_line" != *"($NUM of $NUM found)"* ]]; then
  cat "$OUT" >&2
  fail "readrandom did not find every key; expected ($NUM of $NUM found), got: $read_line"
fi
echo "db_bench: $read_line"

# --- The DB db_bench wrote is RobinHoodTable's ---
latest_options="$(ls -1 "$DB"/OPTIONS-* 2>/dev/null | sort -V | tail -n1)"
[[ -n "$latest_options" ]] || fail "db_bench wrote no OPTIONS file in $DB"
grep -q '^ *table_factory=RobinHoodTable' "$latest_options" ||
  fail "$latest_options does not say table_factory=RobinHoodTable"
grep -q '^\[TableOptions/RobinHoodTable "default"\]' "$latest_options" ||
  fail "$latest_options has no [TableOptions/RobinHoodTable \"default\"] section"

shopt -s nullglob
ssts=("$DB"/*.sst)
shopt -u nullglob
[[ ${#ssts[@]} -gt 0 ]] || fail "no .sst files in $DB"
for f in "${ssts[@]}"; do
  # Our magic number (docs/format.md), the ASCII bytes "rh-table", ends the
  # file. (The property names are prefix-compressed in the properties block,
  # so grepping the file for them is not reliable.)
  magic="$(tail -c 8 "$f")"
  [[ "$magic" == "rh-table" ]] ||
    fail "$f does not end with the RobinHoodTable magic \"rh-table\" (got: $(tail -c 8 "$f" | od -An -tx1))"
done
echo "sst files: ${#ssts[@]}, all RobinHoodTable"

# --- The system's ldb reads it too, with options from the DB's OPTIONS file ---
set +e
preload "$LDB" --db="$DB" --try_load_options --hex scan \
  >"$WORK/ldb.out" 2>"$WORK/ldb.err"
rc=$?
set -e
if [[ $rc -ne 0 ]]; then
  cat "$WORK/ldb.err" >&2
  fail "ldb scan exited with status $rc"
fi
count="$(grep -c '^0x' "$WORK/ldb.out" || true)"
[[ "$count" == "$NUM" ]] || {
  head -n5 "$WORK/ldb.out" >&2
  cat "$WORK/ldb.err" >&2
  fail "ldb scan listed $count keys, expected $NUM"
}
echo "ldb scan: $count keys"

# --- sst_dump: every release to date (7.8 to 11.8, table/sst_file_dumper.cc)
# picks a table format from a fixed list of magic numbers and refuses any
# other before it looks at the options; some read the footer first, whose
# version field (format version 2 on, docs/format.md) every RocksDB refuses,
# and 11.x reads the magic number as a bad extended one.
# What we can ask is that it refuses our file cleanly, by name, and does not
# crash on it.
set +e
preload "$SST_DUMP" --file="${ssts[0]}" --show_properties \
  >"$WORK/sst_dump.out" 2>&1
rc=$?
set -e
[[ $rc -lt 128 ]] || { cat "$WORK/sst_dump.out" >&2; fail "sst_dump died with status $rc"; }
if grep -q "Unsupported table magic number" "$WORK/sst_dump.out"; then
  echo "sst_dump: refuses our magic number cleanly (exit $rc), as it refuses every format it does not list"
elif grep -Eq "unsupported format_version: 13804503(0[6-9]|1[01])" "$WORK/sst_dump.out"; then
  echo "sst_dump: refuses our footer's version field cleanly (exit $rc)"
elif grep -q "Bad extended magic number" "$WORK/sst_dump.out"; then
  echo "sst_dump: refuses our magic number as a bad extended one (exit $rc)"
elif grep -q "rocksdb.robinhood" "$WORK/sst_dump.out"; then
  echo "sst_dump: shows our properties"
else
  cat "$WORK/sst_dump.out" >&2
  fail "sst_dump neither showed our properties nor refused the file cleanly"
fi
echo "db_bench_smoke_test: PASS"
