#!/usr/bin/env python3
"""A Countdown bot that reads its view and writes its own action (it does not copy one from the
legal list): it leaves the next seat a multiple of max_take + 1 stones when it can, else takes 1.
Protocol v1 (docs/protocol.md): one JSON object per line each way, flushed after every line."""
import json
import sys


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        send({"type": "ready", "protocol": 1, "name": "countdown_bot", "version": "1.0"})
    elif kind == "request":
        view = message["view"]
        take = view["stones"] % (view["max_take"] + 1) or 1
        send({"type": "action", "protocol": 1, "id": message["id"], "action": {"take": take},
              "debug": "%d stones, taking %d" % (view["stones"], take)})
