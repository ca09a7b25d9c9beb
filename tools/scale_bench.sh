#!/usr/bin/env bash
# The scale benchmark: rh_load_gen's data set of one shape loaded by rh_load
# on each thread count (entries/s, MB/s of input, peak memory, files,
# bytes), the same input as BlockBasedTable files, then on the RobinHoodTable
# DB: open and first-Get time with a cold page cache, `rh_inspect verify`
# MB/s, and point lookups of present keys against BlockBasedTable's, in
# memory (cache warm) and from disk (inside a cgroup-v1 memory group of a
# quarter of the data, page cache dropped first: device pages a lookup and
# resident memory). Needs root for the cgroup and drop_caches (the disk
# part is skipped without it). Each format keeps a filter of 10 bits a key,
# held in memory: RobinHoodTable its default, BlockBasedTable a Bloom
# filter (as db_bench_ext sets it up).
#
#   tools/scale_bench.sh --shape=cuckoo --num=100000000 [--threads=1,2]
#       [--memory_limit=1G] [--dir=DIR] [--lookups=1000000]
#       [--disk_lookups=200000] [--no_disk] [--keep]
set -euo pipefail
cd "$(dirname "$0")/.."
shape=cuckoo num=10000000 threads=1,2 limit=1G dir=/tmp/rh_scale
lookups=1000000 disk_lookups=200000 disk=1 keep=0
for a in "$@"; do
  case $a in
    --shape=*) shape=${a#*=} ;;
    --num=*) num=${a#*=} ;;
    --threads=*) threads=${a#*=} ;;
    --memory_limit=*) limit=${a#*=} ;;
    --dir=*) dir=${a#*=} ;;
    --lookups=*) lookups=${a#*=} ;;
    --disk_lookups=*) disk_lookups=${a#*=} ;;
    --no_disk) disk=0 ;;
    --keep) keep=1 ;;
    *) echo "scale_bench: unknown argument $a" >&2; exit 64 ;;
  esac
done
B=build
for p in rh_load rh_load_gen rh_lookup_bench rh_inspect; do
  [[ -x $B/$p ]] || { echo "scale_bench: build $B/$p first (tools/build.sh)" >&2; exit 1; }
done
[[ $(id -u) -eq 0 && -d /sys/fs/cgroup/memory ]] || disk=0
rm -rf "$dir"
mkdir -p "$dir"
echo "# scale_bench: shape=$shape num=$num threads=$threads memory_limit=$limit $(date -u +%F)"
echo "# $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(uname -r)"

gen() { "$B/rh_load_gen" --shape="$shape" --num="$num"; }
# rh_load on a thread count into $dir/NAME (DB at $dir/NAME.db): its summary
# line and the peak resident memory /usr/bin/time saw.
load() {
  local name=$1; shift
  gen | /usr/bin/time -f "maxrss_kb=%M" -o "$dir/$name.time" \
    "$B/rh_load" --input=- --input_format=binary --output_dir="$dir/$name.parts" \
    --db="$dir/$name.db" --memory_limit="$limit" --tmp_dir="$dir" --progress=off "$@" \
    >"$dir/$name.out"
  echo "$name: $(head -1 "$dir/$name.out" | sed 's/^rh_load: //'); $(cat "$dir/$name.time")"
}

IFS=, read -ra tlist <<<"$threads"
last=""
for t in "${tlist[@]}"; do
  [[ -n $last ]] && rm -rf "$dir/$last.db"
  load "rh-t$t" --threads="$t"
  last="rh-t$t"
done
rh="$dir/$last.db"
load bbt --threads="${tlist[-1]}" --table=block --options=filter_policy=bloomfilter:10
bbt="$dir/bbt.db"
echo "bytes: robinhood $(du -sb "$rh" | cut -f1), blockbased $(du -sb "$bbt" | cut -f1)"

drop() { sync; echo 3 >/proc/sys/vm/drop_caches; }
bench() { "$B/rh_lookup_bench" --shape="$shape" --num="$num" "$@"; }

if [[ $disk -eq 1 ]]; then
  drop
  echo "open, cold cache: robinhood $(bench --db="$rh" --lookups=1 | grep -o 'open_ms=.*')"
  drop
  echo "open, cold cache: blockbased $(bench --db="$bbt" --table=block --bloom_bits=10 --lookups=1 | grep -o 'open_ms=.*')"
fi
# Verify every file (page cache warm after the first pass), MB/s: one
# file at a time, then the directory (a file a core at once).
total=0
for f in "$rh"/*.sst; do total=$((total + $(stat -c %s "$f"))); done
for threads in 1 "$(nproc)"; do
  start=$(date +%s.%N)
  "$B/rh_inspect" verify "$rh" --threads="$threads" >/dev/null
  secs=$(echo "$(date +%s.%N) - $start" | bc)
  echo "verify, $threads thread(s): $total bytes in $secs s: $(echo "$total / $secs / 1000000" | bc) MB/s"
done

echo "in memory ($lookups lookups, cache warm):"
cat "$rh"/*.sst "$bbt"/*.sst >/dev/null
for args in "--db=$rh" "--db=$rh --mmap" "--db=$bbt --table=block --bloom_bits=10"; do
  # shellcheck disable=SC2086
  echo "  $(bench $args --lookups="$lookups")"
done

if [[ $disk -eq 1 ]]; then
  data=$(du -sb "$rh" | cut -f1)
  cg=/sys/fs/cgroup/memory/rh_scale_bench
  mkdir -p "$cg"
  echo $((data / 4)) >"$cg/memory.limit_in_bytes"
  echo "from disk ($disk_lookups lookups, memory group of $((data / 4 / 1048576)) MiB, a quarter of the RobinHoodTable data, cache dropped):"
  for args in "--db=$rh" "--db=$rh --mmap" "--db=$bbt --table=block --bloom_bits=10"; do
    drop
    # shellcheck disable=SC2086
    out=$(bash -c "echo \$\$ >$cg/cgroup.procs && exec $B/rh_lookup_bench --shape=$shape --num=$num $args --lookups=$disk_lookups") ||
      out="$args: failed with status $? (killed by the memory group's OOM killer if 137)"
    echo "  $out"
  done
  rmdir "$cg" 2>/dev/null || true
fi
[[ $keep -eq 1 ]] || rm -rf "$dir"
