#!/usr/bin/python3
"""The ctest protocol_schemas_live: real matches under `referee play` between recording bots
(recording_bot.py), then every line they received and sent checked against the JSON Schemas by
validate_schemas.py (python3-jsonschema).

    live_schemas.py --referee PATH --out DIR [--only NAME...]

Matches: every game `referee games` lists (so a game added later is covered without a change
here), at every seat count with every seat at protocol 1 and with every seat at 2, and mixed
(protocols alternating by seat, both ways) at its fewest and most seats; a game with a per-seat
configuration to try (SEAT_CONFIGS: Stellar's deck list, an Interstellar seat playing Shane) adds
matches with it in one seat at 1, at 2 and mixed. Interstellar's requests out of turn (phase
reaction) must be among the lines. Each match must finish without a fault, every seat must have
played the version it chose, and every recorded line must validate (a game without a schema/
folder: the message schemas only); a problem is printed as
FILE:LINE: JSON-POINTER: message. Fails (never skips) when python3-jsonschema is missing.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import validate_schemas  # noqa: E402

DECK = os.path.join(ROOT, "docs", "games", "stellar-decks", "bright-moons.json")
# An Interstellar seat configuration (docs/games/interstellar.md): Shane and the Star Cruiser, a
# Main deck with a Colonization for a Mercury, given inline as --seat-config accepts JSON.
SHANE = json.dumps({"character": "shane", "main": {"mercury": 1, "pluto": 1, "neptune": 1, "uranus": 1, "mars": 2,
                                                   "venus": 1, "jupiter": 1, "saturn": 1, "titan": 1, "earth": 1,
                                                   "harvest": 5, "depletion": 3, "into_the_void": 3, "space_junk": 4,
                                                   "secret_formula": 1, "reinforcements": 1, "gate": 3,
                                                   "force_field": 2, "escape_pod": 1, "colonization": 2}})
# Game-specific: a seat configuration worth its own matches, for the games that take one.
SEAT_CONFIGS = {"stellar": DECK, "interstellar": SHANE}

# "--cycle" seats vary their choices (face-down cards, other slots) so the views show more of each
# game; "--reuse" makes a version-2 ready say "reuse": true.
C = "--cycle"
R = "--reuse"


def listed_games(referee):
    """(name, fewest seats, most seats) of every game `referee games` lists, in its order."""
    run = subprocess.run([referee, "games"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    games = []
    for line in run.stdout.decode("utf-8", "replace").splitlines():
        found = re.match(r"^(\S+)\s.*\sseats (\d+)(?:-(\d+))?\s", line)
        if found:
            low = int(found.group(2))
            games.append((found.group(1), low, int(found.group(3) or low)))
    return games


def matches_for(games):
    """name, game, seed, one (protocol, seat config or None, bot options) per seat, for each match."""
    matches = []
    for game, low, high in games:
        for n in range(low, high + 1):
            matches.append(("{}-{}-v1".format(game, n), game, [(1, None, C if s % 2 else "") for s in range(n)]))
            matches.append(("{}-{}-v2".format(game, n), game, [(2, None, R if s == 0 else C) for s in range(n)]))
        for n in sorted({low, high}):
            matches.append(("{}-{}-v1-v2".format(game, n), game, [(1 + s % 2, None, C) for s in range(n)]))
            matches.append(("{}-{}-v2-v1".format(game, n), game,
                            [(2 - s % 2, None, R + " " + C if s == 0 else "") for s in range(n)]))
        config = SEAT_CONFIGS.get(game)
        if config:
            rest = [(p, "-", C) for p in (1, 2, 1)]
            for protocols in ((1, 1), (2, 2), (2, 1)):
                seats = [(protocols[0], config, C)] + [(protocols[1], "-", o) for _, _, o in rest[:low - 1]]
                matches.append(("{}-own-v{}-v{}".format(game, *protocols), game, seats))
    return [(name, game, 11 + i, seats) for i, (name, game, seats) in enumerate(matches)]


def play(referee, out, name, game, seed, seats, python):
    """Runs one match; returns (record folder, list of problems)."""
    folder = os.path.join(out, name)
    record = os.path.join(folder, "record")
    os.makedirs(record)
    command = [referee, "play", "--game", game, "--seed", str(seed), "--sandbox", "none",
               "--out", os.path.join(folder, "logs"), "--time-scale", "10"]
    with_configs = any(config is not None for _, config, _ in seats)
    bot = os.path.join(HERE, "recording_bot.py")
    for i, (protocol, config, options) in enumerate(seats):
        cmd = "{} {} --protocol {} --record {} --name seat{}_v{} {}".format(python, bot, protocol, record, i, protocol,
                                                                         options)
        command += ["--bot", cmd.strip()]
        if with_configs:
            command += ["--seat-config", config or "-"]
    problems = []
    try:
        run = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300, cwd=folder)
    except subprocess.TimeoutExpired:
        return record, ["{}: referee play did not finish in 300 s: {}".format(name, " ".join(command))]
    try:
        result = json.loads(run.stdout.decode("utf-8", "replace"))
    except ValueError:
        result = None
    if run.returncode != 0 or not isinstance(result, dict) or result.get("end") != "finished":
        fault = result.get("fault") if isinstance(result, dict) else None
        stderr = run.stderr.decode("utf-8", "replace").strip().splitlines()[-12:]
        problems.append("{}: referee play exited {} (end {}, fault {}):\n    {}\n  {}".format(
            name, run.returncode, json.dumps(result.get("end")) if isinstance(result, dict) else "?",
            json.dumps(fault), " ".join(command), "\n  ".join(stderr)))
    for seat, (protocol, _, _) in enumerate(seats):
        path = os.path.join(record, "seat{}.jsonl".format(seat))
        if not os.path.exists(path):
            problems.append("{}: seat {} recorded nothing ({} missing)".format(name, seat, path))
    return record, problems


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--referee", required=True)
    parser.add_argument("--out", required=True, help="a folder of its own: emptied first")
    parser.add_argument("--python", default=sys.executable, help="the interpreter for the bots")
    parser.add_argument("--only", nargs="+", default=None, metavar="NAME", help="these matches only")
    args = parser.parse_args(argv)
    validate_schemas.require_jsonschema()  # before any match: a missing validator fails at once
    args.referee = os.path.abspath(args.referee)
    if not os.access(args.referee, os.X_OK):
        print("no referee executable at {}".format(args.referee))
        return 1
    out = os.path.abspath(args.out)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)

    problems = validate_schemas.Problems()
    schemas = validate_schemas.Schemas()
    validate_schemas.check_schemas(schemas, problems)
    if problems.items:
        print("\n".join(problems.items))
        print("FAILED: the schemas themselves (run validate_schemas.py)")
        return 1
    checker = validate_schemas.Checker(schemas, problems)

    failed = []
    games = listed_games(args.referee)
    if not games:
        print("FAILED: '{} games' listed no game".format(args.referee))
        return 1
    matches = [m for m in matches_for(games) if args.only is None or m[0] in args.only]
    # Schemas are optional: a game without a schema/ folder is checked against the message schemas.
    schemaless = {game for game, _, _ in games if game not in schemas.games}
    for game in sorted(schemaless):
        print("{}: no schema/ folder, so its lines are checked against the message schemas only".format(game))
    for name, game, seed, seats in matches:
        record, match_problems = play(args.referee, out, name, game, seed, seats, args.python)
        before = len(problems)
        summaries = validate_schemas.check_live(record, checker, problems, schemaless)
        for seat, (protocol, _, _) in enumerate(seats):
            summary = summaries.get(os.path.join(record, "seat{}.jsonl".format(seat)))
            if summary is None:
                continue
            if summary["version"] != protocol:
                match_problems.append("{}: seat {} chose protocol {} but its ready says {}".format(
                    name, seat, protocol, summary["version"]))
            if not summary["over"]:
                match_problems.append("{}: seat {} got no game_over".format(name, seat))
        if not any(s["requests"] for s in summaries.values()):
            match_problems.append("{}: no request was recorded".format(name))
        lines = sum(s["lines"] for s in summaries.values())
        status = "ok" if not match_problems and len(problems) == before else "FAILED"
        print("{:22} {:12} seats {} protocols {}: {} lines, {} requests: {}".format(
            name, game, len(seats), [p for p, _, _ in seats], lines,
            sum(s["requests"] for s in summaries.values()), status), flush=True)
        for p in match_problems:
            print("  " + p)
        if status != "ok":
            failed.append(name)

    # Interstellar asks the attacked seat out of turn: such requests (phase reaction, the request's
    # seat the defender, view.on_turn the attacker) must be among the lines checked.
    played = [m for m in matches if m[1] == "interstellar"]
    if played:
        out_of_turn = 0
        for name, _, _, _ in played:
            record = os.path.join(out, name, "record")
            for file in sorted(os.listdir(record)) if os.path.isdir(record) else []:
                with open(os.path.join(record, file), encoding="utf-8") as f:
                    for line in f:
                        message = json.loads(line)
                        view = message.get("view") if message.get("type") == "request" else None
                        if view and view.get("phase") == "reaction" and message.get("seat") != view.get("on_turn"):
                            out_of_turn += 1
        print("interstellar: {} requests out of turn (phase reaction)".format(out_of_turn))
        if out_of_turn == 0:
            failed.append("interstellar (no request out of turn was recorded)")

    shown = problems.items[:200]
    for p in shown:
        print(p)
    if len(problems.items) > len(shown):
        print("... and {} more problems".format(len(problems.items) - len(shown)))
    counts = ", ".join("{} {}".format(n, k) for k, n in sorted(checker.counts.items()))
    print("checked: {}".format(counts or "nothing"))
    if failed:
        print("FAILED: {} of {} matches: {}".format(len(failed), len(matches), ", ".join(failed)))
        return 1
    print("OK: {} matches, every recorded line valid".format(len(matches)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
