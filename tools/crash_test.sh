#!/usr/bin/env bash
# A crash test of RobinHoodTable with RocksDB's own db_stress, as
# db_crashtest.py's blackbox mode runs it: db_stress writes, reads, flushes,
# compacts and ingests with every kind of operation at once, and is killed
# with SIGKILL at a random moment; the next round reopens the same DB and
# first checks every key against the expected state db_stress keeps on
# disk (a write in flight when the kill came may have landed or not,
# nothing else may differ), then goes on until its own kill. Each round
# takes the table options of another layout (key order, hash order, no
# order array, the log, a filter) and turns mmap on or off, so files
# written under one set of options are read, compacted and verified under
# the others. A last round runs to its end and verifies again; then a byte
# of an SST file is flipped and db_stress's own verification must report
# Corruption naming the file, never a wrong value.
#
#   tools/crash_test.sh [ROUNDS] [--out=DIR] [--min=S] [--max=S]
#
# ROUNDS of kills (default 10), each after between --min and --max seconds
# (default 4 and 12). The DB, expected state and logs stay under OUT
# (default /tmp/rh_crash) when a round fails; the exit status says. The
# seed is printed; RH_SEED=N runs with it again. A db_stress that crashes
# leaves its core in OUT and its stack in the output.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=10 out=/tmp/rh_crash min=4 max=12
for arg in "$@"; do
  case "$arg" in
    --out=*) out="${arg#*=}" ;;
    --min=*) min="${arg#*=}" ;;
    --max=*) max="${arg#*=}" ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    -*) echo "crash_test: unknown option $arg" >&2; exit 2 ;;
    *) rounds=$arg ;;
  esac
done
for v in "$rounds" "$min" "$max"; do
  [[ "$v" =~ ^[0-9]+$ ]] || { echo "crash_test: not a number: $v" >&2; exit 2; }
done
[ "$min" -ge 1 ] && [ "$max" -ge "$min" ] ||
  { echo "crash_test: need 1 <= --min <= --max (got $min, $max)" >&2; exit 2; }

. tools/stress_common.sh
stress_find_tools

# Round r takes variant r mod 6: mmap | compression | table options.
variants=(
  "allow_mmap_reads=true;compression=kNoCompression|"
  "allow_mmap_reads=false;compression=kSnappyCompression|inline_key_order=false"
  "allow_mmap_reads=true;compression=kZSTD|inline_slot_limit=0"
  "allow_mmap_reads=false;compression=kLZ4Compression|inline_key_order=false;inline_order_array=false"
  "allow_mmap_reads=true;compression=kSnappyCompression|filter_policy=bloomfilter:10"
  "allow_mmap_reads=false;compression=kNoCompression|"
)

rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
db=$out/db expected=$out/expected
mkdir -p "$expected"
# One seed for every round, as db_crashtest.py keeps it: db_stress derives
# from it the keys it never overwrites (and deletes with SingleDelete), so a
# new seed would delete the same key both ways and break SingleDelete's
# contract (RocksDB then reports Corruption in compaction and ingestion).
seed=${RH_SEED:-$(( $(date +%s) % 100000 ))}
echo "crash_test: db_stress $DB_STRESS; $rounds kills after ${min}-${max} s; seed $seed (RH_SEED); out $out"
start=$SECONDS
verified=0

# run ROUND OPS [FLAGS...]: one db_stress process on the shared DB; its log is
# $out/round-ROUND.log. No entities: rounds alternate merges and puts, and
# db_stress checks an entity a merge touched only with its own merge
# operator (stress_common.sh), nor can a key written as an entity be
# verified by a round that writes none. It execs db_stress, so call it in
# a subshell: the subshell's pid is then db_stress's own, which the kill
# must reach.
run() {
  local round=$1 ops=$2 variant
  shift 2
  variant=${variants[$(( round % ${#variants[@]} ))]}
  stress_options_file "$out/OPTIONS" "${variant%%|*}" "${variant#*|}"
  cd "$out"
  stress_allow_core
  # Line-buffered, so what it printed before a SIGKILL is in its log.
  # shellcheck disable=SC2086
  exec stdbuf -oL -eL "$DB_STRESS" --options_file="$out/OPTIONS" --db="$db" --expected_values_dir="$expected" \
    --destroy_db_initially=$(( round == 1 ? 1 : 0 )) --seed="$seed" \
    --ops_per_thread="$ops" $STRESS_COMMON $MIX_MIXED --reopen=0 --use_put_entity_one_in=0 \
    --use_multiget=$(( round % 2 )) --use_merge=$(( round / 2 % 2 )) "$@" \
    > "$out/round-$round.log" 2>&1
}

fail() {
  echo "FAIL round $1: $2; kept $out" >&2
  grep -v "Fail if OPTIONS file error" "$out/round-$1.log" |
    grep -m8 -iE "error|fail|corrupt|mismatch|assert|terminate" | sed 's/^/     /' >&2 || true
  # Killed by a signal of its own (a crash, not our SIGKILL): its stack.
  [ "${3:-0}" -lt 128 ] || stress_backtrace "$out" >&2
  exit 1
}

# Whatever ends this script, no db_stress of it stays behind.
pid=""
trap '[ -z "$pid" ] || kill -KILL "$pid" 2>/dev/null || true' EXIT
for (( round = 1; round <= rounds; round++ )); do
  t0=$SECONDS
  ( run "$round" 100000000 ) &
  pid=$!
  wait_s=$(( min + RANDOM % (max - min + 1) ))
  for (( s = 0; s < wait_s; s++ )); do
    sleep 1
    kill -0 "$pid" 2>/dev/null || break
  done
  if kill -0 "$pid" 2>/dev/null; then
    kill -KILL "$pid"
    wait "$pid" 2>/dev/null || true
  else
    # It stopped before its kill: only a failure does that.
    rc=0
    wait "$pid" || rc=$?
    fail "$round" "db_stress exited by itself with status $rc" "$rc"
  fi
  # A killed process cannot report a failed verification by its exit
  # status: its log does.
  if grep -v "Fail if OPTIONS file error" "$out/round-$round.log" |
       grep -qiE "verification failed|corruption|error|assert|terminate called"; then
    fail "$round" "db_stress reported a failure before its kill"
  fi
  if [ "$round" -eq 1 ]; then
    state="new DB"
  elif grep -q "Crash-recovery verification passed" "$out/round-$round.log"; then
    state="reopened, every key verified"
    verified=$(( verified + 1 ))
  else
    state="killed before its verification had finished"
  fi
  printf 'killed round %-3d after %2d s  %s\n' "$round" $(( SECONDS - t0 )) "$state"
done

round=$(( rounds + 1 ))
t0=$SECONDS
rc=0
( run "$round" 20000 ) || rc=$?
[ "$rc" -eq 0 ] || fail "$round" "the last round (verify, operate, verify) failed with status $rc" "$rc"
grep -q "Crash-recovery verification passed" "$out/round-$round.log" ||
  fail "$round" "the last round did not verify the reopened DB"
verified=$(( verified + 1 ))
printf 'last round %-5d %3d s  ran to its end, verified  %s\n' "$round" $(( SECONDS - t0 )) "$(stress_layouts "$db")"
# Then a byte of the largest SST file flipped, and db_stress's
# verification alone: it reads with verify_checksums=false (its default),
# and every read of the damaged bytes must say Corruption, naming the file,
# never give a wrong value or none. Both column families are compacted to
# the bottom level first, so no newer version hides a damaged entry from
# the verification's reads.
round=$(( rounds + 2 ))
for cf in default 1; do
  "$LDB" --db="$db" --column_family="$cf" compact > "$out/compact-$cf.log" 2>&1 ||
    fail "$round" "ldb compact of column family $cf failed: $(cat "$out/compact-$cf.log")"
done
sst=$(ls -S "$db"/*.sst | head -1)
for cf in default 1; do
  "$LDB" --db="$db" --column_family="$cf" scan > "$out/scan-$cf.before" ||
    fail "$round" "ldb scan of column family $cf failed before the damage"
done
python3 -c 'import sys; p = sys.argv[1]; b = bytearray(open(p, "rb").read()); b[len(b) // 3] ^= 0x40; open(p, "wb").write(b)' "$sst"
rc=0
( run "$round" 1000 --verification_only=1 ) || rc=$?
log=$out/round-$round.log
[ "$rc" -lt 128 ] || fail "$round" "db_stress died reading damaged $sst (status $rc)" "$rc"
# db_stress's iterator verification reports a key past an iterator that
# stopped on Corruption as "Value not found" (it reads the status only
# while the iterator is valid), so scans are judged by ldb instead: the
# same entries as before the damage, or a prefix of them and then
# Corruption naming the file.
if grep "Verification failed for" "$log" | grep -v "Corruption: $sst" |
     grep -qv "Iterator verification: Value not found"; then
  fail "$round" "a read of damaged $sst gave a wrong answer instead of Corruption"
fi
reported=0
grep -q "Corruption: $sst" "$log" && reported=1
for cf in default 1; do
  after=$out/scan-$cf.after
  "$LDB" --db="$db" --column_family="$cf" scan > "$after" 2> "$after.err" || true
  if grep -q "Corruption: $sst" "$after.err"; then
    reported=1
    n=$(wc -l < "$after")
    cmp -s "$after" <(head -n "$n" "$out/scan-$cf.before") ||
      fail "$round" "a scan of column family $cf over damaged $sst gave other entries before its Corruption"
  elif ! cmp -s "$after" "$out/scan-$cf.before"; then
    fail "$round" "a scan of column family $cf over damaged $sst gave other entries, and no Corruption"
  fi
done
if [ "$reported" -eq 0 ]; then
  fail "$round" "the damage to $sst went unreported (exit status $rc)"
fi
printf 'damaged %s: %s\n' "$(basename "$sst")" \
  "$(cat "$log" "$out"/scan-*.after.err | grep -o "Corruption: $sst: [^,]*" | head -1 | sed "s|$sst|the file|")"

echo "crash_test: $rounds kills, $verified reopens verified against the expected state, in $(( SECONDS - start )) s; no failure"
rm -rf "$out"
