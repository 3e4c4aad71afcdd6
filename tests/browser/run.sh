#!/usr/bin/env bash
# The browser test of the web viewer, as CTest runs it (tests/browser/CMakeLists.txt):
#
#   run.sh REFEREE RANDOM_BOT GREEDY_BOT FAULTY_BOT OUT_DIR [GENERIC_PAGE]
#
# Plays real matches with the built referee and sample bots into OUT_DIR/out (a Stellar match, a
# Stella Quest match with the Dummy, Stellar matches that a faulty bot forfeits with an illegal
# action, a timeout and a malformed line, Interstellar matches (seeds 3 and 1), Stella Quest
# matches with 3 and 4 seats for the layouts, a Stellar match with a bot that writes known lines
# on stderr in some decisions: tests/match/stderr_bot.py), writes their pages with `referee html`, then drives
# them in Chromium (viewer_test.js), which saves its screenshots in OUT_DIR (viewer.png: the
# Stellar match; viewer_test.js's top comment lists them). GENERIC_PAGE, when given, is the page of
# a game without a web module (a referee built with a test game): viewer_test.js checks its
# generic drawing too (its replay: the page's stem with .jsonl when that exists, else the one the
# page embeds). Fails, never skips, when Chromium, Node.js or playwright-core is missing:
# scripts/setup-browser.sh installs them.
set -euo pipefail

if [ $# -ne 5 ] && [ $# -ne 6 ]; then
  echo "usage: $0 REFEREE RANDOM_BOT GREEDY_BOT FAULTY_BOT OUT_DIR [GENERIC_PAGE]" >&2
  exit 2
fi
referee=$1 random_bot=$2 greedy_bot=$3 faulty_bot=$4 out=$5/out
generic=()
if [ $# -eq 6 ]; then
  [ -f "$6" ] || { echo "FAIL: the generic page $6 does not exist" >&2; exit 1; }
  generic=(--generic "$(cd "$(dirname "$6")" && pwd)/$(basename "$6")")
fi
here=$(cd "$(dirname "$0")" && pwd)

missing=()
[ -x /usr/bin/chromium ] || missing+=("/usr/bin/chromium (Debian package chromium)")
command -v node >/dev/null || missing+=("node (Debian package nodejs)")
[ -f "$here/node_modules/playwright-core/package.json" ] || missing+=("$here/node_modules/playwright-core (npm ci)")
if [ ${#missing[@]} -gt 0 ]; then
  printf 'FAIL: missing %s\n' "${missing[@]}" >&2
  echo "FAIL: run scripts/setup-browser.sh (scripts/test.sh runs it) to install them" >&2
  exit 1
fi

rm -rf "$out"
mkdir -p "$out"
cd "$out"

# Generous limits: the sanitizer build runs the bots several times slower.
limits=(--time-scale 10)

play() {  # play EXPECTED_EXIT REPLAY ARGS...
  local expected=$1 replay=$2 status=0
  shift 2
  "$referee" play "${limits[@]}" --out "$out/logs" --replay "$out/$replay" "$@" >"$out/$replay.result.json" \
    2>"$out/$replay.stderr" || status=$?
  if [ "$status" -ne "$expected" ]; then
    echo "FAIL: referee play for $replay exited $status, expected $expected:" >&2
    cat "$out/$replay.stderr" >&2
    exit 1
  fi
}

play 0 stellar.jsonl --game stellar --bot "$greedy_bot" --bot "$random_bot" --seed 11
play 0 stella_quest.jsonl --game stella_quest --bot "$greedy_bot" --bot "$random_bot" --seed 5
play 1 fault.jsonl --game stellar --bot "$faulty_bot illegal --at 5" --bot "$random_bot" --seed 3
# The legal actions of the request a bot got wrong: a timeout (a short decision limit) and a malformed line.
play 1 fault_timeout.jsonl --game stellar --bot "$faulty_bot sleep --at 4" --bot "$random_bot" --seed 3 --decision-ms 200
play 1 fault_malformed.jsonl --game stellar --bot "$faulty_bot garbage --at 4" --bot "$random_bot" --seed 3
# The layouts with more seats (the result table has a column per seat).
play 0 stella_quest3.jsonl --game stella_quest --bot "$greedy_bot" --bot "$random_bot" --bot "$greedy_bot" --seed 6
play 0 stella_quest4.jsonl --game stella_quest --bot "$greedy_bot" --bot "$random_bot" --bot "$greedy_bot" --bot "$random_bot" --seed 7
# A bot's stderr, recorded per decision and shown in the step panel.
play 0 stderr.jsonl --game stellar --bot "$random_bot" --bot "python3 '$here/../match/stderr_bot.py'" --seed 17
# Interstellar's module (viewer_interstellar_checks.js): a match with dice, Cloaks and damage.
play 0 interstellar.jsonl --game interstellar --bot "$greedy_bot" --bot "$random_bot" --seed 3
# Its attack line offers only the reactions the defender can pay for: seed 1 has attacks on a UFO
# whose owner cannot pay for the Cloak.
play 0 interstellar_pay.jsonl --game interstellar --bot "$greedy_bot" --bot "$random_bot" --seed 1

"$referee" html "$out/stellar.jsonl" -o "$out/stellar.html"
"$referee" html "$out/stella_quest.jsonl" --out "$out/stella_quest.html"
"$referee" html "$out/stella_quest3.jsonl" -o "$out/stella_quest3.html"
"$referee" html "$out/stella_quest4.jsonl" -o "$out/stella_quest4.html"
"$referee" html "$out/stderr.jsonl" -o "$out/stderr.html"
"$referee" html "$out/interstellar.jsonl" -o "$out/interstellar.html"
"$referee" html "$out/interstellar_pay.jsonl" -o "$out/interstellar_pay.html"
"$referee" html "$out/fault_timeout.jsonl" -o "$out/fault_timeout.html"
"$referee" html "$out/fault_malformed.jsonl" -o "$out/fault_malformed.html"
# Without -o the page goes beside the replay, with the replay's stem.
"$referee" html "$out/fault.jsonl"
[ -f "$out/fault.html" ] || { echo "FAIL: referee html without -o did not write $out/fault.html" >&2; exit 1; }

exec node "$here/viewer_test.js" --referee "$referee" --dir "$out" --screenshots "$5" "${generic[@]}"
