#!/usr/bin/env python3
"""terminal_attack_bot.py: a bot that tries to drive the organiser's terminal (test fixture).

Its ready name and version, its stderr and its one (illegal) move carry a screen clear (ESC [2J),
a C1 CSI both UTF-8-encoded (U+009B) and as a raw byte 0x9B, a right-to-left override (U+202E)
and a bell (BEL). The referee must print all of it escaped. Standard library only.
"""

import json
import sys

ATTACK = "\x1b[2J\u009b\u202e\x07"


def send(message):
    # ensure_ascii=False: U+009B and U+202E go out as raw UTF-8, not as \\u escapes.
    sys.stdout.write(json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def main():
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            sys.stderr.buffer.write(b"\x1b[2J\x1b[H\x9b31mall good\x07\n")
            sys.stderr.buffer.write(("\u009b2J\u202eok ,dab\x1b]0;pwned\x07\n").encode())
            sys.stderr.flush()
            send({"type": "ready", "protocol": 1, "name": "evil" + ATTACK, "version": "v" + ATTACK})
        elif kind == "request":
            sys.stderr.buffer.write(("move" + ATTACK + "\n").encode())
            sys.stderr.flush()
            send({"type": "action", "protocol": 1, "id": message["id"], "action": {"kind": ATTACK}})


if __name__ == "__main__":
    try:
        main()
    except (BrokenPipeError, KeyboardInterrupt):
        pass
