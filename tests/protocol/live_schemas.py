#!/usr/bin/python3
"""The ctest protocol_schemas_live: real matches under `referee play` between recording bots
(recording_bot.py), then every line they received and sent checked against the JSON Schemas by
validate_schemas.py (python3-jsonschema).

    live_schemas.py --referee PATH --out DIR [--only NAME...]

Matches: Stellar with both seats at protocol 1, both at 2, each mix, and with a seat deck
(docs/games/stellar-decks/bright-moons.json) at 1, at 2 and mixed; Stella Quest with 2, 3 and 4 seats
at 1 and at 2, and one mixed; Interstellar at 1, at 2 and mixed, one with a seat playing Shane
(a seat configuration: character and deck lists), so that requests out of turn (phase reaction)
are among the lines. Each match must finish without a fault, every seat must have played
the version it chose, and every recorded line must validate; a problem is printed as
FILE:LINE: JSON-POINTER: message. Fails (never skips) when python3-jsonschema is missing.
"""

import argparse
import json
import os
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

# name, game, seed, one (protocol, seat config or None, bot options) per seat. "--cycle" seats
# vary their choices (face-down cards, other slots) so the views show more of each game.
C = "--cycle"
R = "--reuse"
MATCHES = [
    ("stellar-v1", "stellar", 11, [(1, None, ""), (1, None, C)]),
    ("stellar-v2", "stellar", 12, [(2, None, R), (2, None, C)]),
    ("stellar-v1-v2", "stellar", 13, [(1, None, C), (2, None, "")]),
    ("stellar-v2-v1", "stellar", 14, [(2, None, C), (1, None, C)]),
    ("stellar-decks-v1", "stellar", 17, [(1, DECK, C), (1, "-", "")]),
    ("stellar-decks-v2", "stellar", 15, [(2, DECK, ""), (2, "-", C)]),
    ("stellar-decks-v1-v2", "stellar", 16, [(1, DECK, C), (2, "-", C)]),
    ("stella_quest-2-v1", "stella_quest", 21, [(1, None, ""), (1, None, C)]),
    ("stella_quest-2-v2", "stella_quest", 22, [(2, None, C), (2, None, "")]),
    ("stella_quest-3-v1", "stella_quest", 23, [(1, None, C)] * 3),
    ("stella_quest-3-v2", "stella_quest", 24, [(2, None, C)] * 3),
    ("stella_quest-4-v1", "stella_quest", 25, [(1, None, "")] * 2 + [(1, None, C)] * 2),
    ("stella_quest-4-v2", "stella_quest", 26, [(2, None, C)] * 4),
    ("stella_quest-4-mixed", "stella_quest", 27, [(1, None, C), (2, None, ""), (2, None, R + " " + C), (1, None, "")]),
    ("interstellar-v1", "interstellar", 31, [(1, None, C), (1, None, C)]),
    ("interstellar-v2", "interstellar", 32, [(2, None, C), (2, None, R + " " + C)]),
    ("interstellar-v1-v2", "interstellar", 33, [(1, None, ""), (2, None, C)]),
    ("interstellar-own-v2-v1", "interstellar", 34, [(2, SHANE, C), (1, "-", C)]),
]


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
    schemas = validate_schemas.Schemas(os.path.join(ROOT, "protocol", "schema"))
    validate_schemas.check_schemas(schemas, problems)
    if problems.items:
        print("\n".join(problems.items))
        print("FAILED: the schemas themselves (run validate_schemas.py)")
        return 1
    checker = validate_schemas.Checker(schemas, problems)

    failed = []
    matches = [m for m in MATCHES if args.only is None or m[0] in args.only]
    for name, game, seed, seats in matches:
        record, match_problems = play(args.referee, out, name, game, seed, seats, args.python)
        before = len(problems)
        summaries = validate_schemas.check_live(record, checker, problems)
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
