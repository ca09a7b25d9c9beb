#!/usr/bin/env bash
# Lookups from disk in interleaved rounds, RobinHoodTable (pread) then
# BlockBasedTable, each inside a memory group of a quarter of the
# RobinHoodTable data with the page cache dropped first, on the DBs a
# `tools/scale_bench.sh --keep` run left in DIR (a disk's latency drifts
# over minutes; rounds side by side compare the formats, not the moments).
#
#   tools/disk_rounds.sh DIR NUM LOOKUPS ROUNDS [SHAPE]    (root)
set -euo pipefail
cd "$(dirname "$0")/.."
B=build dir=$1 num=$2 lookups=$3 rounds=$4 shape=${5:-sparkey}
rh=$dir/rh-t2.db bbt=$dir/bbt.db
data=$(du -sb "$rh" | cut -f1)
cg=/sys/fs/cgroup/memory/rh_disk_rounds
mkdir -p "$cg"
echo $((data / 4)) >"$cg/memory.limit_in_bytes"
for r in $(seq "$rounds"); do
  for args in "--db=$rh" "--db=$bbt --table=block --bloom_bits=10"; do
    sync; echo 3 >/proc/sys/vm/drop_caches
    echo "round $r: $(bash -c "echo \$\$ >$cg/cgroup.procs && exec $B/rh_lookup_bench --shape=$shape --num=$num $args --lookups=$lookups")"
  done
done
rmdir "$cg" 2>/dev/null || true
