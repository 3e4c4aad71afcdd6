#!/usr/bin/env bash
# Fails, naming the files, when a C++ file git tracks is not formatted by the project's
# .clang-format (Debian's clang-format 14). CTest runs it as the `format` test; `scripts/check-format.sh
# --fix` formats them in place.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "FAIL: clang-format is missing (Debian package clang-format; scripts/test.sh installs it)" >&2; exit 1; }
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' 2>/dev/null || find referee protocol sample_bots tests -name '*.cpp' -o -name '*.hpp')
if [ "${1:-}" = "--fix" ]; then
  clang-format -i "${files[@]}"
  exit 0
fi
# One clang-format per batch of files, not per file (process start-up was most of the time); each
# unformatted place is reported as "FILE:LINE:COL: error: ...", and the files are read from that.
status=0
out=$(printf '%s\0' "${files[@]}" | xargs -0 -n 64 -P "$(nproc)" clang-format --dry-run --Werror 2>&1) || status=$?
mapfile -t bad < <(sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: .*/\1/p' <<<"$out" | sort -u)
if [ "$status" -ne 0 ] && [ ${#bad[@]} -eq 0 ]; then
  echo "FAIL: clang-format failed (exit $status) without naming a file:" >&2
  echo "$out" | head -20 >&2
  exit 1
fi
if [ ${#bad[@]} -gt 0 ]; then
  echo "FAIL: ${#bad[@]} file(s) not formatted by .clang-format (scripts/check-format.sh --fix formats them):" >&2
  printf '  %s\n' "${bad[@]}" >&2
  exit 1
fi
echo "format: all ${#files[@]} C++ files follow .clang-format"
