#!/usr/bin/env bash
# fastchess and the referee side by side, measured alternately in one run (not run by ctest):
#
#   tests/bench/compare_fastchess.sh FASTCHESS_DIR [REFEREE] [RANDOM_BOT] [ROUNDS] [DEALS] [REPEATS]
#
# FASTCHESS_DIR holds a built `fastchess` and its test engine random_mover (built by its own
# Makefile: `make` at the top, then `make -C app tests/mock/engine/random_mover BINARY_PATH=../`).
# REFEREE and RANDOM_BOT default to this build's (build/referee/cli/referee,
# build/sample_bots/random_bot). Each repetition runs, one after another:
#   - fastchess: random_mover against random_mover, tc=10+0.1, -concurrency 2, ROUNDS rounds of
#     2 games (default 100);
#   - referee league, Stellar, random_bot against random_bot, -j2, DEALS deals (both legs;
#     default 500): sandbox none with and without --reuse, and the strict tier with --reuse;
#   - the same four again with each worker and its engines or bots pinned to one CPU (fastchess
#     -use-affinity, league --affinity).
# For each it prints moves (decisions) per second of wall time and the CPU per decision: user +
# system of the whole process tree (GNU time's, which counts every child the tool waited for)
# divided by the moves, counted from fastchess's PGN (UCI notation) and from the league's
# results.jsonl. Run it from the project root on an otherwise quiet machine; the load average is
# printed with each line, as the ratios inside one repetition are what compare. Its folders go
# under $TMPDIR (default /tmp): TMPDIR=/dev/shm keeps the filesystem's cost of creating a replay
# per match out of the comparison (docs/architecture.md, "Against fastchess"). GNU time misses
# the strict tier's bots (they are not the referee's waited-for children): its CPU figure there
# is the referee's and its helpers' only.
set -euo pipefail

fastchess_dir=${1:?usage: compare_fastchess.sh FASTCHESS_DIR [REFEREE] [RANDOM_BOT] [ROUNDS] [DEALS] [REPEATS]}
referee=$(realpath "${2:-build/referee/cli/referee}")
random_bot=$(realpath "${3:-build/sample_bots/random_bot}")
rounds=${4:-100}
deals=${5:-500}
repeats=${6:-2}
fastchess="$fastchess_dir/fastchess"
mover="$fastchess_dir/app/tests/mock/engine/random_mover"
for program in "$fastchess" "$mover" "$referee" "$random_bot"; do
  [[ -x $program ]] || { echo "compare_fastchess.sh: $program is not an executable" >&2; exit 2; }
done
[[ -x /usr/bin/time ]] || { echo "compare_fastchess.sh: needs GNU time (/usr/bin/time)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/compare_fastchess.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Prints one result line: NAME, the moves, and the time file (wall, user, system seconds).
report() {
  python3 - "$1" "$2" "$3" "$(cut -d' ' -f1 /proc/loadavg)" <<'PY'
import sys
name, moves, times, load = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
wall, user, system = (float(x) for x in open(times).read().split()[-3:])
cpu = (user + system) / moves * 1e6 if moves else 0
print(f"{name:34} {moves:8d} moves {wall:7.1f} s {moves / wall:9.0f} moves/s {cpu:7.1f} us CPU/move "
      f"(user {user:.1f} s, sys {system:.1f} s; load {load})")
PY
}

# Moves in a PGN file written with notation=uci.
pgn_moves() {
  python3 - "$1" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
text = re.sub(r"\{[^}]*\}", " ", text)
moves = sum(len(re.findall(r"\b[a-h][1-8][a-h][1-8][qrbn]?\b", line))
            for line in text.splitlines() if not line.startswith("["))
print(moves)
PY
}

# Decisions in a league folder's results.jsonl.
league_moves() {
  python3 - "$1/results.jsonl" <<'PY'
import json, sys
print(sum(len(s.get("decision_ms", [])) for line in open(sys.argv[1]) for s in json.loads(line)["seats"]))
PY
}

run_fastchess() {  # NAME [-use-affinity]
  local out="$work/fastchess-$1"
  mkdir -p "$out"
  (cd "$out" && /usr/bin/time -f "%e %U %S" -o "$out/time" "$fastchess" \
    -engine cmd="$mover" name=a -engine cmd="$mover" name=b -each tc=10+0.1 -rounds "$rounds" -games 2 \
    -concurrency 2 ${2:-} -pgnout file="$out/games.pgn" notation=uci >"$out/log" 2>&1)
  report "fastchess -concurrency 2 ${2:-}" "$(pgn_moves "$out/games.pgn")" "$out/time"
}

run_league() {  # NAME TIER [FLAG...]
  local out="$work/league-$1" tier=$2
  shift 2
  rm -rf "$out"
  /usr/bin/time -f "%e %U %S" -o "$work/time-$tier-$*" "$referee" league --game stellar --bot "$random_bot" \
    --bot "$random_bot" --deals "$deals" -j2 --sandbox "$tier" "$@" --out "$out" >"$work/log" 2>&1
  report "referee league $tier ${*:-(started)}" "$(league_moves "$out")" "$work/time-$tier-$*"
}

echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); load $(cut -d' ' -f1-3 /proc/loadavg)"
for ((r = 1; r <= repeats; ++r)); do
  echo "repetition $r"
  run_fastchess "$r"
  run_league "none-reuse-$r" none --reuse
  run_league "none-$r" none
  run_league "strict-reuse-$r" strict --reuse
  # Each worker and its engines or bots on one CPU (fastchess -use-affinity, league --affinity).
  run_fastchess "$r-affinity" -use-affinity
  run_league "none-reuse-affinity-$r" none --reuse --affinity
  run_league "none-affinity-$r" none --affinity
  run_league "strict-reuse-affinity-$r" strict --reuse --affinity
done
