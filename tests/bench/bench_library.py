#!/usr/bin/env python3
"""The rules library's speed through the Python module (docs/library.md), one thread, per game:
whole random games by rollout() (inside the library) and by per-step calls from Python
(legal_count + apply_index), per-step calls per second, and determinizations per second. A
program, not a test: it prints figures and never fails on speed. bench_library (C++) measures the
same through the C++ library.

    PYTHONPATH=build/python /usr/bin/python3 tests/bench/bench_library.py [seconds per figure=2]
"""

import random
import sys
import time

import stellar_arena


def per_second(seconds, once):
    start, n = time.perf_counter(), 0
    while True:
        for _ in range(16):
            once(n)
            n += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return n / elapsed


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    print(f"{'game':<14} {'rollout g/s':>12} {'per-step g/s':>13} {'steps/s':>10} {'determinize/s':>14}")
    for name in stellar_arena.game_names():
        rollouts = per_second(seconds, lambda i: stellar_arena.Game(name, i).rollout(i))
        steps = [0]

        def stepped(i):
            g = stellar_arena.Game(name, i)
            rng = random.Random(i)
            while not g.is_over():
                g.apply_index(rng.randrange(g.legal_count()))
                steps[0] += 1

        start = time.perf_counter()
        games = per_second(seconds, stepped)
        step_rate = steps[0] / (time.perf_counter() - start)
        middle = stellar_arena.Game(name, 7)
        for _ in range(20):
            if middle.is_over():
                break
            middle.apply_index(0)
        seat = middle.to_act
        determinized = per_second(seconds, lambda i: middle.determinize(seat, i))
        print(f"{name:<14} {rollouts:>12.0f} {games:>13.0f} {step_rate:>10.0f} {determinized:>14.0f}")


if __name__ == "__main__":
    main()
