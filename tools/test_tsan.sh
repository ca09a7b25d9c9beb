#!/usr/bin/env bash
# The concurrency stress test (tests/stress_test.cc) built with
# ThreadSanitizer into build-tsan/ and run under it. Only our code and the
# test are instrumented: librocksdb.so is Debian's, so tests/tsan.supp
# suppresses the reports TSan makes up inside it (each entry says why).
# RH_STRESS_SECONDS sets each run's length (default here 20: under TSan
# the threads run several times slower, so they do fewer operations).
# Extra arguments go to the test binary (e.g. --gtest_filter=*pread*).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
# A separate build tree with the flags on the command line: nothing in
# CMakeLists.txt changes, and no other build tree is touched.
flags="-fsanitize=thread -fno-omit-frame-pointer"
# -O1 and line tables: what TSan's reports need (file and line of both
# accesses), in less compile time than -O2 -g.
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" \
  -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=thread" >/dev/null
cmake --build build-tsan -j2 --target stress_test
# Any report not suppressed fails the run (exit code 66), with both stacks.
# ignore_noninstrumented_modules: libc calls made from librocksdb.so are not
# checked, as its own loads and stores cannot be (see tests/tsan.supp).
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1 exitcode=66 second_deadlock_stack=1} ignore_noninstrumented_modules=1 suppressions=$PWD/tests/tsan.supp"
export RH_STRESS_SECONDS="${RH_STRESS_SECONDS:-20}"
exec build-tsan/stress_test "$@"
