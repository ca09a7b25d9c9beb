#!/usr/bin/env bash
# The test command: sets up what is missing, builds, runs every test.
# Extra arguments go to ctest (e.g. -R table_test).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/build.sh
ctest --test-dir build --output-on-failure -j2 "$@"
