#!/usr/bin/python3
"""The golden transcripts, played through the real match loop: `referee play` between recording
bots (recording_bot.py), every seat's lines merged into one transcript (format:
protocol/transcripts/README.md), then compared byte for byte with the committed files.

    make_transcripts.py --referee PATH --out DIR [--game DIR...] [--only GAME...] [--update]

Transcripts: for every game `referee games` lists (so a game added later gets its own without a
change here), GAME_FOLDER/transcripts/match.jsonl: a whole match at the game's fewest seats, seat
0 at protocol 2, the others at 1, of which the file keeps the handshake, the last KEEP_LAST
decisions and game_over (the decisions before them are the header's "prefix": the index of each
action in its request's legal list, which the test replays). For the protocol itself, played in the referee's first game,
protocol/transcripts/timeout.jsonl (a seat that never answers) and
protocol/transcripts/refused_version.jsonl (a version-2 bot writing "protocol": 1). A game's
folder is referee/games/<game>/, or one of the --game folders (named by their last component).

Determinism: the bots answer at once and the limits leave every decision far inside its time
(30 s; 3 s in the timeout transcript, whose seat must really time out), so no time bank is ever
drawn on, even on a slow machine; every line is the referee's own bytes (or the bot's); the seats'
lines are merged in the protocol's order: every hello by seat, every ready by seat, then each
request followed by its action by request id, then every game_over by seat.

--update (or ARENA_UPDATE_TRANSCRIPTS=1 in the environment) rewrites the committed files instead of
comparing them; run it after a change that alters a view, and review the diff. The examples of
docs/protocol.md are the transcripts' own lines: every ```json block of it whose paragraph names a
transcript (`...transcripts/....jsonl`) must equal a line of that file, or the check fails and
names the block to rewrite. Exit status: 0 the same bytes (or rewritten), 1 a difference, a
failed match or a stale example, 2 usage.
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
import live_schemas  # noqa: E402

BOT = os.path.join(HERE, "recording_bot.py")
KEEP_LAST = 6  # decisions kept of a game's whole match (an Interstellar match is ~1 MB whole)
PROTOCOL_TRANSCRIPTS = os.path.join(ROOT, "protocol", "transcripts")


def compact(value):
    """JSON as the referee writes it: sorted keys, no spaces, UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class Scenario:
    """One transcript: the match (game, seed, limits, one recording bot's options per seat), its
    description, and notes for people, each on the first line that matches its fields."""

    def __init__(self, path, game, seats, seed, description, bots, limits, notes, keep_last=None):
        self.path, self.game, self.seats, self.seed = path, game, seats, seed
        self.description, self.bots, self.limits, self.notes = description, bots, limits, notes
        self.keep_last = keep_last  # None: every decision


def game_scenario(folder, game, title, seats):
    bots = ["--protocol 2 --reuse --cycle --name compact --version 2.0"]
    bots += ["--protocol 1 --cycle --name classic"] * (seats - 1)
    return Scenario(
        os.path.join(folder, "transcripts", "match.jsonl"), game, seats, 7,
        "A whole match of {} at {} seats, played by the referee: seat 0 chooses protocol 2 (views name "
        "cards by id where the game has a card table), the other seats protocol 1; each bot plays the "
        "legal action at index id mod the list's length. Shown: the handshake, then (after decisions "
        "1-{{left_out}}, left out: the test replays them from \"prefix\") the last decisions and "
        "game_over to every seat, in the version it chose.".format(title, seats),
        bots, ["--init-ms", "60000", "--decision-ms", "30000", "--time-bank-ms", "2000"],
        [({"seat": 0, "type": "hello"}, "hello offers protocols 1 and 2; \"cards\" is the game's card table, if "
          "it has one, indexed by id"),
         ({"seat": 0, "type": "ready"}, "version 2; reuse: this bot can play further matches in one process"),
         ({"seat": 1, "type": "ready"}, "version 1: whole card objects in its views"),
         ({"type": "request"}, "the legal list is in canonical order; time_left_ms is decision_ms plus the seat's "
          "untouched bank"),
         ({"type": "game_over"}, "every seat gets the same result")],
        keep_last=KEEP_LAST)


def protocol_scenarios(game, seats):
    """The protocol's own transcripts, in the referee's first game: a timeout and a refused line."""
    others = ["--protocol 1 --name first_legal"] * (seats - 1)
    timeout = Scenario(
        os.path.join(PROTOCOL_TRANSCRIPTS, "timeout.jsonl"), game, seats, 42,
        "The handshake, two decisions (the second reply carries a debug text), then the seat asked "
        "request 3 never answers: a timeout, that seat forfeits, and only the other seats get game_over.",
        ["--protocol 1 --name slowpoke --version 1.0.2 --stall-at 3 --debug-at 2 'plan: keep the moon'"] +
        [o + " --stall-at 3 --debug-at 2 'plan: keep the moon'" for o in others],
        ["--init-ms", "60000", "--decision-ms", "3000"],
        [({"seat": 0, "type": "ready"}, "\"version\" is optional"),
         ({"type": "request"}, "the legal list is in canonical order"),
         ({"type": "action", "has": "debug"}, "the debug text goes to the replay, never to another seat"),
         ({"type": "request", "id": 3}, "never answered: 3000 ms after this line was written the referee records "
          "a timeout"),
         ({"type": "game_over"}, "the offender gets no game_over; every other seat does, then its stdin is "
          "closed")])
    refused = Scenario(
        os.path.join(PROTOCOL_TRANSCRIPTS, "refused_version.jsonl"), game, seats, 11,
        "Protocol 2 next to protocol 1: seat 0 chooses version 2 in its ready, the other seats version "
        "1. At its first request from the fifth decision on, seat 0 answers with \"protocol\": 1: a "
        "malformed fault; the other seats get game_over in version 1.",
        ["--protocol 2 --reuse --cycle --name compact --protocol-from 5 1"] +
        ["--protocol 1 --cycle --name classic"] * (seats - 1),
        ["--init-ms", "60000", "--decision-ms", "30000"],
        [({"seat": 0, "type": "ready"}, "version 2; reuse: this bot can play further matches in one process"),
         ({"seat": 0, "type": "request"}, "version 2: every card in the view is its id in hello's table, where "
          "the game has one"),
         ({"seat": 0, "type": "action", "protocol": 1}, "refused: a version-2 bot must write \"protocol\": 2 in "
          "every action"),
         ({"type": "game_over"}, "a seat at version 1: its game_over says so")])
    return [timeout, refused]


def order(message, seat):
    """Where a line goes in the merged transcript (the protocol's order; see the top comment)."""
    kind = message.get("type")
    if kind == "hello":
        return (0, seat, 0)
    if kind == "ready":
        return (1, seat, 0)
    if kind in ("request", "action"):
        return (2, message.get("id"), 0 if kind == "request" else 1)
    return (3, seat, 0)


def matches(rule, seat, message):
    for key, value in rule.items():
        if key == "seat":
            if seat != value:
                return False
        elif key == "has":
            if value not in message:
                return False
        elif message.get(key) != value:
            return False
    return True


def play(referee, python, scenario, work):
    """Plays the scenario's match; returns (the transcript's text, a problem or None)."""
    record = os.path.join(work, "record")
    os.makedirs(record)
    command = [referee, "play", "--game", scenario.game, "--seed", str(scenario.seed), "--sandbox", "none",
               "--out", os.path.join(work, "logs")] + scenario.limits
    for options in scenario.bots:
        command += ["--bot", "{} {} --record {} {}".format(python, BOT, record, options)]
    run = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600, cwd=work)
    if run.returncode not in (0, 1):  # 1: a seat faulted, which two of the scenarios mean to show
        return None, "referee play exited {}: {}\n  {}".format(run.returncode, " ".join(command),
                                                              run.stderr.decode("utf-8", "replace")[-2000:])
    entries = []
    for seat in range(scenario.seats):
        path = os.path.join(record, "seat{}.jsonl".format(seat))
        if not os.path.exists(path):
            return None, "seat {} recorded nothing ({})".format(seat, path)
        with open(path, "rb") as f:
            for raw in f.read().split(b"\n")[:-1]:
                text = raw.decode("utf-8")
                message = json.loads(text)
                entries.append((order(message, seat), seat, message, text))
    entries.sort(key=lambda e: e[0])
    prefix = []
    if scenario.keep_last is not None:
        # The decisions before the last keep_last: left out, each as the index of its action in
        # its request's legal list (the header's "prefix", which the test replays).
        requests = {m["id"]: m for _, _, m, _ in entries if m.get("type") == "request"}
        actions = {m["id"]: m for _, _, m, _ in entries if m.get("type") == "action"}
        cut = max(0, max(requests, default=0) - scenario.keep_last)
        for rid in range(1, cut + 1):
            prefix.append(requests[rid]["legal"].index(actions[rid]["action"]))
        entries = [e for e in entries if e[0][0] != 2 or e[0][1] > cut]
    header = {"game": scenario.game, "seed": scenario.seed, "seats": scenario.seats, "prefix": prefix,
              "description": scenario.description.format(left_out=len(prefix))}
    out = [compact({"transcript": header})]
    notes = list(scenario.notes)
    for _, seat, message, text in entries:
        direction = "to_bot" if message.get("type") in ("hello", "request", "game_over") else "from_bot"
        note = ""
        for i, (rule, words) in enumerate(notes):
            if matches(rule, seat, message):
                note = ',"note":' + compact(words)
                del notes[i]
                break
        out.append('{{"seat":{},"dir":"{}"{},"line":{}}}'.format(seat, direction, note, text))
    return "\n".join(out) + "\n", None


def check_docs(path):
    """Problems with the examples of the doc at path: each ```json block after a paragraph that
    names a transcript file must be one of its lines (indented, the same JSON)."""
    problems = []
    with open(path, encoding="utf-8") as f:
        text = f.read()
    paragraph_then_block = r"`([\w./-]*transcripts/[\w.-]+\.jsonl)`(?:(?!\n\n).)*?\n\n```json\n(.*?)\n```"
    for found in re.finditer(paragraph_then_block, text, re.S):
        cited, block = found.group(1), found.group(2)
        line = text.count("\n", 0, found.start(2)) + 1
        where = "{}:{}".format(os.path.relpath(path, ROOT), line)
        try:
            example = json.loads(block)
            with open(os.path.join(ROOT, cited), encoding="utf-8") as f:
                lines = [json.loads(t).get("line") for t in f.read().splitlines()]
        except (OSError, ValueError) as e:
            problems.append("{}: the example citing {} cannot be checked: {}".format(where, cited, e))
            continue
        if example not in lines:
            problems.append("{}: the example is no line of {} (rewrite it from the file)".format(where, cited))
    return problems


def scenarios(referee, folders, only):
    listed = live_schemas.listed_games(referee)
    titles = {}
    run = subprocess.run([referee, "games"], stdout=subprocess.PIPE, timeout=60)
    for line in run.stdout.decode("utf-8", "replace").splitlines():
        parts = line.split()
        if parts:
            titles[parts[0]] = line[len(parts[0]):].split(" seats ")[0].strip()
    out, problems = [], []
    for game, low, _ in listed:
        if only and game not in only:
            continue
        folder = folders.get(game, os.path.join(ROOT, "referee", "games", game))
        if not os.path.isdir(folder):
            problems.append("{}: no game folder {} (give it with --game DIR)".format(game, folder))
            continue
        out.append(game_scenario(folder, game, titles.get(game, game), low))
    if listed and not only:
        out += protocol_scenarios(listed[0][0], listed[0][1])
    return out, problems, listed


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--referee", required=True)
    parser.add_argument("--out", required=True, help="a folder of its own: emptied first")
    parser.add_argument("--python", default=sys.executable, help="the interpreter for the bots")
    parser.add_argument("--game", nargs="+", default=[], metavar="DIR", help="a game folder outside referee/games")
    parser.add_argument("--only", nargs="+", default=None, metavar="GAME",
                        help="only these games' transcripts (not the protocol's)")
    parser.add_argument("--update", action="store_true", help="rewrite the committed transcripts")
    args = parser.parse_args(argv)
    update = args.update or os.environ.get("ARENA_UPDATE_TRANSCRIPTS") == "1"
    referee = os.path.abspath(args.referee)
    out = os.path.abspath(args.out)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    folders = {os.path.basename(os.path.normpath(f)): os.path.abspath(f) for f in args.game}
    todo, problems, listed = scenarios(referee, folders, args.only)
    if not listed:
        print("FAILED: '{} games' listed no game".format(referee))
        return 1
    for number, scenario in enumerate(todo):
        rel = os.path.relpath(scenario.path, ROOT)
        text, problem = play(referee, args.python, scenario, os.path.join(out, str(number)))
        if problem:
            problems.append("{}: {}".format(rel, problem))
            continue
        if update:
            os.makedirs(os.path.dirname(scenario.path), exist_ok=True)
            with open(scenario.path, "w", encoding="utf-8") as f:
                f.write(text)
            print("{}: written, {} lines".format(rel, text.count("\n")))
            continue
        try:
            with open(scenario.path, encoding="utf-8") as f:
                committed = f.read()
        except OSError:
            committed = None
        if committed == text:
            print("{}: the same {} lines".format(rel, text.count("\n")))
            continue
        with open(os.path.join(out, os.path.basename(scenario.path)), "w", encoding="utf-8") as f:
            f.write(text)
        if committed is None:
            problems.append("{}: missing (run with ARENA_UPDATE_TRANSCRIPTS=1 to write it)".format(rel))
            continue
        old, new = committed.split("\n"), text.split("\n")
        line = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
        problems.append("{}: differs from the match played now, first at line {} (the new text is in {}; "
                        "ARENA_UPDATE_TRANSCRIPTS=1 rewrites it)".format(rel, line + 1, out))
    if not args.only:
        problems += check_docs(os.path.join(ROOT, "docs", "protocol.md"))
    for p in problems:
        print(p)
    if problems:
        print("FAILED: {} problem(s)".format(len(problems)))
        return 1
    print("OK: {} transcripts {}".format(len(todo), "written" if update else "as committed"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
