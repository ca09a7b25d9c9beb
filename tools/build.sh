#!/usr/bin/env bash
# Sets up (tools/setup.sh) and builds into build/. Used by main.sh and test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)"
