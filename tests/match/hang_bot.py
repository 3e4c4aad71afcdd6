"""A bot for the interrupt tests: plays the first legal action; while the file FLAG exists it
hangs at its second request of a match (it first creates FLAG.hanging, so a test knows when to
signal the referee). Remove FLAG and it plays every match to the end.

  hang_bot.py FLAG"""
import json
import os
import sys
import time

flag = sys.argv[1]
requests = 0

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        sys.stdout.write(json.dumps({"type": "ready", "protocol": 1, "name": "hang_bot"}) + "\n")
        sys.stdout.flush()
    elif message["type"] == "request":
        requests += 1
        if requests == 2 and os.path.exists(flag):
            with open(flag + ".hanging", "w") as marker:
                marker.write(str(os.getpid()))
            while True:
                time.sleep(60)
        sys.stdout.write(json.dumps({"type": "action", "protocol": 1, "id": message["id"], "action": message["legal"][0]}) + "\n")
        sys.stdout.flush()
