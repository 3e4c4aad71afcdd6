#!/usr/bin/env bash
# Installs whatever is missing (Debian bookworm packages, non-interactively), then configures and
# builds. Idempotent: a second run installs nothing and rebuilds only what changed.
#
#   scripts/setup.sh [--sanitize]     build/ (or build-asan/ with ASan + UBSan)
#   scripts/setup.sh --packages-only  installs what is missing, builds nothing
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake ninja-build g++ lld python3 libboost-dev libboost-filesystem-dev nlohmann-json3-dev
          libcli11-dev catch2 libfmt-dev libseccomp-dev libsodium-dev pkgconf
          libsqlite3-dev libsqlitecpp-dev libpqxx-dev libzstd-dev)
packages+=(zlib1g-dev)  # the viewer page's compressed match data (referee/render/page_data.cpp)
packages+=(libarchive-dev)  # the ladder's submissions: folders and tar archives (referee/ladder/archive.cpp)
packages+=(python3-dev pybind11-dev python3-pybind11)  # the rules library's Python module (library/python)
# Test-only tools (scripts/test.sh sets ARENA_TEST_TOOLS=1): the format check, the package test and
# the Slurm test (tests/slurm: its own single-node cluster; installing starts no daemon it uses), the
# ladder's store tests (tests/ladder: a private PostgreSQL cluster; the package's own stays down).
[ "${ARENA_TEST_TOOLS:-0}" = 1 ] && packages+=(clang-format dpkg-dev python3-jsonschema
                                               slurmctld slurmd slurm-client munge procps postgresql sqlite3)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "setup: need root or sudo to install ${missing[*]}" >&2; exit 1; }
    # -n: never wait for a password (the set-up is non-interactive); fails with a message instead.
    sudo="sudo -n"
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

[ "${1:-}" = "--packages-only" ] && exit 0

build=build
# Warnings are errors in development and CI. -g1 (line tables: backtraces and sanitizer reports
# name files and lines) builds a third faster than -g; configure without this script for -g.
normal=(-DARENA_WERROR=ON "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG")
flags=("${normal[@]}")
if [ "${1:-}" = "--sanitize" ]; then
  build=build-asan
  # Debug keeps the asserts. -O1: at -O0 the build took 100 CPU seconds less and the sanitized
  # suite 94 more (2-core CI machine).
  # -g1 (line tables only) is all a sanitizer's report needs, and builds faster than -g.
  flags+=(-DARENA_SANITIZE=ON -DARENA_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-g1 -O1")
  # A bot is never sanitized: the sanitizer build copies the normal build's (ARENA_BOTS_FROM in
  # CMakeLists.txt), built or brought up to date here first, under build/'s lock (below: .ci/run
  # runs this beside scripts/test.sh, whose set-up builds build/ too).
  mkdir -p build
  (
    flock 8
    [ -f build/build.ninja ] || cmake -S . -B build -G Ninja "${normal[@]}" >/dev/null
    cmake --build build --target bot_programs -- -j"$(nproc)"
  ) 8>build/.setup.lock
  flags+=("-DARENA_BOTS_FROM=$PWD/build")
fi
# One build of a folder at a time (a second waits): two at once would race on its files.
mkdir -p "$build"
exec 9>"$build/.setup.lock"
flock 9
# Configuring again is cheap and keeps the cache in step with this script's flags.
cmake -S . -B "$build" -G Ninja "${flags[@]}" >/dev/null
cmake --build "$build" -- -j"$(nproc)"
