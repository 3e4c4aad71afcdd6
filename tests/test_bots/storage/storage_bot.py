#!/usr/bin/env python3
"""storage_bot.py: a bot for the tests of a ladder's per-version storage (docs/ladder.md).

It counts its matches in the folder ARENA_STORAGE names: at each hello it reads the file "count"
there (0 when there is none), writes count + 1 back, and says the count it found in the "debug"
of every action ("storage count N MODE"; "no storage" when ARENA_STORAGE is not set). It plays
the first legal action. Its first argument (MODE, default "count": nothing more) adds one hostile
entry beside the count:

    symlink   "leak", a symbolic link to /etc/passwd
    hardlink  "count2", a second name of "count"
    fifo      "pipe", a FIFO
    huge      "big", 256 KiB of random bytes
    many      "many/0" ... "many/299", 300 small files
    fill      "fill", random bytes until the folder is full (at most 8 MiB); the debug then
              ends with " wrote B", the bytes written

    usage: python3 storage_bot.py [MODE]
"""

import json
import os
import sys


def send(message):
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def take_count(folder, mode):
    """The count found in `folder` (and count + 1 written there, with the mode's entry)."""
    path = os.path.join(folder, "count")
    try:
        with open(path) as f:
            count = int(f.read().strip() or "0")
    except FileNotFoundError:
        count = 0
    with open(path, "w") as f:
        f.write(str(count + 1))
    try:
        add_entry(folder, mode, path)
    except OSError as e:  # the folder is full (a tmpfs of the ladder's size as root): keep playing
        print("storage_bot.py: {}: {}".format(mode, e), file=sys.stderr)
    return count


def fill(folder):
    """Bytes written into `folder` until it is full (or 8 MiB)."""
    wrote = 0
    try:
        with open(os.path.join(folder, "fill"), "wb") as f:
            while wrote < (8 << 20):
                f.write(os.urandom(64 << 10))
                f.flush()
                wrote += 64 << 10
    except OSError as e:
        print("storage_bot.py: fill: {}".format(e), file=sys.stderr)
    return wrote


def add_entry(folder, mode, path):
    """The mode's hostile entry."""
    if mode == "symlink" and not os.path.lexists(os.path.join(folder, "leak")):
        os.symlink("/etc/passwd", os.path.join(folder, "leak"))
    elif mode == "hardlink" and not os.path.exists(os.path.join(folder, "count2")):
        os.link(path, os.path.join(folder, "count2"))
    elif mode == "fifo" and not os.path.exists(os.path.join(folder, "pipe")):
        os.mkfifo(os.path.join(folder, "pipe"))
    elif mode == "huge":
        with open(os.path.join(folder, "big"), "wb") as f:
            f.write(os.urandom(256 << 10))
    elif mode == "many":
        os.makedirs(os.path.join(folder, "many"), exist_ok=True)
        for i in range(300):
            with open(os.path.join(folder, "many", str(i)), "w") as f:
                f.write(str(i))


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "count"
    debug = "no storage"
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            folder = os.environ.get("ARENA_STORAGE")
            if folder:
                count = take_count(folder, mode)
                debug = "storage count {} {}".format(count, mode)
                if mode == "fill":
                    debug += " wrote {}".format(fill(folder))
                print("storage_bot.py: " + debug, file=sys.stderr)
            send({"type": "ready", "protocol": 1, "name": "storage_bot.py", "version": "1.0"})
        elif kind == "request":
            send({"type": "action", "protocol": 1, "id": message["id"], "action": message["legal"][0],
                  "debug": debug})


if __name__ == "__main__":
    try:
        main()
    except (BrokenPipeError, KeyboardInterrupt):
        pass
