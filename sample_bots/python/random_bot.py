#!/usr/bin/env python3
"""random_bot.py: a bot in Python 3 (standard library only), and a starting point for your own.

It speaks the referee's protocol (docs/protocol.md): one JSON object per line on stdin, one JSON
object per line on stdout. It works for any game, because it only reads the request's "legal"
list and answers with one of its entries, chosen uniformly at random. It speaks version 2 when
the referee offers it (version 1 otherwise) and plays match after match until its input ends
("reuse": true): every hello starts a new match.

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


def choose_protocol(hello):
    """Version 2 if the referee lists it in "protocols" (a version-1 referee sends none), else 1."""
    offered = hello.get("protocols")
    return 2 if isinstance(offered, list) and 2 in offered else 1


def main():
    seed = 0
    if "--seed" in sys.argv[1:-1]:
        seed = int(sys.argv[sys.argv.index("--seed") + 1])
    rng = random.Random(seed)
    protocol = 1  # chosen at each hello

    # Lines as bytes, straight from the buffer: json.loads reads UTF-8 bytes itself, so nothing
    # is decoded twice. The referee closes stdin at the end: the loop ends, we exit.
    for line in sys.stdin.buffer:
        try:
            message = json.loads(line)
        except ValueError:
            print("random_bot.py: ignoring a line that is not JSON", file=sys.stderr)
            continue
        if not isinstance(message, dict):
            continue
        kind = message.get("type")

        if kind == "hello":
            # A new match (a reused bot gets one hello per match): which game, which seat. Answer
            # "ready" with a name (1-64 bytes) and the chosen version ("reuse" is version 2 only).
            rng.seed(seed * 1000003 + message.get("seat", 0))
            protocol = choose_protocol(message)
            ready = {"type": "ready", "protocol": protocol, "name": "random_bot.py", "version": "1.0"}
            if protocol == 2:
                ready["reuse"] = True
            send(ready)

        elif kind == "request":
            # A decision: "legal" lists every action allowed now. Answer with one of them, copied
            # as is, the request's id and the version chosen at the hello.
            action = rng.choice(message["legal"])
            send({"type": "action", "protocol": protocol, "id": message["id"], "action": action})

        elif kind == "game_over":
            # The result. Then either stdin closes (the loop ends) or, for a reused bot, the
            # next match's hello arrives.
            print("random_bot.py: game over", file=sys.stderr)


if __name__ == "__main__":
    try:
        main()
    except (BrokenPipeError, KeyboardInterrupt):
        pass  # the referee is gone or stopped us: nothing left to say
