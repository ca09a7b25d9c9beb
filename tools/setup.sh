#!/usr/bin/env bash
# Installs what the project needs on Debian 12 and fetches RocksDB's source
# of exactly the installed librocksdb-dev version (for its internal headers)
# into .deps/rocksdb-src. Idempotent: a second run changes nothing.
# Honours ROCKSDB_SOURCE_DIR: a RocksDB source tree to use instead.
# --fuzz: also what tools/fuzz.sh needs.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake ninja-build binutils dpkg-dev librocksdb-dev rocksdb-tools
          libgflags-dev libsnappy-dev libgtest-dev libgmock-dev
          python3 python3-matplotlib pkg-config
          python3-pybind11 pybind11-dev python3-pytest python3-dask
          python3-distributed)
# tools/fuzz.sh: clang and libFuzzer's runtime (with the sanitizers').
if [ "${1:-}" = "--fuzz" ]; then packages+=(clang libclang-rt-14-dev); fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ -n "${ROCKSDB_SOURCE_DIR:-}" ]; then
  [ -f "$ROCKSDB_SOURCE_DIR/table/table_reader.h" ] || {
    echo "setup: ROCKSDB_SOURCE_DIR=$ROCKSDB_SOURCE_DIR has no table/table_reader.h" >&2
    exit 1
  }
  echo "setup: RocksDB source: $ROCKSDB_SOURCE_DIR"
  exit 0
fi

version=$(dpkg-query -W -f='${Version}' librocksdb-dev)
dest=.deps/rocksdb-src
stamp=.deps/rocksdb-src.version
if [ -f "$dest/table/table_reader.h" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$version" ]; then
  echo "setup: RocksDB source $version: $dest"
  exit 0
fi

# apt-get source needs a deb-src entry for this system's suite.
if ! grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  . /etc/os-release
  $sudo tee /etc/apt/sources.list.d/robinhood-deb-src.sources >/dev/null <<SRC
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: ${VERSION_CODENAME} ${VERSION_CODENAME}-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  $sudo apt-get update -qq
fi

rm -rf "$dest" .deps/fetch
mkdir -p .deps/fetch
(cd .deps/fetch && apt-get source -qq --download-only "rocksdb=$version" 2>&1 |
   grep -v "unsandboxed" || true)
dsc=$(ls .deps/fetch/rocksdb_*.dsc)
# dpkg-source applies Debian's patches: the tree the library was built from.
dpkg-source -q -x --no-check "$dsc" "$dest" >/dev/null
rm -rf .deps/fetch .deps/rocksdb_*.orig.tar.*
echo "$version" > "$stamp"
echo "setup: RocksDB source $version: $dest"
