#!/usr/bin/env bash
# db_bench_ext's targets: each judged on the measured ratio and on the
# found column (a read phase that finds the wrong keys misses its target
# however fast it was), counted at the end; and a phase that fails shows
# its targets as MISSED with the reason, instead of dropping them.
#
# Environment (set by CMake's ctest): RH_BUILD_DIR, the build directory.
set -euo pipefail

fail() {
  echo "db_bench_ext_test: FAIL: $*" >&2
  exit 1
}
BENCH="${RH_BUILD_DIR:?}/db_bench_ext"
[[ -x "$BENCH" ]] || fail "$BENCH not built"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

common=(--workload=cuckoo --num=3000 --reads=3000 --warmup_reads=100
        --formats=robinhood,cuckoo --repetitions=1)

# A run that works: every target line judged, and counted.
"$BENCH" "${common[@]}" --benchmarks=fill,readrandom,readmissing \
  --db="$TMP/db" >"$TMP/ok.txt" 2>&1 || fail "run failed: $(tail -5 "$TMP/ok.txt")"
targets="$(sed -n '/== targets/,$p' "$TMP/ok.txt")"
[[ -n "$targets" ]] || fail "no targets section"
echo "$targets" | grep -Eq 'cuckoo readrandom: robinhood / cuckoo +[0-9.]+ +\(>= 1\.00\) +(met|MISSED)$' ||
  fail "no judged readrandom target: $targets"
echo "$targets" | grep -Eq 'cuckoo readmissing: robinhood / cuckoo +[0-9.]+ ' ||
  fail "no judged readmissing target: $targets"
n_lines="$(echo "$targets" | grep -v 'targets met$' | grep -cE ' (met|MISSED)$')"
echo "$targets" | grep -Eq "^  [0-9]+ of $n_lines targets met$" ||
  fail "targets not counted ($n_lines lines): $targets"
grep -Eq '\(3000 of 3000 found\)' "$TMP/ok.txt" || fail "readrandom did not find every key"

# A run whose phases fail (the database cannot be created): the same
# targets are shown, MISSED, with the reason; none of them met.
"$BENCH" "${common[@]}" --benchmarks=fill,readrandom,readmissing \
  --db=/dev/null/db >"$TMP/failed.txt" 2>&1 || true
targets="$(sed -n '/== targets/,$p' "$TMP/failed.txt")"
[[ -n "$targets" ]] || fail "a failed run drops its targets: $(cat "$TMP/failed.txt")"
echo "$targets" | grep -Eq 'cuckoo readrandom: robinhood / cuckoo +- +robinhood .*cannot open.* MISSED$' ||
  fail "the failed readrandom target is not MISSED with its reason: $targets"
echo "$targets" | grep -Eq "^  0 of $n_lines targets met$" ||
  fail "a failed run does not show the $n_lines targets, none met: $targets"
# Every format's block cache of the kind asked for, the lookups through
# it right; a kind it does not know refused by name.
"$BENCH" --workload=sparkey --num=3000 --reads=3000 --warmup_reads=100 \
  --formats=robinhood,block --repetitions=1 --compression=snappy \
  --cache_type=hyper_clock_cache --benchmarks=fill,readrandom \
  --db="$TMP/hcc" >"$TMP/hcc.txt" 2>&1 || fail "hyper_clock_cache run failed: $(tail -5 "$TMP/hcc.txt")"
[[ "$(grep -c 'hyper_clock_cache' "$TMP/hcc.txt")" -ge 2 ]] ||
  fail "the formats do not say their cache: $(head -8 "$TMP/hcc.txt")"
[[ "$(grep -cE '\(3000 of 3000 found\)' "$TMP/hcc.txt")" -eq 2 ]] ||
  fail "a lookup through a hyper_clock_cache missed a key"
if "$BENCH" --cache_type=clock --formats=robinhood >"$TMP/bad.txt" 2>&1; then
  fail "an unknown --cache_type was accepted"
fi
grep -q "unknown --cache_type 'clock'" "$TMP/bad.txt" || fail "no message: $(cat "$TMP/bad.txt")"
# The DB built from ingested files: cut at --target_file_size_base, every
# key found, the formats that cannot be ingested skipped with the reason;
# a method it does not know refused by name.
"$BENCH" --workload=sparkey --num=3000 --reads=3000 --warmup_reads=100 \
  --formats=robinhood,plain,block --repetitions=1 --fill_by=ingest \
  --target_file_size_base=65536 --benchmarks=fill,readrandom \
  --db="$TMP/ingest" >"$TMP/ingest.txt" 2>&1 || fail "--fill_by=ingest run failed: $(tail -5 "$TMP/ingest.txt")"
[[ "$(grep -cE '^fill +: .* in [3-9] files' "$TMP/ingest.txt")" -eq 2 ]] ||
  fail "the ingested DBs are not cut into files: $(grep '^fill' "$TMP/ingest.txt")"
[[ "$(grep -cE '\(3000 of 3000 found\)' "$TMP/ingest.txt")" -eq 2 ]] ||
  fail "a lookup in an ingested DB missed a key"
grep -q 'skipped: plain (all phases): --fill_by=ingest' "$TMP/ingest.txt" ||
  fail "PlainTable not skipped with the reason: $(grep skipped "$TMP/ingest.txt")"
# Decimal text keys: every key found by lookups and scans in both formats,
# and our file in key order through a digit map (format version 9).
"$BENCH" --workload=decimal --num=3000 --reads=3000 --warmup_reads=100 \
  --formats=robinhood,block --repetitions=1 --keep_db \
  --benchmarks=fill,readrandom,seekrandom,readseq \
  --db="$TMP/decimal" >"$TMP/decimal.txt" 2>&1 || fail "decimal run failed: $(tail -5 "$TMP/decimal.txt")"
[[ "$(grep -cE '\(3000 of 3000 found\)' "$TMP/decimal.txt")" -eq 6 ]] ||
  fail "a read of decimal keys missed a key: $(grep -E '^(readrandom|seekrandom|readseq) ' "$TMP/decimal.txt")"
sst="$(find "$TMP/decimal" -path '*robinhood*' -name '*.sst' | head -1)"
info="$("${RH_BUILD_DIR}/rh_inspect" info "$sst")" || fail "rh_inspect info $sst failed"
echo "$info" | grep -Eq 'rocksdb.robinhood.slot.order +key$' ||
  fail "decimal keys not in key order: $(echo "$info" | grep -i order)"
echo "$info" | grep -Eq '^format version +9$' ||
  fail "decimal keys' file not version 9: $(echo "$info" | grep -i version)"
if "$BENCH" --fill_by=load --formats=robinhood >"$TMP/bad.txt" 2>&1; then
  fail "an unknown --fill_by was accepted"
fi
grep -q "unknown --fill_by 'load'" "$TMP/bad.txt" || fail "no message: $(cat "$TMP/bad.txt")"
echo "db_bench_ext_test: OK"
