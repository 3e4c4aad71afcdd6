#!/usr/bin/env bash
# Builds what is needed (installing missing packages), then plays one real match of Stellar
# between the greedy C++ sample bot and the Python random bot. Extra arguments go to
# `referee play` (e.g. --seed 7, --verbose).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
status=0
build/referee/cli/referee play --game stellar \
  --bot build/sample_bots/greedy_bot \
  --bot "python3 sample_bots/python/random_bot.py" "$@" || status=$?
# 0 = finished, 1 = a bot faulted (the summary above says which); anything else is an error.
[ "$status" -le 1 ] || exit "$status"
