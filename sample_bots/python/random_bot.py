#!/usr/bin/env python3
"""random_bot.py: a bot in Python 3 (standard library only), and a starting point for your own.

It speaks protocol v1 of the referee: one JSON object per line on stdin, one JSON object per line
on stdout. It works for any game, because it only reads the request's "legal" list and answers
with one of its entries, chosen uniformly at random.

    usage: python3 random_bot.py [--seed N]   (the seed is mixed with the seat from the hello)

Every answer is flushed explicitly, so the bot works without PYTHONUNBUFFERED or python3 -u:
the referee waits for each line and would time out on a line stuck in a buffer.
"""

import json
import random
import sys


def send(message):
    """Writes one message as one line and flushes it (the referee reads up to the newline)."""
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def main():
    seed = 0
    if "--seed" in sys.argv[1:-1]:
        seed = int(sys.argv[sys.argv.index("--seed") + 1])
    rng = random.Random(seed)

    for line in sys.stdin:  # the referee closes stdin at the end: the loop ends, we exit
        try:
            message = json.loads(line)
        except ValueError:
            print("random_bot.py: ignoring a line that is not JSON", file=sys.stderr)
            continue
        if not isinstance(message, dict):
            continue
        kind = message.get("type")

        if kind == "hello":
            # Handshake: which game, which seat. Answer "ready" with a name (1-64 bytes).
            rng.seed(seed * 1000003 + message.get("seat", 0))
            send({"type": "ready", "protocol": 1, "name": "random_bot.py", "version": "1.0"})

        elif kind == "request":
            # A decision: "view" is what this seat may see, "legal" every action allowed now.
            # Answer with one of the legal actions, copied as is, and the request's id.
            action = rng.choice(message["legal"])
            send({"type": "action", "protocol": 1, "id": message["id"], "action": action})

        elif kind == "game_over":
            # The result; stdin closes right after, which ends the loop.
            print("random_bot.py: game over", file=sys.stderr)


if __name__ == "__main__":
    try:
        main()
    except (BrokenPipeError, KeyboardInterrupt):
        pass  # the referee is gone or stopped us: nothing left to say
