#!/usr/bin/env bash
# Builds (installing what is missing) and runs the whole test suite with CTest.
#
#   scripts/test.sh [--sanitize]     the sanitizer build runs the same tests under ASan + UBSan
set -euo pipefail
cd "$(dirname "$0")/.."
ARENA_TEST_TOOLS=1 scripts/setup.sh "$@"  # with clang-format and dpkg-dev for the format and package tests
scripts/setup-browser.sh  # Chromium, Node.js and playwright-core for tests/browser only
build=build
[ "${1:-}" = "--sanitize" ] && build=build-asan
ctest --test-dir "$build" --output-on-failure -j"$(nproc)"
