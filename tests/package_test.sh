#!/usr/bin/env bash
# The installed package, used as RocksDB users consume libraries:
# `cmake --install` into a scratch prefix, then examples/ingest built
# against it with find_package(RocksDBRobinHood), and the same program built
# with pkg-config (rocksdb-robinhood.pc) as docs/guide.md says; each must
# run and read back every key it ingested, and refuse a misspelt factory
# id. Environment (set by ctest): RH_BUILD_DIR.
set -euo pipefail
fail() { echo "package_test: FAIL: $*" >&2; exit 1; }
src="$(cd "$(dirname "$0")/.." && pwd)"
[[ -n "${RH_BUILD_DIR:-}" ]] || fail "RH_BUILD_DIR is not set"
work="$(mktemp -d "${TMPDIR:-/tmp}/rh_package.XXXXXX")"
trap 'rm -rf "$work"' EXIT

cmake --install "$RH_BUILD_DIR" --prefix "$work/prefix" >/dev/null
for f in include/rocksdb_robinhood/robinhood_table.h lib/librocksdb_robinhood.a \
         lib/cmake/RocksDBRobinHood/RocksDBRobinHoodConfig.cmake \
         lib/pkgconfig/rocksdb-robinhood.pc bin/rh_inspect bin/rh_load; do
  [[ -f "$work/prefix/$f" ]] || fail "cmake --install did not install $f"
done
"$work/prefix/bin/rh_inspect" --help >/dev/null 2>&1 ||
  fail "the installed rh_inspect does not run"
"$work/prefix/bin/rh_load" --help >/dev/null 2>&1 ||
  fail "the installed rh_load does not run"

# The Python package, where the build made one: installed where Debian's
# python3 looks under the prefix, and working from there alone.
if [[ -d "$RH_BUILD_DIR/python/rocksdb_robinhood" ]]; then
  py_dir="$(echo "$work"/prefix/lib/python3*/dist-packages)"
  for f in __init__.py dask.py dask_load.py; do
    [[ -f "$py_dir/rocksdb_robinhood/$f" ]] || fail "no $f under $py_dir"
  done
  out="$(cd "$work" && PYTHONPATH="$py_dir" /usr/bin/python3 -c '
import sys, rocksdb_robinhood as rh
assert rh.__file__.startswith(sys.argv[1]), rh.__file__
with rh.Writer(sys.argv[2] + "/p.sst") as w:
    w.put(b"k", b"v")
db = rh.DB(sys.argv[2] + "/pydb")
db.ingest([w.info["path"]])
print("python:", db.get(b"k").decode())
' "$py_dir" "$work")" || fail "the installed Python package does not work"
  [[ "$out" == "python: v" ]] || fail "the installed Python package printed: $out"
  echo "$out"
fi

# find_package
cmake -S "$src/examples/ingest" -B "$work/build" \
  -DCMAKE_PREFIX_PATH="$work/prefix" >"$work/cmake.log" 2>&1 ||
  { cat "$work/cmake.log" >&2; fail "examples/ingest does not configure"; }
cmake --build "$work/build" >"$work/build.log" 2>&1 ||
  { cat "$work/build.log" >&2; fail "examples/ingest does not build"; }
out="$("$work/build/ingest_example" "$work/run1")" || fail "ingest_example failed: $out"
[[ "$out" == "ok: 10000 keys" ]] || fail "ingest_example printed: $out"
echo "find_package: $out"

# pkg-config: the command line docs/guide.md gives, as it gives it (app.cc
# and app standing for the example), with its rpath: the program must start
# with no LD_LIBRARY_PATH.
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
cmd="$(sed -n '/^g++ .*pkg-config/,/[^\\]$/p' "$src/docs/guide.md")"
[[ -n "$cmd" ]] || fail "docs/guide.md gives no pkg-config command line"
cmd="${cmd//app.cc/\"$src/examples/ingest/ingest.cc\"}"
cmd="${cmd//-o app/-o \"$work/ingest_pc\"}"
(cd "$work" && eval "$cmd") ||
  fail "examples/ingest/ingest.cc does not build with the guide's command: $cmd"
out="$(env -u LD_LIBRARY_PATH "$work/ingest_pc" "$work/run2")" ||
  fail "the pkg-config build does not run: $out"
[[ "$out" == "ok: 10000 keys" ]] || fail "pkg-config build printed: $out"
echo "pkg-config: $out"

# A misspelt factory id is refused, not silently BlockBasedTable.
if out="$("$work/build/ingest_example" "$work/run3" RobinhoodTable 2>&1)"; then
  fail "a misspelt factory id was accepted: $out"
fi
[[ "$out" == *"Could not load TableFactory"* ]] ||
  fail "a misspelt factory id says: $out"
echo "misspelt id: $out"
echo "package_test: PASS"
