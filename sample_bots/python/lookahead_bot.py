#!/usr/bin/env python3
"""lookahead_bot.py: a bot that looks one move ahead with the rules library (docs/library.md).

For each legal action it rebuilds the game from the request (stellar_arena.Game.from_request:
every card the bot cannot see drawn at random, consistent with its view), plays the action,
finishes the game with random play inside the library, and keeps the action with the best
average score for its seat over a few such samples. It needs the Python module stellar_arena
(installed with the referee; from a build folder: PYTHONPATH=<build>/python) and Debian's python3.

Every game can be rebuilt from a request (docs/library.md; Stellar with the standard deck,
Interstellar with IS-Core's deck lists); in a match with a deck list of a seat's own the rebuild
is refused, and the bot says so on stderr once and plays the first legal action.

    usage: python3 lookahead_bot.py [--samples N]   (default 8)
"""

import json
import sys

import stellar_arena


def send(message):
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def choose(game, config, request, samples):
    """The index of the legal action with the best average score over `samples` worlds."""
    seat, legal = request["seat"], request["legal"]
    best, best_value = 0, float("-inf")
    for i in range(len(legal)):
        total = 0.0
        for k in range(samples):
            world = stellar_arena.Game.from_request(game, request, seed=request["id"] * 1000 + k, config=config)
            world.apply_index(i)
            if not world.is_over():
                world.rollout(seed=k)
            total += world.scores()[seat]
        if total > best_value:
            best, best_value = i, total
    return best


def main():
    samples = 8
    if "--samples" in sys.argv[1:-1]:
        samples = int(sys.argv[sys.argv.index("--samples") + 1])
    hello = None
    can_look = True
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            # Protocol 1: whole views, which every game's from_request reads.
            hello, can_look = message, True
            send({"type": "ready", "protocol": 1, "name": "lookahead_bot.py", "version": "1.0"})
        elif kind == "request":
            index = 0
            if can_look:
                try:
                    index = choose(hello["game"], hello["config"], message, samples)
                except stellar_arena.Error as e:
                    print(f"lookahead_bot.py: no look-ahead in this game ({e}): the first legal action",
                          file=sys.stderr)
                    can_look = False
            send({"type": "action", "protocol": 1, "id": message["id"], "action": message["legal"][index]})


if __name__ == "__main__":
    try:
        main()
    except (BrokenPipeError, KeyboardInterrupt):
        pass
