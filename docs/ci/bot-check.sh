#!/bin/sh
# The CI check of a bot (docs/ci.md): validate the new version, then play it against the previous
# version in a gauntlet with an SPRT and fail on a regression. The GitHub Actions workflow and the
# GitLab job beside this file run it; tests/cli runs it too, with the same variables.
#
#   REFEREE         the referee program (required)
#   NEW_BOT         the new version's command line (required)
#   OLD_BOT         the previous version's command line (required)
#   GAME            the game (default stellar)
#   DEALS           the most duplicate deals to play (default 200; the SPRT may stop earlier)
#   SPRT            the test (default "elo0=-10 elo1=0 alpha=0.05 beta=0.05": H0 "the new version
#                   is 10 Elo worse" against H1 "it is not worse")
#   SEED            the league seed (default 1: the same deals on every run)
#   VALIDATE_GAMES  validate's games per opponent and seat (default 2)
#   OUT             the folder of the reports (default arena-ci): validate/ and gauntlet/
#                   (standings.md, junit.xml for the CI's test report)
#
# Exit code: validate's (1: the new version faulted or its replay did not verify) or the
# gauntlet's: 1 a bot faulted, 6 the SPRT accepted H0 (a regression), 2 a usage error.
set -eu
: "${REFEREE:?set REFEREE to the referee program}"
: "${NEW_BOT:?set NEW_BOT to the new version's command}"
: "${OLD_BOT:?set OLD_BOT to the previous version's command}"
GAME="${GAME:-stellar}"
DEALS="${DEALS:-200}"
SPRT="${SPRT:-elo0=-10 elo1=0 alpha=0.05 beta=0.05}"
SEED="${SEED:-1}"
VALIDATE_GAMES="${VALIDATE_GAMES:-2}"
OUT="${OUT:-arena-ci}"

mkdir -p "$OUT"
echo "== validate: $NEW_BOT"
"$REFEREE" validate "$NEW_BOT" --game "$GAME" --games "$VALIDATE_GAMES" --out "$OUT/validate"

echo "== gauntlet: new ($NEW_BOT) against previous ($OLD_BOT)"
"$REFEREE" league --format gauntlet --game "$GAME" \
  --bot "$NEW_BOT" --name new --bot "$OLD_BOT" --name previous \
  --deals "$DEALS" --seed "$SEED" --sprt "$SPRT" --rating-interval 0 \
  --fail-on fault --fail-on sprt-h0 --out "$OUT/gauntlet"
