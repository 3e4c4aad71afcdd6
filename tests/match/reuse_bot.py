"""A protocol-2 bot for the reuse tests: plays the first legal action, and says in every debug
text which match of this process it is and its pid ("match 3 of pid 1234").

  reuse_bot.py [--no-reuse] [--v1] [--crash-at-match K] [--chatter-after-match K] [--view-delta FILE]

--no-reuse: ready without "reuse"; --v1: protocol 1; --crash-at-match K: exit(3) at the first
request of this process's K-th match; --chatter-after-match K: write a stray line after the K-th
match's game_over (output between matches, a fault at the next match); --view-delta FILE: ask for
view deltas ("view_delta": true), rebuild each view from them (docs/protocol.md, "View deltas")
and append it to FILE, one line per request, keys sorted and no spaces (as the referee writes
it, so that the test compares its hash with the replay's view hash)."""
import json
import os
import sys

args = sys.argv[1:]
version = 1 if "--v1" in args else 2
reuse = "--no-reuse" not in args and version == 2


def option(name):
    return int(args[args.index(name) + 1]) if name in args else 0


crash_at, chatter_after = option("--crash-at-match"), option("--chatter-after-match")
views_file = args[args.index("--view-delta") + 1] if "--view-delta" in args else None
matches = 0
view = {}


def apply_delta(view, delta, removed):
    """The view of this request from the view of the previous one (an empty dict at a hello)."""
    for key, value in delta.items():
        players = view.get("players")
        if (key == "players" and isinstance(players, list) and isinstance(value, list) and len(players) == len(value)
                and all(isinstance(p, dict) for p in players + value)):
            for seat, changed in enumerate(value):
                players[seat].update(changed)
        else:
            view[key] = value
    for pointer in removed:
        *path, last = [part.replace("~1", "/").replace("~0", "~") for part in pointer.split("/")[1:]]
        holder = view
        for part in path:
            holder = holder[int(part)] if isinstance(holder, list) else holder[part]
        del holder[last]
    return view


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
        if views_file:
            ready["view_delta"] = True
            view = {}
        send(ready)
    elif kind == "request":
        if matches == crash_at:
            sys.exit(3)
        if views_file:
            view = apply_delta(view, message["view_delta"], message.get("view_removed", []))
            with open(views_file, "a", encoding="utf-8") as out:
                out.write(json.dumps(view, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n")
        send({"type": "action", "protocol": version, "id": message["id"], "action": message["legal"][0],
              "debug": "match %d of pid %d" % (matches, os.getpid())})
    elif kind == "game_over":
        if matches == chatter_after:
            send({"type": "action", "protocol": version, "id": 0, "action": {}})
