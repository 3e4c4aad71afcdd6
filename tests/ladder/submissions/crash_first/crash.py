# Answers the handshake, then dies at its first decision: the check must reject it with that fault.
import json
import sys

hello = json.loads(sys.stdin.readline())
print(json.dumps({"type": "ready", "name": "crash_first", "version": "1", "protocol": 1}), flush=True)
sys.stdin.readline()
print("crashing at the first decision", file=sys.stderr, flush=True)
sys.exit(3)
