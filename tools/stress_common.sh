# What tools/stress.sh and tools/crash_test.sh share: the host's tools,
# the OPTIONS files naming RobinHoodTable, the db_stress flags every run
# takes, and the tally of layouts in a DB. Sourced, not run.

# Every run: four threads over two column families of 30k keys (8 to 24
# bytes, values 8 to 24: small enough for the inline layout where a file
# holds only compacted puts). TestGetProperty asks for the DB's
# block-cache properties, which only BlockBasedTable's options answer
# (PlainTable and CuckooTable fail it alike), so it is off. db_stress injects read and
# write faults through sync points, which a release build does not have,
# so those are off too (tests/fault_injection_test.cc injects faults of
# its own).
STRESS_COMMON="--read_fault_one_in=0 --metadata_read_fault_one_in=0
  --metadata_write_fault_one_in=0 --threads=4 --max_key=30000 --column_families=2
  --get_property_one_in=0 --clear_column_family_one_in=0 --verify_checksum_one_in=2000 --verify_db_one_in=4000
  --flush_one_in=2000 --compact_range_one_in=2000 --compact_files_one_in=2000
  --acquire_snapshot_one_in=100 --checkpoint_one_in=4000"

# Every kind of operation at once: point and MultiGet reads (--use_multiget
# per configuration), KeyMayExist, prefix scans and iterators in both
# directions (every fifth checked key by key), puts, wide-column entities,
# deletes, range deletions, ingestion of files built by SstFileWriter with
# the same table factory, files marked for compaction, paused background
# work, approximate sizes, the live-file APIs, checkpoints, and reopens.
# Not backups: db_stress picks BackupEngine's default naming of shared
# files half the time, which fails on our files (docs/guide.md, Backups).
MIX_MIXED="--readpercent=35 --prefixpercent=5 --writepercent=35 --delpercent=10
  --delrangepercent=5 --iterpercent=10 --ingest_external_file_one_in=1000 --reopen=2
  --approximate_size_one_in=500 --key_may_exist_one_in=200
  --get_live_files_apis_one_in=1000 --verify_iterator_with_expected_state_one_in=5
  --use_put_entity_one_in=10 --pause_background_one_in=2000 --mark_for_compaction_one_file_in=10"
# The same with merges instead of puts (the put merge operator, named in
# the OPTIONS file: an OPTIONS file replaces db_stress's own options), and
# no entities: a merge onto an entity keeps its other columns, which
# db_stress checks only with its own merge operator (no OPTIONS file can
# name it).
MIX_MERGE="$MIX_MIXED --use_merge=1 --use_put_entity_one_in=0"
# The batched-snapshot mode: no range deletions or ingestion there. Its
# prefix scans take --prefix_size bytes of a key: a digit and the first
# bytes of an 8-byte big-endian number below --max_key, so with the default
# of 7 every scan reads every key of the column family ten times over; 8
# makes scans of 256 keys.
MIX_BATCHED="--prefix_size=8 --test_batches_snapshots=1 --readpercent=40 --prefixpercent=10
  --writepercent=30 --delpercent=10 --delrangepercent=0 --iterpercent=10 --reopen=2"

# One line each: the configurations of tools/stress.sh are lines.
STRESS_COMMON=$(echo $STRESS_COMMON) MIX_MIXED=$(echo $MIX_MIXED)
MIX_MERGE=$(echo $MIX_MERGE) MIX_BATCHED=$(echo $MIX_BATCHED)

# Sets DB_STRESS, LDB and RH_INSPECT (empty if there is none: layouts
# untallied), and STRESS_REMOTE: the flags of a run whose compactions go
# through RocksDB's compaction service, empty where the host's db_stress
# has none.
stress_find_tools() {
  local prefix
  prefix=$(tools/build_host.sh --print)
  if [ ! -x "$prefix/bin/db_stress" ] || [ -n "${RH_STRESS_REBUILD:-}" ]; then
    tools/build_host.sh >&2
  fi
  DB_STRESS=$prefix/bin/db_stress
  LDB=$prefix/bin/ldb
  # A sanitized host (RH_HOST_SANITIZER, tools/build_host.sh) stops at its
  # first report, which the run's log then holds. Not leaks: db_stress is
  # killed mid-run, and its own allocations at exit are not ours to judge.
  case "${RH_HOST_SANITIZER:-}" in
    address) export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} ;;
    thread) export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:exitcode=66:report_signal_unsafe=0} ;;
  esac
  # From 10.7 db_stress runs each compaction through two in-process
  # "remote" workers (DB::OpenAndCompact) unless told otherwise, which a
  # checkpoint aborts ("Waiting a remote compaction job was aborted", the
  # write that waited then fails): RocksDB's own crash test turns
  # checkpoints off with them. Off here; the runs that take them
  # (STRESS_REMOTE) turn checkpoints off instead.
  STRESS_REMOTE=""
  local help
  help=$("$DB_STRESS" --helpfull 2>&1 || true)
  if [[ "$help" == *-remote_compaction_worker_threads* ]]; then
    STRESS_COMMON="$STRESS_COMMON --remote_compaction_worker_threads=0"
    STRESS_REMOTE="--remote_compaction_worker_threads=2 --checkpoint_one_in=0"
  fi
  RH_INSPECT=""
  local t
  for t in build-host/rh_inspect build/rh_inspect; do
    if [ -x "$t" ]; then RH_INSPECT=$t; break; fi
  done
}

# stress_options_file FILE "DB-and-CF options;..." "RobinHoodTable options;..." [block]
# Options the first list names go to [DBOptions] if they are DB options
# (allow_mmap_reads), else to [CFOptions "default"]. With "block", the same
# file for BlockBasedTable (RocksDB's defaults) instead, to compare with.
stress_options_file() {
  local file=$1 cf_db=$2 rh=$3 factory=RobinHoodTable o
  [ "${4:-}" != block ] || factory=BlockBasedTable
  local db_lines="" cf_lines="" rh_lines=""
  IFS=';' read -r -a list <<< "$cf_db"
  for o in "${list[@]}"; do
    case "$o" in
      allow_mmap_reads=*) db_lines+="  $o"$'\n' ;;
      ?*) cf_lines+="  $o"$'\n' ;;
    esac
  done
  IFS=';' read -r -a list <<< "$rh"
  for o in "${list[@]}"; do [ -z "$o" ] || rh_lines+="  $o"$'\n'; done
  cat > "$file" <<OPTS
[Version]
  rocksdb_version=9.11.2
  options_file_version=1.1

[DBOptions]
  create_if_missing=true
  create_missing_column_families=true
  max_background_jobs=2
${db_lines}
[CFOptions "default"]
  table_factory=$factory
  merge_operator=put
  write_buffer_size=1048576
  target_file_size_base=1048576
  max_bytes_for_level_base=4194304
  level0_file_num_compaction_trigger=4
${cf_lines}
OPTS
  [ "$factory" = BlockBasedTable ] || printf '[TableOptions/RobinHoodTable "default"]\n%s' "$rh_lines" >> "$file"
}

# The SST files a DB holds, by layout: "log 12, inline 3, inline-keyorder 5"
# (inline-keyorder: slots in key order, format version 4).
stress_layouts() {
  local db=$1 f json layout version
  [ -n "$RH_INSPECT" ] || { echo "(no rh_inspect: layouts not counted)"; return; }
  declare -A n=()
  for f in "$db"/*.sst; do
    [ -e "$f" ] || continue
    json=$("$RH_INSPECT" info "$f" --json 2>/dev/null) || { n[unreadable]=$(( ${n[unreadable]:-0} + 1 )); continue; }
    layout=$(sed -nE 's/^ *"layout": "([a-z]+)".*/\1/p' <<< "$json")
    version=$(sed -nE 's/^ *"format_version": ([0-9]+).*/\1/p' <<< "$json")
    [ "$layout" = inline ] && [ "$version" = 4 ] && layout=inline-keyorder
    n[$layout]=$(( ${n[$layout]:-0} + 1 ))
  done
  local s="" k
  for k in "${!n[@]}"; do s+="${s:+, }$k ${n[$k]}"; done
  echo "sst: ${s:-none}"
}

# Wall-clock milliseconds, and the seconds (one decimal) since such a reading.
stress_now_ms() { local t=${EPOCHREALTIME/./}; echo $(( t / 1000 )); }
stress_secs_since() {
  local ms=$(( $(stress_now_ms) - $1 ))
  printf '%d.%d' $(( ms / 1000 )) $(( ms % 1000 / 100 ))
}

# A db_stress that dies of a signal on a CI machine must be readable from
# the log alone: runs start in their own directory with core files allowed,
# and stress_backtrace DIR prints the faulting thread's stack from the core
# left there (every thread's goes to DIR/backtrace.txt). Where the kernel
# pipes cores elsewhere (core_pattern "|..."), it says so instead.
stress_allow_core() { ulimit -c unlimited 2>/dev/null || ulimit -c "$(ulimit -H -c)" 2>/dev/null || true; }
stress_backtrace() {
  local dir=$1 core
  core=$(ls -t "$dir"/core* 2>/dev/null | head -1 || true)
  if [ -z "$core" ]; then
    echo "     no core file in $dir (core_pattern: $(cat /proc/sys/kernel/core_pattern 2>/dev/null))"
    return 0
  fi
  if ! command -v gdb > /dev/null; then
    echo "     core file $core; no gdb to read it"
    return 0
  fi
  # One load of the core: the faulting thread's stack, then every thread's
  # (whose first "Thread" header ends the part printed here).
  gdb -q -batch -ex "bt 30" -ex "thread apply all bt 30" "$DB_STRESS" "$core" \
    > "$dir/backtrace.txt" 2>&1 || true
  echo "     the faulting thread, from $core (every thread: $dir/backtrace.txt):"
  awk '/^Thread /{exit} /^#|signal/ && !seen[$0]++' "$dir/backtrace.txt" | sed 's/^/     /'
}
