#!/usr/bin/env bash
# Fuzzes the table reader: builds the libFuzzer targets with clang into
# build-fuzz/ (-DRH_FUZZ=ON), replays every past crasher
# (tests/fuzz/regressions) and the seeds, then fuzzes each mode in turn for
# SECONDS (default 60):
#   raw      the input bytes are the file
#   crafted  every checksum in the input is recomputed first, so mutations
#            reach the parsers behind the checksums
#   edits    the input is a list of changes to one of the seed files too
#            large for -max_len (pages then a log, 8 KiB pages;
#            tests/fuzz/edits.h), checksums recomputed unless it says not
#
#   tools/fuzz.sh [SECONDS-PER-MODE]
#
# Crash inputs go to build-fuzz/crashes/<mode>/ (RH_FUZZ_CRASH_DIR to change
# the parent); logs to build-fuzz/fuzz-<mode>.log. RH_FUZZ_KEEP_GOING=1 keeps
# fuzzing after a crash (libFuzzer's fork mode), to collect several.
# Exit status 1 if a replay or a mode crashed, after running everything.
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-60}"
crash_root="${RH_FUZZ_CRASH_DIR:-build-fuzz/crashes}"

tools/setup.sh --fuzz
cmake -S . -B build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DRH_FUZZ=ON \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-fuzz -j2 --target rh_fuzz_raw rh_fuzz_crafted \
  rh_fuzz_edits rh_fuzz_replay rh_fuzz_seeds

failed=0
ctest --test-dir build-fuzz --output-on-failure -R '^fuzz_' || failed=1

# Seeds are at most a few KB; room to grow, but not so much that inputs
# (and so every execution) get slow.
opts=(-max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 -max_len=8192
      -print_final_stats=1)
if [ -n "${RH_FUZZ_KEEP_GOING:-}" ]; then
  opts+=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
fi
# The modes run side by side (three on the machines' two cores).
run_mode() {
  local mode="$1" corpus="build-fuzz/corpus/$1" crashes="$crash_root/$1"
  local seeds=build-fuzz/fuzz-seeds
  [ "$mode" = edits ] && seeds=tests/fuzz/edit-seeds
  mkdir -p "$corpus" "$crashes"
  echo "fuzz: $mode for ${secs}s; crashes to $crashes/"
  "build-fuzz/rh_fuzz_$mode" "${opts[@]}" -artifact_prefix="$crashes/" \
    "$corpus" "$seeds" 2>"build-fuzz/fuzz-$mode.log"
}
modes=(raw crafted edits)
pids=()
for mode in "${modes[@]}"; do
  run_mode "$mode" &
  pids+=($!)
done
for i in 0 1 2; do
  mode="${modes[$i]}"
  if ! wait "${pids[$i]}"; then
    failed=1
    echo "fuzz: $mode CRASHED; see build-fuzz/fuzz-$mode.log and $crash_root/$mode/" >&2
  fi
  echo "fuzz: $mode:"
  grep -E '^#[0-9]+:? ' "build-fuzz/fuzz-$mode.log" | tail -1 || true
  grep -E '^(stat::|==[0-9]+==ERROR|SUMMARY|CRASH)' \
    "build-fuzz/fuzz-$mode.log" | head -20 || true
  ls "$crash_root/$mode"
done
exit "$failed"
