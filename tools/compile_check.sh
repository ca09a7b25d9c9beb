#!/usr/bin/env bash
# Compiles the plugin's sources (table/*.cc) against RocksDB source trees,
# with RocksDB's own warning flags and -Werror, the way an in-tree build of
# each release would: how docs/compatibility.md's compile-only rows are
# checked. Then everything else we build against a host: the loader and
# rh_load, the inspector, the Python module, db_bench_ext, the tools, the
# example, the tests and the fuzz targets (errors only: our own build
# gives them its warnings). Needs no RocksDB build, only its source (for
# example a checkout of each release branch). Prints one line per tree;
# exits 1 if any failed.
#
#   tools/compile_check.sh TREE...        e.g. ~/rocksdb-11.8
#   RH_CHECK_JOBS=2 (default: nproc)      parallel compiles per tree
#   RH_CHECK_CXX=clang++ (default: g++)   the compiler (clang warns of
#                                         things gcc does not, and back)
set -uo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || { echo "usage: $0 ROCKSDB_SOURCE_TREE..." >&2; exit 2; }
jobs=${RH_CHECK_JOBS:-$(nproc)}
cxx=${RH_CHECK_CXX:-g++}
failed=0
for tree in "$@"; do
  header="$tree/include/rocksdb/version.h"
  [ -f "$header" ] || { echo "$tree: no include/rocksdb/version.h"; failed=1; continue; }
  v() { sed -nE "s/^#define ROCKSDB_$1 ([0-9]+)$/\1/p" "$header"; }
  major=$(v MAJOR); minor=$(v MINOR); patch=$(v PATCH)
  # RocksDB's headers need C++20 from 10.7.
  std=c++17
  if [ "$major" -gt 10 ] || { [ "$major" -eq 10 ] && [ "$minor" -ge 7 ]; }; then std=c++20; fi
  log=$(mktemp)
  printf '%s\n' table/*.cc | grep -v autoregister |
    xargs -P "$jobs" -I{} sh -c ''"$cxx"' -std='"$std"' -fsyntax-only -I. -Iinclude \
      -isystem "'"$tree"'" -isystem "'"$tree"'/include" \
      -DROCKSDB_PLATFORM_POSIX -DROCKSDB_LIB_IO_POSIX -DOS_LINUX -DNDEBUG \
      -DSNAPPY -DZLIB -DBZIP2 -DLZ4 -DZSTD \
      -Wall -Wextra -Wsign-compare -Wshadow -Wno-unused-parameter \
      -Wno-unused-variable -Woverloaded-virtual -Wnon-virtual-dtor \
      -Wno-missing-field-initializers -Werror {} 2>&1 || echo "FAILED {}"' > "$log"
  # The rest: what links the host's public API and, mostly, its internals.
  pyinc=$(/usr/bin/python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
  pybind=$(/usr/bin/python3 -c 'import pybind11; print(pybind11.get_include())' 2>/dev/null || echo /usr/include)
  { ls tools/*/*.cc tools/python/binding/*.cc db_bench_ext/*.cc examples/*/*.cc \
      tests/*.cc tests/tools/*.cc tests/fuzz/*.cc; } 2>/dev/null |
    xargs -P "$jobs" -I{} sh -c ''"$cxx"' -std='"$std"' -fsyntax-only -I. -Iinclude \
      -isystem "'"$tree"'" -isystem "'"$tree"'/include" -isystem "'"$pyinc"'" \
      -isystem "'"$pybind"'" -DROCKSDB_PLATFORM_POSIX -DROCKSDB_LIB_IO_POSIX \
      -DOS_LINUX -DNDEBUG -DRH_SOURCE_DIR=\"/\" -DRH_FUZZ_SEEDS_DIR=\"/\" \
      {} 2>&1 || echo "FAILED {}"' >> "$log"
  if grep -q "^FAILED" "$log"; then
    echo "$major.$minor.$patch ($tree, $std): FAILED"
    grep -E "error|FAILED" "$log" | head -20
    failed=1
  else
    echo "$major.$minor.$patch ($tree, $std): compiles"
  fi
  rm -f "$log"
done
exit $failed
