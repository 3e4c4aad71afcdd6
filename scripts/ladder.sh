#!/usr/bin/env bash
# A ladder on this machine, as a demo (docs/ladder.md): builds what is needed (scripts/setup.sh,
# and Node.js for the JavaScript kit), makes logs/ladder-demo with the three starter kits (C++,
# Python, JavaScript), the greedy C++ bot and the random Python bot, runs 40 matches with two
# workers and prints the leaderboard. Run it again to play 40 more. Extra arguments go to
# `referee ladder run` (e.g. --stop-after 100).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
if ! command -v node >/dev/null; then
  echo "ladder: installing nodejs for the JavaScript starter kit" >&2
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo -n"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends nodejs >/dev/null
fi
referee=build/referee/cli/referee
dir=logs/ladder-demo
if [ ! -f "$dir/ladder.json" ]; then
  $referee ladder init "$dir" --game stellar --placement-games 6
  subs=$dir/submissions
  mkdir -p "$subs/greedy" "$subs/random"
  cp sample_bots/cpp/*.hpp sample_bots/cpp/greedy_bot.cpp "$subs/greedy/"
  echo '{"language": "cpp", "main": "greedy_bot.cpp"}' > "$subs/greedy/bot.json"
  cp sample_bots/python/random_bot.py "$subs/random/"
  echo '{"language": "python", "main": "random_bot.py"}' > "$subs/random/bot.json"
  for kit in cpp python javascript; do
    $referee ladder submit "$dir" "sample_bots/starter/$kit" --name "starter-$kit" --author demo
  done
  $referee ladder submit "$dir" "$subs/greedy" --name greedy --author demo
  $referee ladder submit "$dir" "$subs/random" --name random --author demo
fi
counted=$($referee ladder status "$dir" | sed -n 's/^matches: .*, \([0-9]*\) counted$/\1/p')
$referee ladder run "$dir" -j 2 --stop-after $((${counted:-0} + 40)) "$@"
