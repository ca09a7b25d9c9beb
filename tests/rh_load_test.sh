#!/usr/bin/env bash
# Tool test: the rh_load command end to end. Its flags (--help, an unknown
# flag, a bad value named), standard input, a bad line refused with file,
# line and byte and nothing left behind, --db ingestion whose files verify,
# a DB whose OPTIONS name a misspelt factory refused, and SIGINT and SIGTERM while it reads (runs already spilled): exit status
# 128 + the signal, no run, no temporary file and no part file left.
# (tests/load_test.cc checks the library's answers against a model.)
#
# Environment (set by CMake's ctest): RH_BUILD_DIR = the build directory.
set -euo pipefail

fail() {
  echo "rh_load_test: FAIL: $*" >&2
  exit 1
}
[[ -n "${RH_BUILD_DIR:-}" ]] || fail "RH_BUILD_DIR is not set"
LOAD="$RH_BUILD_DIR/rh_load"
INSPECT="$RH_BUILD_DIR/rh_inspect"
[[ -x "$LOAD" ]] || fail "not built: $LOAD"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/rh_load_test.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
ERR="$WORK/err"

# --- Flags ---
"$LOAD" --help >"$WORK/help" || fail "--help exited $?"
for flag in input input_format output_dir memory_limit threads target_file_size \
            tmp_dir db column_family options on_duplicate progress; do
  grep -q -- "--$flag " "$WORK/help" || fail "--help does not list --$flag"
done
set +e
"$LOAD" --input=x --output_dir="$WORK/o" --bogus=1 2>"$ERR"; rc=$?
set -e
[[ $rc -eq 2 ]] || fail "an unknown flag exited $rc, not 2"
grep -q -- "--bogus: unknown flag" "$ERR" || fail "unknown flag message: $(cat "$ERR")"
set +e
"$LOAD" --input=x --output_dir="$WORK/o" --memory_limit=12Q 2>"$ERR"; rc=$?
set -e
[[ $rc -eq 2 ]] && grep -q -- "--memory_limit: not a size: '12Q'" "$ERR" ||
  fail "bad --memory_limit: status $rc, $(cat "$ERR")"

# --- Standard input, TSV escapes, duplicates ---
printf 'b\t2\na\t1\nb\t3\nc\\x00\tnul\n' |
  "$LOAD" --input=- --output_dir="$WORK/stdin" >"$WORK/out" 2>"$ERR" ||
  fail "stdin load failed: $(cat "$ERR")"
grep -q "4 entries read, 3 written (1 duplicates dropped) in 1 files" "$WORK/out" ||
  fail "stdin summary: $(cat "$WORK/out")"
[[ -f "$WORK/stdin/part-000001.sst" ]] || fail "no part-000001.sst from stdin"
if [[ -x "$INSPECT" ]]; then
  "$INSPECT" get "$WORK/stdin/part-000001.sst" b >"$WORK/get" ||
    fail "rh_inspect get b: $(cat "$WORK/get")"
  grep -q "^newest  *seq 0 PUT 3$" "$WORK/get" || fail "b is not the last occurrence: $(cat "$WORK/get")"
fi

# --- Empty input: no file, nothing ingested, success ---
: >"$WORK/empty.tsv"
"$LOAD" --input="$WORK/empty.tsv" --output_dir="$WORK/empty" --db="$WORK/emptydb" \
  >"$WORK/out" 2>"$ERR" || fail "empty input failed: $(cat "$ERR")"
grep -q "0 entries read, 0 written (0 duplicates dropped) in 0 files" "$WORK/out" ||
  fail "empty input summary: $(cat "$WORK/out")"

# --- A bad line: refused with where, nothing left ---
printf 'a\t1\nb\t2\nno tab\n' >"$WORK/bad.tsv"
set +e
"$LOAD" --input="$WORK/bad.tsv" --output_dir="$WORK/bad" 2>"$ERR"; rc=$?
set -e
[[ $rc -eq 2 ]] || fail "bad input exited $rc, not 2"
grep -q "$WORK/bad.tsv: line 3, byte 8: no TAB between key and value" "$ERR" ||
  fail "bad line message: $(cat "$ERR")"
[[ -z "$(ls -A "$WORK/bad")" ]] || fail "bad input left $(ls -A "$WORK/bad")"

# --- Ingestion: every file in the DB, each verifying ---
seq 1 300000 | awk '{ printf "key%09d\tvalue%d\n", ($1 * 7919) % 300007, $1 }' >"$WORK/big.tsv"
"$LOAD" --input="$WORK/big.tsv" --output_dir="$WORK/parts" --db="$WORK/db" \
  --threads=2 --target_file_size=1M --memory_limit=16M >"$WORK/out" 2>"$ERR" ||
  fail "--db load failed: $(cat "$ERR")"
grep -q "300000 entries read, 300000 written" "$WORK/out" || fail "summary: $(cat "$WORK/out")"
grep -q "ingested into $WORK/db" "$WORK/out" || fail "no ingestion line: $(cat "$WORK/out")"
files=$(sed -n 's/.* in \([0-9]*\) files.*/\1/p' "$WORK/out")
[[ $files -ge 4 ]] || fail "expected several files, got $files"
ssts=("$WORK"/db/*.sst)
[[ ${#ssts[@]} -eq $files ]] || fail "the DB holds ${#ssts[@]} SST files, not $files"
if [[ -x "$INSPECT" ]]; then
  for f in "${ssts[@]}"; do
    "$INSPECT" verify "$f" >/dev/null 2>"$ERR" || fail "verify $f: $(cat "$ERR")"
  done
fi

# --- A DB whose OPTIONS file names a factory not loaded (a misspelt id):
# refused, naming it, rather than filled with BlockBasedTable files ---
cp -r "$WORK/db" "$WORK/misspelt"
sed -i 's/RobinHoodTable/RobinhoodTable/g' "$WORK"/misspelt/OPTIONS-*
printf 'zz\t1\n' >"$WORK/one.tsv"
set +e
"$LOAD" --input="$WORK/one.tsv" --output_dir="$WORK/misspelt_parts" \
  --db="$WORK/misspelt" >"$WORK/out" 2>"$ERR"; rc=$?
set -e
[[ $rc -ne 0 ]] || fail "a DB naming RobinhoodTable was loaded: $(cat "$WORK/out")"
grep -q "RobinhoodTable" "$ERR" || fail "misspelt factory message: $(cat "$ERR")"
[[ $(ls "$WORK"/misspelt/*.sst | wc -l) -eq $files ]] ||
  fail "the refused load changed the DB's files"

# --- Stopped by a signal while reading: nothing left behind ---
for sig in INT TERM; do
  fifo="$WORK/fifo.$sig"
  mkfifo "$fifo"
  out="$WORK/stopped.$sig"
  tmp="$WORK/tmp.$sig"
  "$LOAD" --input="$fifo" --output_dir="$out" --tmp_dir="$tmp" --memory_limit=16M \
    2>"$ERR" &
  pid=$!
  # Feed enough for runs to be spilled, then keep the pipe open.
  { cat "$WORK/big.tsv" "$WORK/big.tsv" "$WORK/big.tsv"; sleep 30; } >"$fifo" &
  feeder=$!
  for _ in $(seq 1 100); do
    compgen -G "$tmp/rh_load.*.tmp/run-*" >/dev/null && break
    sleep 0.1
  done
  compgen -G "$tmp/rh_load.*.tmp/run-*" >/dev/null || fail "no run spilled before SIG$sig"
  kill -"$sig" "$pid"
  set +e
  wait "$pid"; rc=$?
  set -e
  kill "$feeder" 2>/dev/null || true
  wait "$feeder" 2>/dev/null || true
  want=$((128 + $(kill -l "$sig")))
  [[ $rc -eq $want ]] || fail "SIG$sig: exit status $rc, not $want ($(cat "$ERR"))"
  grep -q "stopped by SIG$sig" "$ERR" || fail "SIG$sig message: $(cat "$ERR")"
  [[ -z "$(ls -A "$tmp")" ]] || fail "SIG$sig left $(ls -A "$tmp") in --tmp_dir"
  [[ -z "$(ls -A "$out")" ]] || fail "SIG$sig left $(ls -A "$out") in --output_dir"
done

echo "rh_load_test: ok"
