#!/usr/bin/env bash
# Cross-checks db_bench_ext with a tool we did not write: runs the system's
# own db_bench (Debian package rocksdb-tools) on the same workload for
# BlockBasedTable (bloom 10 bits/key), PlainTable (--use_plain_table),
# CuckooTable (--use_cuckoo_table) and RobinHoodTable (LD_PRELOAD of
# librocksdb_robinhood.so plus an OPTIONS file naming table_factory
# RobinHoodTable), and prints readrandom and multireadrandom (batches of 50)
# side by side, formats interleaved run by run, with each format's SST bytes.
# multireadrandom runs with --multiread_batched=1: without it db_bench calls
# the std::vector MultiGet, which RocksDB serves one Get at a time, so no
# table ever sees a batch.
# Each read run is one db_bench process that runs its benchmark twice and
# reports the second (--warmup=0: once): a fresh process starts with cold
# page tables and, for RobinHoodTable, pages not yet checksummed (each is
# checked on its first read), which db_bench_ext's warm-up reads absorb.
#
# Usage: db_bench_ext/stock_db_bench.sh [PLUGIN_SO] [--workload=cuckoo|sparkey]
#          [--num=N] [--reads=N] [--repetitions=N] [--formats=a,b,..] [--db=DIR]
#          [--db_bench=PATH] [--robinhood_options='name=value;...']
#          [--warmup=0|1]
# PLUGIN_SO (or env RH_PLUGIN_SO) defaults to build/librocksdb_robinhood.so.
# --db_bench=PATH: a db_bench built with the plugin in tree (for example
# "$(tools/build_host.sh --print)/bin/db_bench"), run with nothing preloaded.
# db_bench has fixed-size keys only: the sparkey workload runs with 20-byte
# keys (the mean of db_bench_ext's 8..32) and 100-byte values.
# --robinhood_options: RobinHoodTable options for its OPTIONS file, for
# example 'inline_order_array=false;inline_load_factor=0.85'.
set -euo pipefail
cd "$(dirname "$0")/.."

so="${RH_PLUGIN_SO:-build/librocksdb_robinhood.so}"
workload=cuckoo num=1000000 reads=2000000 reps=3 db=/tmp/stock_db_bench db_bench=""
rh_options="" warmup=1
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
    -h|--help) sed -n '2,28p' "$0"; exit 0 ;;
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

case "$workload" in
  cuckoo) key_size=8 value_size=4 prefix=8 ;;
  sparkey) key_size=20 value_size=100 prefix=8 ;;
  *) echo "unknown workload $workload (cuckoo, sparkey)" >&2; exit 2 ;;
esac

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
echo "workload $workload: $num keys of $key_size bytes, $value_size-byte values; readrandom and multireadrandom (batch 50) x$reps, $reads reads each, formats interleaved$([[ $warmup == 1 ]] && echo ", each after a warm-up run in the same process")"
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
  echo "-- $fmt: table_factory=$used, SST bytes ${bytes[$fmt]}" >&2
  ok_fmts+=("$fmt")
done

# One read phase of one format; prints its ops/sec.
read_phase() {
  local fmt=$1 bench=$2 out="$log/$1.$2.$3" runs=$2
  [[ $warmup == 1 ]] && runs="$bench,$bench"
  # shellcheck disable=SC2086
  env ${preof[$fmt]:-} "$db_bench" "${common[@]}" ${flagsof[$fmt]} --db="$db/$fmt" \
    --use_existing_db=1 --reads="$reads" --batch_size=50 --multiread_batched=1 \
    --benchmarks="$runs" > "$out" 2>&1 ||
    { echo "$fmt: $bench failed, see $out" >&2; return 0; }
  tr '\r' '\n' < "$out" | sed -nE "s/^$bench +:.* ([0-9]+) ops\/sec.*/\1/p" | tail -1
}
declare -A runs
for bench in readrandom multireadrandom; do
  for ((r = 1; r <= reps; r++)); do
    for fmt in "${ok_fmts[@]}"; do
      v=$(read_phase "$fmt" "$bench" "$r")
      echo "   $bench run $r $fmt: ${v:-failed} ops/sec" >&2
      runs[$bench.$fmt]="${runs[$bench.$fmt]:-} $v"
    done
  done
done
median_of() { tr ' ' '\n' <<< "$1" | grep -E '^[0-9]+$' | sort -n | awk '{a[NR]=$1} END{if (NR) print a[int((NR+1)/2)]}'; }

echo
echo "stock db_bench, workload $workload, $num keys, medians of $reps (formats interleaved):"
printf '%-10s %14s %10s %16s %10s %14s %10s\n' format "readrandom" "rh/fmt" "multireadrandom" "rh/fmt" "SST bytes" "fmt/rh"
for bench in readrandom multireadrandom; do declare "rh_$bench=$(median_of "${runs[$bench.robinhood]:-}")"; done
for fmt in "${fmts[@]}"; do
  rr=$(median_of "${runs[readrandom.$fmt]:-}")
  mr=$(median_of "${runs[multireadrandom.$fmt]:-}")
  r1=- r2=- r3=-
  [[ -n "$rr" && -n "$rh_readrandom" ]] && r1=$(awk -v a="$rh_readrandom" -v b="$rr" 'BEGIN{printf "%.2fx", a/b}')
  [[ -n "$mr" && -n "$rh_multireadrandom" ]] && r2=$(awk -v a="$rh_multireadrandom" -v b="$mr" 'BEGIN{printf "%.2fx", a/b}')
  [[ -n "${bytes[$fmt]:-}" && -n "${bytes[robinhood]:-}" ]] && r3=$(awk -v a="${bytes[$fmt]}" -v b="${bytes[robinhood]}" 'BEGIN{printf "%.2fx", a/b}')
  printf '%-10s %14s %10s %16s %10s %14s %10s\n' "$fmt" "${rr:-failed}" "$r1" "${mr:-failed}" "$r2" "${bytes[$fmt]:-?}" "$r3"
done
for fmt in "${fmts[@]}"; do rm -rf "${db:?}/$fmt"; done
