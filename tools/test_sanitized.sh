#!/usr/bin/env bash
# tools/test.sh's suite built with AddressSanitizer and UBSan
# (-DRH_SANITIZE=ON, the system's gcc) into build-asan/, run under ctest.
# Only our code is instrumented; it links with the uninstrumented
# librocksdb.so. The suite includes the fuzz regressions and seeds
# (fuzz_regressions, fuzz_seeds). Extra arguments go to ctest.
# RH_BUILD_TARGETS (space-separated) builds only those targets, for a run
# of a few suites (CI's).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
# Ninja: given several targets it builds them side by side, where make
# (CMake's top-level Makefile is not parallel) builds them one after
# another, each a single test file on one core. A build folder make
# configured is started again.
if [ -f build-asan/CMakeCache.txt ] &&
   ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' build-asan/CMakeCache.txt; then
  rm -rf build-asan
fi
# -O1 and line tables only: what the sanitizers' reports need, in half the
# compile time of -O2 -g (the suites' test files take a minute or two each
# under ASan at -O2).
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRH_SANITIZE=ON \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
  >/dev/null
if [[ -n "${RH_BUILD_TARGETS:-}" ]]; then
  # shellcheck disable=SC2086
  cmake --build build-asan -j2 --target $RH_BUILD_TARGETS
else
  cmake --build build-asan -j2
fi
# Any report fails the test that caused it, with a stack.
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# Excluded: db_bench_smoke_test LD_PRELOADs our library into the system's
# db_bench, and an instrumented library can only be loaded into a program
# that loads the ASan runtime first ("ASan runtime does not come first").
ctest --test-dir build-asan --output-on-failure -j2 \
  -E '^db_bench_smoke_test$' "$@"
