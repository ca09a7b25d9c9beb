#!/usr/bin/env bash
# The main job: sets up what is missing, builds, and runs the side-by-side
# benchmark (db_bench_ext) on its built-in default data set, or the demo
# while the benchmark is not built. Extra arguments go to the program.
#
#   tools/main.sh --stock [ARGS]   the same comparison through RocksDB's own
#                                  db_bench instead (CuckooTable's setup, 1M
#                                  keys by default; stock_db_bench.sh ARGS)
set -euo pipefail
cd "$(dirname "$0")/.."
tools/build.sh
if [ "${1:-}" = "--stock" ]; then
  shift
  exec db_bench_ext/stock_db_bench.sh --num=1000000 "$@"
fi
if [ -x build/db_bench_ext ]; then
  exec build/db_bench_ext "$@"
fi
exec build/rh_demo "$@"
