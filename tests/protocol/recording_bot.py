#!/usr/bin/env python3
"""A bot that records its traffic: every line it receives and every line it sends, in order,
exactly as on the wire, appended to DIR/seat<ARENA_SEAT>.jsonl (one line per message, each
flushed at once). It plays the first legal action and exits on game_over or EOF. Python 3,
standard library only.

    recording_bot.py --protocol 1|2 --record DIR [--name NAME] [--version V] [--reuse] [--cycle]
                     [--debug-at ID TEXT] [--stall-at ID] [--protocol-from ID P]

--protocol: the version its ready chooses (docs/protocol.md, "Version 2"), whatever hello offers,
so that a referee that does not speak it shows up as a fault. --reuse: a version-2 ready says
"reuse": true. --cycle: play legal[id % len(legal)] instead of the first, so that a match shows
more of the game (face-down cards, other slots) and stays deterministic. For the golden
transcripts (make_transcripts.py): --version puts a "version" in the ready; --debug-at adds a
"debug" text to the action that answers request ID; --stall-at never answers request ID (the
referee records a timeout); --protocol-from writes "protocol": P in its first action for a request
numbered ID or more (a version-2 bot writing 1 is a malformed fault).
tests/protocol/validate_schemas.py --live DIR checks the recorded lines.
"""

import argparse
import json
import os
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--protocol", type=int, choices=[1, 2], required=True)
    parser.add_argument("--record", required=True, metavar="DIR")
    parser.add_argument("--name", default=None)
    parser.add_argument("--reuse", action="store_true")
    parser.add_argument("--cycle", action="store_true")
    parser.add_argument("--version", default=None)
    parser.add_argument("--debug-at", nargs=2, default=None, metavar=("ID", "TEXT"))
    parser.add_argument("--stall-at", type=int, default=None, metavar="ID")
    parser.add_argument("--protocol-from", nargs=2, type=int, default=None, metavar=("ID", "P"))
    args = parser.parse_args()

    seat = os.environ.get("ARENA_SEAT", "x")
    os.makedirs(args.record, exist_ok=True)
    record = open(os.path.join(args.record, "seat{}.jsonl".format(seat)), "ab")

    def keep(line):
        record.write(line + b"\n")
        record.flush()

    def send(message):
        line = json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
        keep(line)
        sys.stdout.buffer.write(line + b"\n")
        sys.stdout.buffer.flush()

    version = args.protocol
    while True:
        line = sys.stdin.buffer.readline()
        if not line:
            break  # EOF: the match is over
        line = line[:-1] if line.endswith(b"\n") else line
        keep(line)
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            ready = {"type": "ready", "protocol": version, "name": args.name or "recording_v{}".format(version)}
            if args.version is not None:
                ready["version"] = args.version
            if args.reuse:
                ready["reuse"] = True
            send(ready)
        elif kind == "request":
            rid = message["id"]
            if rid == args.stall_at:
                continue  # no answer: wait for the referee's timeout (EOF or a kill)
            legal = message["legal"]
            choice = legal[rid % len(legal)] if args.cycle else legal[0]
            protocol = version
            if args.protocol_from and rid >= args.protocol_from[0]:
                protocol, args.protocol_from = args.protocol_from[1], None
            action = {"type": "action", "protocol": protocol, "id": rid, "action": choice}
            if args.debug_at and int(args.debug_at[0]) == rid:
                action["debug"] = args.debug_at[1]
            send(action)
        elif kind == "game_over":
            break
    record.close()


if __name__ == "__main__":
    main()
