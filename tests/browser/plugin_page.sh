#!/usr/bin/env bash
# The page of a game without a web module, for run.sh's GENERIC_PAGE (tests/browser/CMakeLists.txt):
#
#   plugin_page.sh REFEREE_PLUS RANDOM_BOT OUT_DIR
#
# Plays a Countdown match (the test game of tests/games/plugin) with the referee built with it,
# and writes OUT_DIR/countdown.html beside its replay OUT_DIR/countdown.jsonl.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 REFEREE_PLUS RANDOM_BOT OUT_DIR" >&2; exit 2; }
referee=$1 bot=$2 out=$3
mkdir -p "$out"
"$referee" play --game countdown --bot "$bot" --bot "$bot" --bot "$bot" --seed 8 --time-scale 10 \
  --out "$out/logs" --replay "$out/countdown.jsonl" >/dev/null
"$referee" html "$out/countdown.jsonl" -o "$out/countdown.html"
