#!/usr/bin/env bash
# Builds (installing what is missing) and runs the whole test suite with CTest.
#
#   scripts/test.sh [--sanitize]     the sanitizer build runs the C++ tests under ASan + UBSan
#
# The sanitizer pass looks for memory errors in the referee's C++ code: the checks that drive no
# C++ of their own (the browser tests: JavaScript in Chromium against pages the C++ tests also
# write and check) run once, in the normal build, as the format, package and Python checks do.
set -euo pipefail
cd "$(dirname "$0")/.."
ARENA_TEST_TOOLS=1 scripts/setup.sh "$@"  # with clang-format and dpkg-dev for the format and package tests
build=build
skip=()
jobs=$(nproc)
if [ "${1:-}" = "--sanitize" ]; then
  build=build-asan
  skip=(--label-exclude browser)
  # One test more than cores: a sanitized test waits on its bots (started, deciding, timing out)
  # for much of its time, and nothing else fills a core meanwhile.
  jobs=$((jobs + 1))
else
  scripts/setup-browser.sh  # Chromium, Node.js and playwright-core for tests/browser only
fi
ctest --test-dir "$build" --output-on-failure -j"$jobs" "${skip[@]}"
