#!/usr/bin/env bash
# Records the replays the rules library is checked against (tests/library/CMakeLists.txt, the
# library_replays fixture): for every game of `referee games`, a league of the greedy and the
# random sample bot, DEALS duplicate deals (two matches each), into OUT/<game>/replays/.
# ARENA_LIBRARY_DEALS in the environment plays that many instead (more replays for the checks:
# ARENA_LIBRARY_DEALS=1000 ctest --test-dir build -R library).
# Usage: record_replays.sh REFEREE GREEDY_BOT RANDOM_BOT OUT DEALS
set -euo pipefail
referee=$1 greedy=$2 random=$3 out=$4 deals=${ARENA_LIBRARY_DEALS:-$5}
rm -rf "$out"
mkdir -p "$out"
games=$("$referee" games | awk '{print $1}')
[ -n "$games" ] || { echo "record_replays.sh: \`referee games\` listed no game" >&2; exit 1; }
for game in $games; do
  "$referee" league --game "$game" --bot "$greedy" --bot "$random" --name greedy --name random \
    --deals "$deals" --seed 30 --sandbox none --reuse -j 2 --rating-interval 0 --out "$out/$game" >/dev/null
  n=$(find "$out/$game/replays" -name '*.jsonl' | wc -l)
  [ "$n" -eq $((deals * 2)) ] || { echo "record_replays.sh: $game: $n replays, expected $((deals * 2))" >&2; exit 1; }
done
