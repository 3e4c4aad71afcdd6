#!/usr/bin/env bash
# One bot (a starter kit of sample_bots/starter/, or a sample bot: tests/sample_bots) through
# `referee validate`, in every game the referee
# lists (`referee games`, so a game added later is covered without a change here), at every seat
# count (--seats all), against the sample bots, one game per opponent and seat.
#   run.sh REFEREE OUT BOT_COMMAND [GAME VALIDATE_ARGS...]
# With GAME, only that game, with the extra validate arguments (the plug-in referee's Countdown,
# a game the kits do not know, with --opponent). Exits 77 (a CTest skip) when the kit's program
# (the command's first word: node, python3, ...) is not installed.
set -uo pipefail
referee=$1 out=$2 bot=$3
shift 3
program=${bot%% *}
if ! command -v "$program" >/dev/null; then
  echo "SKIP: '$program' is not installed, so the kit '$bot' cannot run (node: Debian's nodejs, which scripts/test.sh installs through scripts/setup-browser.sh)"
  exit 77
fi
if [ $# -gt 0 ]; then
  games=("$1")
  shift
else
  mapfile -t games < <("$referee" games | awk '{print $1}')
fi
[ ${#games[@]} -gt 0 ] || { echo "FAIL: '$referee games' listed no game"; exit 1; }
rm -rf "$out"
mkdir -p "$out"
failed=()
for game in "${games[@]}"; do
  # --time-scale: a loaded CI machine must not turn a slow start into a timeout; the kits decide
  # in about a millisecond (validate's decision times show it). VALIDATE_TIME_SCALE in the
  # environment gives a bot that searches (search_bot, tests/library) more.
  "$referee" validate "$bot" --game "$game" --seats all --games 1 --seed 1 --time-scale "${VALIDATE_TIME_SCALE:-5}" \
    --out "$out/$game" "$@" 2>"$out/$game.report.txt"
  code=$?
  echo "$game: $(grep -m 1 "^replays:" "$out/$game.report.txt"); $(tail -n 1 "$out/$game.report.txt") (exit $code)"
  if [ $code -ne 0 ]; then
    failed+=("$game")
    sed 's/^/  | /' "$out/$game.report.txt"
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "FAIL: '$bot' did not pass referee validate in: ${failed[*]}"
  exit 1
fi
echo "PASS: '$bot' in ${games[*]}"
