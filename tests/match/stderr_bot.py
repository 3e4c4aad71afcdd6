r"""A bot for the tests of the stderr recorded per decision (tests/match/test_stderr.cpp, and the
browser test's stderr page): plays the first legal action and writes known bytes on stderr
before its reply, by its own decision number k (1, 2, ...):

  at the hello: "hello from stderr_bot" (before the first decision: never in a step)
  k = 1: "decision 1"
  k = 2: nothing
  k = 3: "decision 3: café ✓" and "<b>not bold</b> & \ <TAB> tab", with CR LF line ends
  k = 4: one line of 5,000 bytes ("é" x 2,500): cut on a character boundary at 2,048 bytes
  k = 5: 50 lines "line i of 50": 20 are kept
  k = 6: the bytes ff fe, then " bad" (not UTF-8: replaced)
  k = 7: "no newline", without a line end
  k > 7: "decision k" when k is a multiple of 5, else nothing

Every write is os.write on descriptor 2, unbuffered, before the reply. A line from the referee
that holds any of those texts (its own stderr or another seat's, which no bot may be sent) makes
it say so on stderr and exit with code 3: a crash, so the match does not finish.

  stderr_bot.py [--v1]"""
import json
import os
import sys

version = 1 if "--v1" in sys.argv[1:] else 2
decisions = 0


def err(data):
    os.write(2, data)


def stderr_for(k):
    if k == 1:
        return b"decision 1\n"
    if k == 3:
        return "decision 3: caf\u00e9 \u2713\r\n<b>not bold</b> & \\ \t tab\r\n".encode()
    if k == 4:
        return ("\u00e9" * 2500 + "\n").encode()
    if k == 5:
        return "".join("line %d of 50\n" % i for i in range(1, 51)).encode()
    if k == 6:
        return b"\xff\xfe bad\n"
    if k == 7:
        return b"no newline"
    if k > 7 and k % 5 == 0:
        return b"decision %d\n" % k
    return b""


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


MARKERS = ("hello from stderr_bot", "decision 1", "not bold", "line 7 of 50", "no newline")

for line in sys.stdin:
    if any(m in line for m in MARKERS):
        err(b"stderr_bot: the referee sent stderr text: " + line.encode())
        sys.exit(3)
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        err(b"hello from stderr_bot\n")
        send({"type": "ready", "protocol": version, "name": "stderr_bot"})
    elif kind == "request":
        decisions += 1
        data = stderr_for(decisions)
        if data:
            err(data)
        send({"type": "action", "protocol": version, "id": message["id"], "action": message["legal"][0]})
