"""A protocol-2 bot for the reuse tests: plays the first legal action, and says in every debug
text which match of this process it is and its pid ("match 3 of pid 1234").

  reuse_bot.py [--no-reuse] [--v1] [--crash-at-match K] [--chatter-after-match K]

--no-reuse: ready without "reuse"; --v1: protocol 1; --crash-at-match K: exit(3) at the first
request of this process's K-th match; --chatter-after-match K: write a stray line after the K-th
match's game_over (output between matches, a fault at the next match)."""
import json
import os
import sys

args = sys.argv[1:]
version = 1 if "--v1" in args else 2
reuse = "--no-reuse" not in args and version == 2


def option(name):
    return int(args[args.index(name) + 1]) if name in args else 0


crash_at, chatter_after = option("--crash-at-match"), option("--chatter-after-match")
matches = 0


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        matches += 1
        ready = {"type": "ready", "protocol": version, "name": "reuse_bot"}
        if reuse:
            ready["reuse"] = True
        send(ready)
    elif kind == "request":
        if matches == crash_at:
            sys.exit(3)
        send({"type": "action", "protocol": version, "id": message["id"], "action": message["legal"][0],
              "debug": "match %d of pid %d" % (matches, os.getpid())})
    elif kind == "game_over":
        if matches == chatter_after:
            send({"type": "action", "protocol": version, "id": 0, "action": {}})
