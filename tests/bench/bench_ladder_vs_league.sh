#!/usr/bin/env bash
# The ladder's overhead against a league on the same bots (a benchmark, not a test: it prints
# figures and never fails on speed). Both play N two-leg Stellar matches of the C++ random bot
# against itself at -j 2 in the same sandbox tier: the league with `referee league`, the ladder
# with `referee ladder run` (its database, matchmaking, leases, reports and the coordinator's
# re-simulation of every replay included; the versions' builds are done in a first, untimed run).
#
#   tests/bench/bench_ladder_vs_league.sh [MATCHES] [TIER]      (default 200, strict)
#
# Run from the project root after a build (build/). Scratch folders go to logs/bench-ladder-*.
set -euo pipefail
cd "$(dirname "$0")/../.."
matches=${1:-200}
tier=${2:-strict}
referee=$PWD/build/referee/cli/referee
work=$PWD/logs/bench-ladder-$$
mkdir -p "$work/bot"
trap 'rm -rf "$work"' EXIT
cp sample_bots/cpp/random_bot.cpp sample_bots/cpp/*.hpp "$work/bot/"
echo '{"language": "cpp", "main": "random_bot.cpp"}' > "$work/bot/bot.json"
now() { date +%s.%N; }

# The league: the same program, built by the ladder's first run below (so both play one binary).
$referee ladder init "$work/ladder" --game stellar --sandbox "$tier" --check-games 0 --placement-games 0 >/dev/null
$referee ladder submit "$work/ladder" "$work/bot" --name a --author bench >/dev/null
$referee ladder submit "$work/ladder" "$work/bot" --name b --author bench >/dev/null
$referee ladder run "$work/ladder" -j 2 --stop-after 1 >/dev/null 2>&1  # builds, and one match
bot=$(ls -d "$work"/ladder/cache/w1/versions/*/ | head -1)bot

start=$(now)
$referee league --game stellar --bot "$bot" --name a --bot "$bot" --name b --deals "$matches" -j 2 \
  --sandbox "$tier" --out "$work/league" --rating-interval 0 >/dev/null 2>&1
league=$(awk -v a="$start" -v b="$(now)" 'BEGIN { print b - a }')

start=$(now)
$referee ladder run "$work/ladder" -j 2 --stop-after $((matches + 1)) >/dev/null 2>&1
ladder=$(awk -v a="$start" -v b="$(now)" 'BEGIN { print b - a }')

printf 'machine: %s, %s cores; tier %s; %d matches of 2 legs (Stellar, random_bot vs itself), -j 2\n' \
  "$(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)" "$(nproc)" "$tier" "$matches"
awk -v n="$matches" -v l="$league" -v d="$ladder" 'BEGIN {
  printf "league: %6.2f s  %6.1f matches/s\n", l, n / l
  printf "ladder: %6.2f s  %6.1f matches/s  (overhead %+.1f%%)\n", d, n / d, (d / l - 1) * 100 }'
