#!/usr/bin/env bash
# What this repository's `npm run demo` and `npm test` need on the machine, checked before they
# start (and by .ci/run before `npm ci`): Node.js 22 or newer; Java 17+ and Maven for the local
# Kafka broker (not when KAFKA_BROKERS names a cluster); the RocksDB library and headers and a C++
# toolchain for the @nest-streams/rocksdb addon; for `test`, Chromium (the cluster page's browser
# test) and curl (the README's Getting started runs as written). On Debian or Ubuntu, as root or
# with passwordless sudo, it installs what is missing with apt-get; otherwise it stops at once,
# printing the one command to run. When the addon was built without RocksDB (npm's install fell
# back) and RocksDB is there now, it rebuilds it.
#
# usage: tools/prerequisites/prerequisites.sh demo|test
set -euo pipefail
cd "$(dirname "$0")/../.."

mode="${1:-test}"
case "$mode" in
  demo | test) ;;
  *)
    echo "usage: $0 demo|test" >&2
    exit 2
    ;;
esac

say() { echo "[prerequisites] $*" >&2; }

# Node.js: npm runs this script, so some node is there; Debian's own is older than 22.
node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$node_major" -lt 22 ]; then
  say "Node.js 22 or newer is needed (this is $(node -v 2>/dev/null || echo 'no node')). Run:"
  echo '  npm install --prefix ~/.cache/nest-streams/node24 node@24 && export PATH="$HOME/.cache/nest-streams/node24/node_modules/.bin:$PATH"' >&2
  exit 1
fi

packages=()   # Debian package names of what is missing
missing=()    # the same, in words, for machines without apt-get
if [ -z "${KAFKA_BROKERS:-}" ]; then
  java_major=0
  if command -v java >/dev/null 2>&1; then
    java_major=$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)
  fi
  if [ "${java_major:-0}" -lt 17 ]; then
    packages+=(java17)
    missing+=("Java 17 or newer")
  fi
  if ! command -v mvn >/dev/null 2>&1; then
    packages+=(maven)
    missing+=("Maven")
  fi
fi
has_rocksdb() { [ -f /usr/include/rocksdb/db.h ] || pkg-config --exists rocksdb 2>/dev/null; }
if ! has_rocksdb; then
  packages+=(librocksdb-dev)
  missing+=("the RocksDB library and headers")
fi
if ! command -v pkg-config >/dev/null 2>&1; then
  packages+=(pkg-config)
  missing+=("pkg-config")
fi
if ! { command -v c++ >/dev/null 2>&1 && command -v make >/dev/null 2>&1; }; then
  packages+=(build-essential)
  missing+=("a C++ compiler and make")
fi
if ! command -v python3 >/dev/null 2>&1; then # node-gyp runs gyp with it
  packages+=(python3)
  missing+=("Python 3")
fi
if [ "$mode" = test ] && [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  packages+=(chromium)
  missing+=("Chromium (or set CHROMIUM_PATH)")
fi
if [ "$mode" = test ] && ! command -v curl >/dev/null 2>&1; then # the README's Getting started
  packages+=(curl)
  missing+=("curl")
fi

# The JDK package: 17 where the distribution has it, else its default JDK (21 or newer).
java_package() {
  if apt-cache show openjdk-17-jdk-headless >/dev/null 2>&1 || ! apt-cache show default-jdk-headless >/dev/null 2>&1; then
    echo openjdk-17-jdk-headless
  else
    echo default-jdk-headless
  fi
}
debian_packages() {
  local out=() p
  for p in "${packages[@]}"; do
    if [ "$p" = java17 ]; then out+=("$(java_package)"); else out+=("$p"); fi
  done
  echo "${out[*]}"
}

if [ "${#packages[@]}" -gt 0 ]; then
  say "missing: $(IFS=,; echo "${missing[*]}" | sed 's/,/, /g')"
  if ! command -v apt-get >/dev/null 2>&1; then
    say "install them, e.g. on macOS:"
    echo "  brew install openjdk@17 maven rocksdb pkg-config && brew install --cask chromium" >&2
    exit 1
  fi
  if [ "$(id -u)" = 0 ]; then
    sudo=()
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo=(sudo)
  else
    say "run this, then the same npm command again:"
    echo "  sudo apt-get update && sudo apt-get install -y $(debian_packages)" >&2
    exit 1
  fi
  "${sudo[@]}" apt-get update -qq
  list=$(debian_packages)
  say "installing $list with apt-get"
  # shellcheck disable=SC2086 # one word per package
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $list >/dev/null
fi

# The addon builds at `npm ci`; built before RocksDB was there, it fell back. Build it now.
addon=libs/rocksdb/build
if [ -d node_modules ] && [ -f "$addon/install-status.json" ] && [ ! -f "$addon/Release/nest_streams_rocksdb.node" ] && has_rocksdb; then
  say "the RocksDB addon was built without RocksDB: npm rebuild @nest-streams/rocksdb"
  npm rebuild @nest-streams/rocksdb >/dev/null
fi
