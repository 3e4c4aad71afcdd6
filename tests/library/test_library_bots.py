"""The sample bots that use the rules library play real matches through the referee.

Run by CTest (library_bots) with Debian's python3: REFEREE, RANDOM_BOT, GREEDY_BOT, SEARCH_BOT and
OUT from the environment, PYTHONPATH at the build's python/ folder (passed on to the bots with
--env). 2 seats, each deal played with the seats swapped: lookahead_bot.py (the Python module
inside a bot) wins the majority against the random bot in Stella Quest and in Stellar (`referee
play`); search_bot (C++, Monte Carlo over determinizations guided by the greedy policies) beats the
greedy bot in Stella Quest, Stellar and Interstellar in a `referee league` of seeded deals, by a
count of wins a fair coin reaches with a probability under 3%, all without a fault and with nothing
on its stderr (it searched every game). Every bot, every decision and every deal is seeded, so a
league's result is the same on every run; --time-scale 10 keeps a loaded machine from turning a
search into a timeout (the default limits: docs/library.md's league). In Interstellar
lookahead_bot.py looks ahead too (from_request rebuilds it) and plays legally.
"""

import json
import os
import pathlib
import shutil
import subprocess
import sys
import unittest

SOURCE = pathlib.Path(__file__).resolve().parents[2]
LOOKAHEAD = f"{sys.executable} {SOURCE / 'sample_bots/python/lookahead_bot.py'} --samples 4"


def league(game, bot, opponent, deals, out):
    """Plays `deals` deals with the seats swapped; returns (wins, losses) of `bot`."""
    wins = losses = 0
    for seed in range(1, deals + 1):
        for seat in (0, 1):
            bots = [bot, opponent] if seat == 0 else [opponent, bot]
            result = play(game, seed, bots, out)
            if result["end"] != "finished" or result["fault"] is not None:
                raise AssertionError(f"seed {seed}: {result}")
            if result["winner"] == seat:
                wins += 1
            elif result["winner"] is not None:
                losses += 1
    return wins, losses


def search_league(game, deals, samples, out):
    """A `referee league` of search_bot (`--samples` worlds a decision at most) against greedy_bot,
    `deals` deals with the seats swapped; returns search_bot's row of standings.json after checking
    that nobody faulted and that search_bot searched every game (nothing on its stderr)."""
    folder = out / f"league-{game}"
    shutil.rmtree(folder, ignore_errors=True)  # a league's folder holds one league
    search = f"{os.environ['SEARCH_BOT']} --samples {samples}"
    command = [os.environ["REFEREE"], "league", "--game", game, "--bot", search,
               "--bot", os.environ["GREEDY_BOT"], "--name", "search", "--name", "greedy", "--deals", str(deals),
               "--seed", "100", "--sandbox", "none", "-j", "2", "--time-scale", "10", "--rating-interval", "0",
               "--fail-on-fault", "--out", str(folder)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise AssertionError(f"referee league exited {done.returncode}: {done.stderr}")
    rows = {row["name"]: row for row in json.loads((folder / "standings.json").read_text())["bots"]}
    for row in rows.values():
        if row["fault_count"] != 0:
            raise AssertionError(f"{row['name']} faulted: {row['fault_entries']}")
    for line in (folder / "results.jsonl").read_text().splitlines():
        result = json.loads(line)
        for seat in result["seats"]:
            if seat["bot"] == "search" and seat["stderr_bytes"] != 0:
                raise AssertionError(f"search_bot wrote to stderr (no search?) in {result['replay']}")
    return rows["search"]


MATCHES = iter(range(1_000_000))


def play(game, seed, bots, out):
    command = [os.environ["REFEREE"], "play", "--game", game, "--seed", str(seed), "--sandbox", "none",
               "--time-scale", "10", "--env", "PYTHONPATH=" + os.environ["PYTHONPATH"], "--out", str(out),
               "--replay", str(out / f"{game}-{seed}-{next(MATCHES)}.jsonl")]
    for bot in bots:
        command += ["--bot", bot]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode not in (0, 1):
        raise AssertionError(f"referee play exited {done.returncode}: {done.stderr}")
    return json.loads(done.stdout)


class LibraryBots(unittest.TestCase):
    def setUp(self):
        self.out = pathlib.Path(os.environ["OUT"])
        self.out.mkdir(parents=True, exist_ok=True)

    def test_lookahead_bot_beats_random_in_stella_quest(self):
        wins, losses = league("stella_quest", LOOKAHEAD, os.environ["RANDOM_BOT"], 6, self.out)
        print(f"lookahead_bot.py against random_bot, Stella Quest: {wins} won, {losses} lost of 12")
        self.assertGreater(wins, 6)

    # Each league's games, search_bot's --samples (the cheapest that still wins clearly, measured:
    # docs/library.md) and the wins asserted, a count a fair coin reaches with a probability under 3%.
    def test_search_bot_beats_greedy_in_stella_quest(self):
        # 20 games: a fair coin wins 15 or more with a probability of 2%. The default 100 worlds
        # (50 won only 20 of 40 of these deals, 25 won 24).
        row = search_league("stella_quest", 10, 100, self.out)
        print(f"search_bot against greedy_bot, Stella Quest: {row['wins']} won, {row['losses']} lost of 20")
        self.assertGreaterEqual(row["wins"], 15)

    def test_search_bot_beats_greedy_in_stellar(self):
        # 20 games: a fair coin wins 15 or more with a probability of 2%. 6 worlds a decision (the
        # default 12 won as many, at twice the cost).
        row = search_league("stellar", 10, 6, self.out)
        print(f"search_bot against greedy_bot, Stellar: {row['wins']} won, {row['losses']} lost of 20")
        self.assertGreaterEqual(row["wins"], 15)

    def test_search_bot_beats_greedy_in_interstellar(self):
        # 40 games: a fair coin wins 26 or more with a probability of 4%, 27 or more of 2%. The
        # default 8 worlds.
        row = search_league("interstellar", 20, 8, self.out)
        print(f"search_bot against greedy_bot, Interstellar: {row['wins']} won, {row['losses']} lost of 40")
        self.assertGreaterEqual(row["wins"], 27)

    def test_lookahead_bot_beats_random_in_stellar(self):
        wins, losses = league("stellar", LOOKAHEAD, os.environ["RANDOM_BOT"], 4, self.out)
        print(f"lookahead_bot.py against random_bot, Stellar: {wins} won, {losses} lost of 8")
        self.assertGreater(wins, 4)

    def test_search_bot_refuses_a_wrong_flag(self):
        # Before reading anything: exit code 2 and the flag named on stderr.
        for flags, named in ((["--samples", "0"], "--samples"), (["--samples", "many"], "--samples"),
                             (["--budget"], "--budget needs a value"), (["--rollout", "fast"], "--rollout"),
                             (["--margin", "2"], "--margin"), (["--depth", "3"], "unknown flag '--depth'")):
            done = subprocess.run([os.environ["SEARCH_BOT"], *flags], input="", capture_output=True, text=True)
            self.assertEqual(done.returncode, 2, flags)
            self.assertIn(named, done.stderr, flags)
            self.assertEqual(done.stdout, "", flags)

    def test_lookahead_bot_looks_ahead_in_interstellar(self):
        # from_request rebuilds Interstellar (IS-Core's deck lists): no "no look-ahead" on stderr
        # (search_bot's league above checks the same of it).
        result = play("interstellar", 1, [LOOKAHEAD, os.environ["RANDOM_BOT"]], self.out)
        self.assertEqual(result["end"], "finished", result)
        self.assertIsNone(result["fault"], result)
        self.assertEqual(result["bots"][0]["stderr_bytes"], 0, result)


if __name__ == "__main__":
    unittest.main()
