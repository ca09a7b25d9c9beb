#!/usr/bin/env bash
# Builds a second RocksDB host the way production hosts are built: RocksDB
# 9.11.2 from Debian's source package (unstable), a release (NDEBUG, -O3,
# PORTABLE) built by clang in unity batches, static library only, RTTI on,
# snappy, lz4 and zstd, db_bench, db_stress, ldb and sst_dump, with this
# repository in tree as plugin/robinhood. Installs it into
# .deps/rocksdb-9.11.2/install.
# Idempotent: the source is fetched once and the build folder kept, so a
# second run only recompiles what changed in our sources (a few seconds
# when nothing did).
#
#   tools/build_host.sh            fetch if needed, build, install
#   tools/build_host.sh --print    print the install prefix only
#   RH_HOST_SOURCE=TREE tools/build_host.sh
#                                  the same from another RocksDB source
#                                  tree (a release's checkout: how newer
#                                  releases are verified by hand), into
#                                  .deps/rocksdb-<its version>/install;
#                                  links this repository into TREE as
#                                  plugin/robinhood
#   RH_HOST_SANITIZER=address|thread tools/build_host.sh
#                                  db_stress and ldb only, built with
#                                  ASan or TSan (-O1 -g, NDEBUG as the
#                                  release), into .deps/rocksdb-<version>-
#                                  asan or -tsan/install: tools/stress.sh
#                                  and tools/crash_test.sh run them when
#                                  the variable is set
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
version=9.11.2
debian_version=9.11.2-1
tree=${RH_HOST_SOURCE:-}
if [ -n "$tree" ]; then
  tree=$(cd "$tree" && pwd)
  header=$tree/include/rocksdb/version.h
  [ -f "$header" ] || { echo "build_host: $tree has no include/rocksdb/version.h" >&2; exit 2; }
  v() { sed -nE "s/^#define ROCKSDB_$1 ([0-9]+)$/\1/p" "$header"; }
  version=$(v MAJOR).$(v MINOR).$(v PATCH)
fi
sanitizer=${RH_HOST_SANITIZER:-}
case "$sanitizer" in
  "") suffix="" ;;
  address) suffix=-asan ;;
  thread) suffix=-tsan ;;
  *) echo "build_host: RH_HOST_SANITIZER must be address or thread (got $sanitizer)" >&2; exit 2 ;;
esac
base=.deps/rocksdb-$version
prefix=$root/$base$suffix/install
if [ "${1:-}" = "--print" ]; then echo "$prefix"; exit 0; fi

tools/setup.sh >/dev/null
packages=(clang ninja-build libgflags-dev libsnappy-dev liblz4-dev libzstd-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
if [ ${#missing[@]} -gt 0 ]; then
  echo "build_host: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# --- The source: Debian's package of $version, with Debian's patches ---
src=$base/src
if [ -n "$tree" ]; then
  src=$tree
elif [ ! -f "$src/.robinhood-patched" ]; then
  rm -rf "$src" "$base/fetch"
  mkdir -p "$base/fetch"
  list=/etc/apt/sources.list.d/robinhood-unstable-src.sources
  $sudo tee "$list" >/dev/null <<SRC
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: unstable
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  # The entry is temporary: whatever happens, remove it and forget its lists.
  trap '$sudo rm -f "$list"; $sudo apt-get update -qq || true' EXIT
  $sudo apt-get update -qq
  # Some mirrors serve the tarballs but not the .dsc: dpkg-source needs the
  # .dsc, so fall back to unpacking and patching by hand.
  (cd "$base/fetch" && apt-get source -qq --download-only "rocksdb=$debian_version" 2>&1 |
     grep -v -e "unsandboxed" -e "\.dsc  404" -e "Failed to fetch some archives" || true)
  $sudo rm -f "$list"
  $sudo apt-get update -qq || true
  trap - EXIT
  orig=$(ls "$base"/fetch/rocksdb_"$version".orig.tar.* 2>/dev/null | head -1)
  deb=$(ls "$base"/fetch/rocksdb_"$debian_version".debian.tar.* 2>/dev/null | head -1)
  [ -n "$orig" ] && [ -n "$deb" ] || {
    echo "build_host: could not fetch Debian's rocksdb $debian_version source" >&2
    exit 1
  }
  mkdir -p "$base/unpack"
  tar -xf "$orig" -C "$base/unpack"
  mv "$base"/unpack/* "$src"
  tar -xf "$deb" -C "$src"
  while read -r patch; do
    [ -n "$patch" ] && [ "${patch#\#}" = "$patch" ] || continue
    patch -d "$src" -p1 -s < "$src/debian/patches/$patch"
  done < "$src/debian/patches/series"
  rm -rf "$base/fetch" "$base/unpack"
  touch "$src/.robinhood-patched"
fi

# --- In tree: this repository is the plugin folder ---
mkdir -p "$src/plugin"
ln -sfn "$root" "$src/plugin/robinhood"

# --- Release build ---
build=$base$suffix/build
# clang: RocksDB's sources take it a fifth less time to compile than gcc
# (docs/reliability.md), and a host built by another compiler than the
# first host's checks that our code leans on neither. A unity build, in
# batches of 16 files (tools/host_unity.cmake): the library in well under
# half the time, and our sources checked to compile batched, as some
# users' builds take them.
config=(-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++
  -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=16
  -DCMAKE_PROJECT_rocksdb_INCLUDE="$root/tools/host_unity.cmake"
  -DCMAKE_BUILD_TYPE=Release -DPORTABLE=1
  -DROCKSDB_BUILD_SHARED=OFF -DUSE_RTTI=ON
  -DWITH_SNAPPY=ON -DWITH_LZ4=ON -DWITH_ZLIB=OFF -DWITH_ZSTD=ON -DWITH_BZ2=OFF
  -DWITH_GFLAGS=ON -DWITH_LIBURING=OFF -DWITH_JEMALLOC=OFF
  -DWITH_TESTS=OFF -DWITH_ALL_TESTS=OFF -DWITH_BENCHMARK_TOOLS=ON
  -DWITH_CORE_TOOLS=ON -DWITH_TOOLS=ON -DWITH_TRACE_TOOLS=OFF
  -DWITH_EXAMPLES=OFF -DWITH_JNI=OFF
  -DROCKSDB_PLUGINS=robinhood
  -DCMAKE_INSTALL_PREFIX="$prefix")
# Newer releases' own sources trip warnings clang 14 has that their CI's
# clang does not (11.8: an unused private field in blob_file.h), which
# their -Werror would make errors: not ours to mend. (After RocksDB's
# -Wall, which the release flags follow.)
if [ -n "$tree" ]; then
  config+=("-DCMAKE_CXX_FLAGS_RELEASE=-O3 -DNDEBUG -Wno-unused-private-field")
fi
# A sanitized db_stress: the release's NDEBUG (its code paths, not the
# debug build's checks), at -O1 with symbols for the reports' stacks.
if [ -n "$sanitizer" ]; then
  flag=WITH_ASAN
  [ "$sanitizer" = thread ] && flag=WITH_TSAN
  config+=(-D$flag=ON "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -g -fno-omit-frame-pointer -DNDEBUG"
    "-DCMAKE_C_FLAGS_RELEASE=-O1 -g -DNDEBUG")
fi
stamp=$build/.robinhood-config
# Other arguments may name another compiler, which CMake cannot change in
# a configured folder: start that build again from nothing.
if [ -f "$stamp" ] && [ "$(cat "$stamp")" != "${config[*]}" ]; then
  rm -rf "$build"
fi
# RocksDB's CMake reads the plugin's source list (robinhood.mk) and
# tools/host_unity.cmake when it configures: configure again when either
# changed.
if [ ! -f "$build/build.ninja" ] || [ "$root/robinhood.mk" -nt "$build/build.ninja" ] ||
   [ "$root/tools/host_unity.cmake" -nt "$build/build.ninja" ] ||
   [ "$(cat "$stamp" 2>/dev/null)" != "${config[*]}" ]; then
  cmake -S "$src" -B "$build" -G Ninja "${config[@]}" >/dev/null
  echo "${config[*]}" > "$stamp"
fi
if [ -n "$sanitizer" ]; then
  cmake --build "$build" -j"$(nproc)" --target ldb db_stress
  mkdir -p "$prefix/bin"
  cp -f "$build/tools/ldb" "$build/db_stress_tool/db_stress" "$prefix/bin/"
  echo "build_host: RocksDB $version (db_stress and ldb with $sanitizer sanitizer, plugin in tree): $prefix"
  exit 0
fi
tools=(db_bench sst_dump ldb db_stress)
cmake --build "$build" -j"$(nproc)" --target rocksdb "${tools[@]}"
cmake --install "$build" >/dev/null
mkdir -p "$prefix/bin"
cp -f "$build/db_bench" "$build/tools/sst_dump" "$build/tools/ldb" \
  "$build/db_stress_tool/db_stress" "$prefix/bin/"
echo "build_host: RocksDB $version (release, plugin in tree): $prefix"
