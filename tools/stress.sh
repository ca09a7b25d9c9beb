#!/usr/bin/env bash
# RocksDB's own db_stress against RobinHoodTable: a matrix of
# configurations, each an OPTIONS file naming the factory (mmap on and off;
# no compression, Snappy, LZ4, ZSTD; table options that give each layout:
# inline slots in key order, in hash order with and without the order
# array, the log; Bloom and Ribbon filters; block caches of decompressed
# blocks, some small enough to evict what iterators pin) and a db_stress
# operation mix
# (merges, wide-column entities, range deletions, ingestion, MultiGet,
# KeyMayExist, iterators checked against the expected state, snapshots,
# compactions, approximate sizes, the live-file APIs, checkpoints,
# reopens; the batched-snapshot mode on and off;
# compactions through RocksDB's compaction service where the host has
# one), four threads each. db_stress checks every read against its expected
# state (or, batched, against the other keys of the same batch).
#
# Runs the host built by tools/build_host.sh (RocksDB 9.11.2, release,
# plugin in tree; or the tree RH_HOST_SOURCE names), whose db_stress knows
# RobinHoodTable with nothing preloaded. One line per configuration: PASS
# or FAIL, seconds, and the
# layouts of the SST files the run left (read with rh_inspect, so a layout
# the matrix claims to cover is seen to be there). The first pass runs every
# configuration once; further passes, each with new seeds, run until
# MINUTES have gone. A failure keeps its DB, expected state and log under
# OUT and makes the exit status non-zero; passing runs are removed.
#
#   tools/stress.sh [MINUTES] [--out=DIR] [--only=REGEX] [--ops=N] [--list]
#                   [--compare]
#
# MINUTES defaults to 0 (one pass). --ops: operations per thread and run
# (default 12000). --only: the configurations whose name matches.
# --compare: each configuration also runs, same seed and flags, on
# BlockBasedTable (RocksDB's default options, same compression and mmap),
# and the line gives both times: where RobinHoodTable's time goes under
# db_stress's mixes.
# Limits of db_stress with a table format other than BlockBasedTable, and
# what this script does about them: docs/reliability.md.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

minutes=0 out=/tmp/rh_stress only="" ops=12000 list=0 compare=0
for arg in "$@"; do
  case "$arg" in
    --out=*) out="${arg#*=}" ;;
    --only=*) only="${arg#*=}" ;;
    --ops=*) ops="${arg#*=}" ;;
    --list) list=1 ;;
    --compare) compare=1 ;;
    -h|--help) sed -n '2,35p' "$0"; exit 0 ;;
    -*) echo "stress: unknown option $arg" >&2; exit 2 ;;
    *) [[ "$arg" =~ ^[0-9]+$ ]] || { echo "stress: MINUTES must be a number: $arg" >&2; exit 2; }
       minutes=$arg ;;
  esac
done
[[ "$ops" =~ ^[1-9][0-9]*$ ]] || { echo "stress: --ops must be a positive number: $ops" >&2; exit 2; }
# Each run's limit: runs of the default 12,000 operations a thread take 2
# to 15 s here.
run_limit=$(( 120 + ops / 40 ))

. tools/stress_common.sh
# Reads charged to a rate limiter: user reads at IO_USER, compactions' at
# IO_LOW (positioned reads carry the priority to it). The rate holds some
# reads back without making the runs long: at 64 MiB/s the first of these
# took 46 s against BlockBasedTable's 10 (db_stress gives BlockBasedTable
# a 2 GiB block cache, which spares it most reads; this configuration
# gives ours none, so each lookup and seek reads its 4 KiB).
RATE_LIMITED="--rate_limiter_bytes_per_sec=268435456 --rate_limit_bg_reads=1 --rate_limit_user_ops=1"

# name | DBOptions and CFOptions lines (;-separated) | RobinHoodTable options
# (;-separated) | db_stress flags. The operation mixes: "mixed" has every
# kind of operation at once; "merge" replaces puts by merges; "batched" is
# the batched-snapshot mode (each write a batch of ten keys, each read
# checking the ten against one snapshot).
configs=(
  "keyorder-mmap-none|allow_mmap_reads=true;compression=kNoCompression||$MIX_MIXED --use_multiget=1"
  "keyorder-pread-snappy|allow_mmap_reads=false;compression=kSnappyCompression||$MIX_MIXED $RATE_LIMITED"
  "keyorder-pread-zstd-merge|allow_mmap_reads=false;compression=kZSTD|block_cache=1048576|$MIX_MERGE --use_multiget=1"
  "hashorder-mmap-lz4|allow_mmap_reads=true;compression=kLZ4Compression|inline_key_order=false|$MIX_MIXED"
  "hashorder-pread-none-merge|allow_mmap_reads=false;compression=kNoCompression|inline_key_order=false|$MIX_MERGE"
  "noorder-mmap-zstd|allow_mmap_reads=true;compression=kZSTD|inline_key_order=false;inline_order_array=false|$MIX_MIXED --use_multiget=1"
  "noorder-pread-snappy|allow_mmap_reads=false;compression=kSnappyCompression|inline_key_order=false;inline_order_array=false|$MIX_MIXED"
  "log-mmap-snappy|allow_mmap_reads=true;compression=kSnappyCompression|inline_slot_limit=0;page_layout=false;block_cache=1048576|$MIX_MIXED --use_multiget=1"
  "log-pread-lz4-merge|allow_mmap_reads=false;compression=kLZ4Compression|inline_slot_limit=0;page_layout=false;log_block_size=1024;block_cache=65536|$MIX_MERGE $RATE_LIMITED"
  "paged-mmap-none|allow_mmap_reads=true;compression=kNoCompression|inline_slot_limit=0|$MIX_MIXED --use_multiget=1"
  "bloom-mmap-none|allow_mmap_reads=true;compression=kNoCompression|filter_policy=bloomfilter:10|$MIX_MIXED --use_multiget=1"
  "ribbon-pread-zstd|allow_mmap_reads=false;compression=kZSTD|filter_policy=ribbonfilter:10;inline_key_order=false|$MIX_MIXED"
  "batched-mmap-none|allow_mmap_reads=true;compression=kNoCompression||$MIX_BATCHED"
  "batched-pread-lz4-hashorder|allow_mmap_reads=false;compression=kLZ4Compression|inline_key_order=false|$MIX_BATCHED"
  "batched-pread-snappy-log|allow_mmap_reads=false;compression=kSnappyCompression|inline_slot_limit=0;page_layout=false;block_cache=65536|$MIX_BATCHED --use_multiget=1"
  "batched-pread-none-paged|allow_mmap_reads=false;compression=kNoCompression|inline_slot_limit=0|$MIX_BATCHED --use_multiget=1 $RATE_LIMITED"
  # Compactions through RocksDB's compaction service (a remote worker
  # opens the DB's files and writes its output with a table factory made
  # from ours by name and option string: DB::OpenAndCompact), on hosts
  # whose db_stress has it (10.7 on); REMOTE stands for its flags.
  "remote-pread-zstd|allow_mmap_reads=false;compression=kZSTD||$MIX_MIXED --use_multiget=1 REMOTE"
  "remote-mmap-paged-merge|allow_mmap_reads=true;compression=kNoCompression|inline_slot_limit=0|$MIX_MERGE REMOTE"
)

if [ "$list" = 1 ]; then
  for c in "${configs[@]}"; do echo "${c%%|*}"; done
  exit 0
fi

stress_find_tools
mkdir -p "$out"
out=$(cd "$out" && pwd)
echo "stress: db_stress $DB_STRESS; out $out; $ops ops a thread and run; ${minutes} min"

start=$SECONDS
deadline=$(( start + minutes * 60 ))
failures=0 runs=0 pass=0
while :; do
  pass=$(( pass + 1 ))
  for c in "${configs[@]}"; do
    IFS='|' read -r name cf_db rh flags <<< "$c"
    [ -z "$only" ] || [[ "$name" =~ $only ]] || continue
    if [[ "$flags" == *REMOTE* ]]; then
      if [ -z "$STRESS_REMOTE" ]; then
        [ "$pass" -gt 1 ] || printf 'SKIP %-30s (this host'"'"'s db_stress has no compaction service)\n' "$name"
        continue
      fi
      flags=${flags//REMOTE/$STRESS_REMOTE}
    fi
    if [ "$pass" -gt 1 ] && [ "$SECONDS" -ge "$deadline" ]; then break 2; fi
    dir="$out/$name-$pass"
    rm -rf "$dir"
    mkdir -p "$dir"
    stress_options_file "$dir/OPTIONS" "$cf_db" "$rh"
    # Every run keeps an expected state, the batched mode too: 9.11.2's
    # db_stress reads its persisted sequence number from it at every open,
    # and without --expected_values_dir that pointer is null (a crash in
    # StressTest::Open, whatever the table format).
    mkdir -p "$dir/expected" "$dir/expected.block"
    expected=(--expected_values_dir="$dir/expected")
    t0=$(stress_now_ms)
    runs=$(( runs + 1 ))
    seed=$(( pass * 7919 + runs ))
    # A run that stops reporting ends here: db_stress's threads wait at a
    # reopen for one that left after a failed verification, forever.
    # shellcheck disable=SC2086
    # Run in its folder, where a crash leaves its core.
    if (cd "$dir" && stress_allow_core &&
        exec timeout --kill-after=10 "$run_limit" \
          "$DB_STRESS" --options_file="$dir/OPTIONS" --db="$dir/db" "${expected[@]}" \
          --seed=$seed --ops_per_thread="$ops" $STRESS_COMMON $flags \
          > "$dir/log" 2>&1); then
      took=$(stress_secs_since "$t0")
      block=""
      if [ "$compare" = 1 ]; then
        stress_options_file "$dir/OPTIONS.block" "$cf_db" "$rh" block
        expected=(--expected_values_dir="$dir/expected.block")
        t1=$(stress_now_ms)
        # shellcheck disable=SC2086
        "$DB_STRESS" --options_file="$dir/OPTIONS.block" --db="$dir/db.block" "${expected[@]}" \
          --seed=$seed --ops_per_thread="$ops" $STRESS_COMMON $flags > "$dir/log.block" 2>&1 &&
          block="  block $(stress_secs_since "$t1") s" || block="  block FAILED"
      fi
      printf 'PASS %-30s pass %d  %6s s%s  %s\n' "$name" "$pass" "$took" "$block" \
        "$(stress_layouts "$dir/db")"
      rm -rf "$dir"
    else
      rc=$?
      failures=$(( failures + 1 ))
      printf 'FAIL %-30s pass %d  %6s s  exit %d%s  kept: %s\n' "$name" "$pass" \
        "$(stress_secs_since "$t0")" "$rc" \
        "$([ "$rc" -eq 124 ] && echo ", no end after $run_limit s")" "$dir"
      grep -v "Fail if OPTIONS file error" "$dir/log" |
        grep -m5 -iE "error|fail|corrupt|mismatch|assert|terminate" | sed 's/^/     /' || true
      # Killed by a signal of its own, not the time limit's: its stack.
      [ "$rc" -lt 128 ] || [ "$rc" -eq 137 ] || stress_backtrace "$dir"
    fi
  done
  [ "$SECONDS" -lt "$deadline" ] || break
done
echo "stress: $runs runs in $(( (SECONDS - start) / 60 )) min $(( (SECONDS - start) % 60 )) s, $failures failed"
[ "$failures" -eq 0 ]
