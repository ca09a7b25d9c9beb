#!/usr/bin/env bash
# The whole suite against the second host: RocksDB 9.11.2 built from
# source as production hosts are (release, static, RTTI, plugin in tree;
# tools/build_host.sh builds it into .deps/ once). Our suites link the
# host's librocksdb.a, which holds our code compiled by RocksDB's own build,
# and the shell tests run the host's db_bench, ldb and sst_dump, which know
# RobinHoodTable with nothing preloaded. Build tree: build-host/.
# Extra arguments go to ctest (e.g. -R table_test).
# RH_HOST_SOURCE=TREE: the same against another RocksDB source tree
# (tools/build_host.sh), in build-host-<its version>/.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/build_host.sh
prefix=$(tools/build_host.sh --print)
if [ -n "${RH_HOST_SOURCE:-}" ]; then
  source_dir=$(cd "$RH_HOST_SOURCE" && pwd)
  build=build-host-$(basename "$(dirname "$prefix")" | sed 's/^rocksdb-//')
else
  source_dir=$(pwd)/.deps/rocksdb-9.11.2/src
  build=build-host
fi
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DRocksDB_DIR="$prefix/lib/cmake/rocksdb" \
  -DROCKSDB_SOURCE_DIR="$source_dir" \
  -DRH_HOST_TOOLS_DIR="$prefix/bin" >/dev/null
cmake --build "$build" -j"$(nproc)"
ctest --test-dir "$build" --output-on-failure -j2 "$@"
