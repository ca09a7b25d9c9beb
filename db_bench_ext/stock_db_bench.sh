#!/usr/bin/env bash
# Cross-checks db_bench_ext with a tool we did not write: runs the system's
# own db_bench (Debian package rocksdb-tools) on the same workload for
# BlockBasedTable (bloom 10 bits/key), PlainTable (--use_plain_table),
# CuckooTable (--use_cuckoo_table) and RobinHoodTable (LD_PRELOAD of
# librocksdb_robinhood.so plus an OPTIONS file naming table_factory
# RobinHoodTable), and prints readrandom and multireadrandom (batches of 50)
# side by side, formats interleaved run by run, with each format's SST bytes.
# multireadrandom runs three ways, each in its own column:
#   batched: --multiread_batched=1, the PinnableSlice MultiGet, on the DB
#     opened read-write: a batch reaches each table's MultiGet.
#   vector: db_bench's default, the std::vector MultiGet, on the DB opened
#     read-write. RocksDB 7.8 serves it one Get at a time (Version::Get);
#     tables see Prepare only for level-0 files, and after the fill's
#     compaction there are none. RocksDB 9.11 routes it to the batched
#     MultiGet.
#   vector ro: the same with --readonly=1. The fill's compaction leaves all
#     files in one level, so RocksDB opens the DB as its compacted DB, whose
#     MultiGet (the std::vector one in 7.8, every one in 9.11) calls each
#     table's Prepare for the whole batch, then Get key by key. The script
#     counts the levels holding files (ldb manifest_dump) and says when a
#     DB would not open that way.
# Each read run is one db_bench process that runs its benchmark twice and
# reports the second (--warmup=0: once): a fresh process starts with cold
# page tables and, for RobinHoodTable, pages not yet checksummed (each is
# checked on its first read), which db_bench_ext's warm-up reads absorb.
# --instructions: instead of ops/s, the instructions a key each phase
# takes, counted by callgrind (valgrind): the program's total at --reads
# and at twice as many, the difference over --reads (the open, the fill's
# files' first reads and the exit cancel). Ratios are then theirs over
# ours: above 1, ours takes fewer. RobinHoodTable's reader times a sample
# of its lookups to tell memory from disk, and valgrind slows them: it may
# then ask its filter where a timed run would not, so its counts move by
# tens of instructions between runs (callgrind_annotate of the out files,
# kept in the --db directory's logs/, gives each function's own count,
# which does not move).
#
# Usage: db_bench_ext/stock_db_bench.sh [PLUGIN_SO] [--workload=cuckoo|sparkey]
#          [--num=N] [--reads=N] [--repetitions=N] [--formats=a,b,..] [--db=DIR]
#          [--db_bench=PATH] [--robinhood_options='name=value;...']
#          [--warmup=0|1] [--instructions] [--key_size=N] [--value_size=N]
# PLUGIN_SO (or env RH_PLUGIN_SO) defaults to build/librocksdb_robinhood.so.
# --db_bench=PATH: a db_bench built with the plugin in tree (for example
# "$(tools/build_host.sh --print)/bin/db_bench"), run with nothing preloaded.
# db_bench has fixed-size keys only: the sparkey workload runs with 20-byte
# keys (the mean of db_bench_ext's 8..32) and 100-byte values.
# --key_size, --value_size: the workload's entries at other sizes (db_bench's
# keys: the 8-byte big-endian counter, then '0's to the size).
# --robinhood_options: RobinHoodTable options for its OPTIONS file, for
# example 'inline_order_array=false;inline_load_factor=0.85'.
set -euo pipefail
cd "$(dirname "$0")/.."

so="${RH_PLUGIN_SO:-build/librocksdb_robinhood.so}"
workload=cuckoo num=1000000 reads=2000000 reps=3 db=/tmp/stock_db_bench db_bench=""
rh_options="" warmup=1 instructions=0 key_size_arg="" value_size_arg=""
formats=robinhood,cuckoo,plain,block
for arg in "$@"; do
  case "$arg" in
    --workload=*) workload="${arg#*=}" ;;
    --num=*) num="${arg#*=}" ;;
    --reads=*) reads="${arg#*=}" ;;
    --repetitions=*) reps="${arg#*=}" ;;
    --formats=*) formats="${arg#*=}" ;;
    --db=*) db="${arg#*=}" ;;
    --db_bench=*) db_bench="${arg#*=}" ;;
    --robinhood_options=*) rh_options="${arg#*=}" ;;
    --warmup=*) warmup="${arg#*=}" ;;
    --instructions) instructions=1 ;;
    --key_size=*) key_size_arg="${arg#*=}" ;;
    --value_size=*) value_size_arg="${arg#*=}" ;;
    -h|--help) sed -n '2,50p' "$0"; exit 0 ;;
    -*) echo "unknown option $arg" >&2; exit 2 ;;
    *) so="$arg" ;;
  esac
done

in_tree=0
if [ -n "$db_bench" ]; then
  in_tree=1
else
  db_bench=$(dpkg -L rocksdb-tools 2>/dev/null | grep -E '/bin/(rocksdb_)?db_bench$' | head -1 || true)
  [ -n "$db_bench" ] || db_bench=$(command -v db_bench || true)
fi
[ -x "$db_bench" ] || { echo "db_bench not found: apt-get install rocksdb-tools" >&2; exit 1; }
if [[ $instructions == 1 ]]; then
  command -v valgrind > /dev/null || { echo "--instructions needs valgrind: apt-get install valgrind" >&2; exit 1; }
  [[ $reads == 2000000 ]] && reads=100000  # callgrind runs some 50 times slower
fi

case "$workload" in
  cuckoo) key_size=8 value_size=4 prefix=8 ;;
  sparkey) key_size=20 value_size=100 prefix=8 ;;
  *) echo "unknown workload $workload (cuckoo, sparkey)" >&2; exit 2 ;;
esac
[ -n "$key_size_arg" ] && key_size=$key_size_arg
[ -n "$value_size_arg" ] && value_size=$value_size_arg

if [[ ",$formats," == *,robinhood,* && $in_tree == 0 ]]; then
  [ -f "$so" ] || { echo "RobinHoodTable plugin $so not found: build it (tools/build.sh) or pass its path" >&2; exit 1; }
  so=$(readlink -f "$so")
fi

mkdir -p "$db"
log="$db/logs"
mkdir -p "$log"
options_file="$db/robinhood.OPTIONS"
# What db_bench_ext sets for RobinHoodTable, in RocksDB's OPTIONS format:
# an OPTIONS file replaces db_bench's option flags, so everything is here.
cat > "$options_file" <<OPTS
[Version]
  rocksdb_version=7.8.3
  options_file_version=1.1

[DBOptions]
  create_if_missing=true
  allow_mmap_reads=true
  max_open_files=-1
  max_background_jobs=2

[CFOptions "default"]
  table_factory=RobinHoodTable
  compression=kNoCompression
  bottommost_compression=kNoCompression
  target_file_size_base=67108864

[TableOptions/RobinHoodTable "default"]
  load_factor=0.85
OPTS
IFS=';' read -r -a rh_opts <<< "$rh_options"
for o in "${rh_opts[@]}"; do
  [[ "$o" == *=* ]] || { echo "--robinhood_options: '$o' is not name=value" >&2; exit 2; }
  echo "  $o" >> "$options_file"
done

common=(--num="$num" --key_size="$key_size" --value_size="$value_size"
        --compression_type=none --disable_wal=1 --threads=1 --seed=301
        --open_files=-1 --histogram=0 --statistics=0 --progress_reports=false)
cache=$(( num * (key_size + value_size + 30) * 2 + (64 << 20) ))

declare -A flagsof preof bytes
if [[ $in_tree == 1 ]]; then
  echo "db_bench: $db_bench (plugin in tree, nothing preloaded)"
else
  echo "db_bench: $db_bench ($(dpkg-query -W -f='${Version}' rocksdb-tools 2>/dev/null || echo '?'))"
fi
[[ -n "$rh_options" ]] && echo "RobinHoodTable options: $rh_options"
echo "workload $workload: $num keys of $key_size bytes, $value_size-byte values; readrandom and multireadrandom (batch 50: batched, vector, vector on the DB opened read-only) x$reps, $reads reads each, formats interleaved$([[ $warmup == 1 ]] && echo ", each after a warm-up run in the same process")"
ldb=$(command -v "$(dirname "$db_bench")/ldb" || command -v ldb || true)
# How many levels hold files (ldb reads the MANIFEST only, no table).
levels_of() {
  [[ -n "$ldb" ]] || return 0
  "$ldb" --db="$1" manifest_dump 2>/dev/null |
    awk '/^--- level/ {l = $3} /^ [0-9]+:/ && !(l in seen) {seen[l] = 1; n++} END {print n + 0}'
}
IFS=, read -r -a fmts <<< "$formats"
ok_fmts=()
for fmt in "${fmts[@]}"; do
  case "$fmt" in
    block) flagsof[$fmt]="--bloom_bits=10 --cache_size=$cache --use_data_block_hash_index=1 --mmap_read=1" ;;
    plain) flagsof[$fmt]="--use_plain_table=1 --prefix_size=$prefix --bloom_bits=10 --mmap_read=1" ;;
    cuckoo) flagsof[$fmt]="--use_cuckoo_table=1 --mmap_read=1" ;;
    robinhood) flagsof[$fmt]="--options_file=$options_file"
               if [[ $in_tree == 1 ]]; then preof[$fmt]=""; else preof[$fmt]="LD_PRELOAD=$so"; fi ;;
    *) echo "unknown format $fmt" >&2; exit 2 ;;
  esac
  dir="$db/$fmt"
  rm -rf "$dir"
  echo "-- $fmt: fill (filluniquerandom,compact)" >&2
  # shellcheck disable=SC2086
  env ${preof[$fmt]:-} "$db_bench" "${common[@]}" ${flagsof[$fmt]} --db="$dir" \
    --use_existing_db=0 --benchmarks=filluniquerandom,compact > "$log/$fmt.fill" 2>&1 ||
    { echo "$fmt: fill failed, see $log/$fmt.fill" >&2; tail -5 "$log/$fmt.fill" >&2; continue; }
  sync  # no writeback of the fill under the reads
  used=$(sed -nE 's/^ *table_factory=(.*)/\1/p' "$dir"/OPTIONS-* 2>/dev/null | tail -1)
  bytes[$fmt]=$(cat "$dir"/*.sst | wc -c)
  nfiles=$(find "$dir" -maxdepth 1 -name '*.sst' | wc -l)
  # A read-only open is the compacted DB only with every file in one level
  # (and max_open_files=-1, which every format here sets).
  levels=$(levels_of "$dir")
  echo "-- $fmt: table_factory=$used, SST bytes ${bytes[$fmt]} in $nfiles files, in ${levels:-?} level(s)" >&2
  # A factory db_bench could not load leaves BlockBasedTable in its place:
  # numbers measured so would be another format's.
  if [[ $fmt == robinhood && $used != RobinHoodTable ]]; then
    echo "robinhood: db_bench used table_factory=${used:-unknown}, not RobinHoodTable; see $log/$fmt.fill" >&2
    exit 1
  fi
  [[ "$levels" == 1 ]] ||
    echo "$fmt: files in ${levels:-an unknown number of} levels: 'vector ro' is not the compacted DB" >&2
  ok_fmts+=("$fmt")
done

# One read phase of one format; prints its ops/sec (with --instructions,
# its instructions a key). Phases: readrandom,
# multireadrandom (batched), multiread_vector, multiread_vector_ro.
read_phase() {
  local fmt=$1 phase=$2 out="$log/$1.$2.$3" bench=$2 extra=(--multiread_batched=1)
  case "$phase" in
    multiread_vector) bench=multireadrandom extra=(--multiread_batched=0) ;;
    multiread_vector_ro) bench=multireadrandom extra=(--multiread_batched=0 --readonly=1) ;;
  esac
  if [[ $instructions == 1 ]]; then
    local n total=()
    for n in "$reads" $((2 * reads)); do
      # shellcheck disable=SC2086
      env ${preof[$fmt]:-} valgrind --tool=callgrind --callgrind-out-file="$out.$n.callgrind" \
        "$db_bench" "${common[@]}" ${flagsof[$fmt]} --db="$db/$fmt" \
        --use_existing_db=1 --reads="$n" --batch_size=50 "${extra[@]}" \
        --benchmarks="$bench" > "$out.$n" 2>&1 ||
        { echo "$fmt: $phase failed, see $out.$n" >&2; return 0; }
      total+=("$(sed -nE 's/^(summary|totals): *([0-9]+).*/\2/p' "$out.$n.callgrind" | head -1)")
    done
    [[ -n "${total[0]}" && -n "${total[1]}" ]] && echo $(( (total[1] - total[0]) / reads ))
    return 0
  fi
  local runs=$bench
  [[ $warmup == 1 ]] && runs="$bench,$bench"
  # shellcheck disable=SC2086
  env ${preof[$fmt]:-} "$db_bench" "${common[@]}" ${flagsof[$fmt]} --db="$db/$fmt" \
    --use_existing_db=1 --reads="$reads" --batch_size=50 "${extra[@]}" \
    --benchmarks="$runs" > "$out" 2>&1 ||
    { echo "$fmt: $phase failed, see $out" >&2; return 0; }
  tr '\r' '\n' < "$out" | sed -nE "s/^$bench +:.* ([0-9]+) ops\/sec.*/\1/p" | tail -1
}
phases=(readrandom multireadrandom multiread_vector multiread_vector_ro)
unit="ops/sec"
[[ $instructions == 1 ]] && unit="instructions a key"
declare -A runs
for phase in "${phases[@]}"; do
  for ((r = 1; r <= reps; r++)); do
    for fmt in "${ok_fmts[@]}"; do
      v=$(read_phase "$fmt" "$phase" "$r")
      echo "   $phase run $r $fmt: ${v:-failed} $unit" >&2
      runs[$phase.$fmt]="${runs[$phase.$fmt]:-} $v"
    done
  done
done
median_of() { tr ' ' '\n' <<< "$1" | grep -E '^[0-9]+$' | sort -n | awk '{a[NR]=$1} END{if (NR) print a[int((NR+1)/2)]}'; }

echo
echo "stock db_bench, workload $workload, $num keys, medians of $reps (formats interleaved)$([[ $instructions == 1 ]] && echo ", $unit (callgrind; ratios theirs over ours)"):"
echo "multireadrandom: batched (--multiread_batched=1), vector (db_bench's default), vector ro (--readonly=1: the compacted DB)"
printf '%-10s %12s %7s %12s %7s %12s %7s %12s %7s %12s %7s\n' format readrandom rh/fmt \
  "batched" rh/fmt "vector" rh/fmt "vector ro" rh/fmt "SST bytes" fmt/rh
for phase in "${phases[@]}"; do declare "rh_$phase=$(median_of "${runs[$phase.robinhood]:-}")"; done
ratio() { [[ -n "$1" && -n "$2" ]] && awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2fx", a/b}' || echo -; }
# Speeds: ours over theirs; instruction counts: theirs over ours.
speed_ratio() { if [[ $instructions == 1 ]]; then ratio "$2" "$1"; else ratio "$1" "$2"; fi; }
for fmt in "${fmts[@]}"; do
  cols=()
  for phase in "${phases[@]}"; do
    m=$(median_of "${runs[$phase.$fmt]:-}")
    rh_var="rh_$phase"
    cols+=("${m:-failed}" "$(speed_ratio "${!rh_var}" "$m")")
  done
  printf '%-10s %12s %7s %12s %7s %12s %7s %12s %7s %12s %7s\n' "$fmt" "${cols[@]}" \
    "${bytes[$fmt]:-?}" "$(ratio "${bytes[$fmt]:-}" "${bytes[robinhood]:-}")"
done
for fmt in "${fmts[@]}"; do rm -rf "${db:?}/$fmt"; done
