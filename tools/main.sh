#!/usr/bin/env bash
# The main job: sets up what is missing, builds, and runs the side-by-side
# benchmark (db_bench_ext) on its built-in default data set, or the demo
# while the benchmark is not built. Extra arguments go to the program.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/build.sh
if [ -x build/db_bench_ext ]; then
  exec build/db_bench_ext "$@"
fi
exec build/rh_demo "$@"
