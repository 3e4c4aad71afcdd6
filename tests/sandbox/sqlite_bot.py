"""An honest bot that locks files, for the channel tests: before its first answer it keeps a
SQLite database in its home (rollback journal, then WAL with a second connection, an exclusive
transaction), and takes flock and lockf locks on it, then says on stderr what worked:

  HOSTILE sqlite rows=<rows read back> wal=<journal mode> flock=<ok|error> lockf=<ok|error>

and plays the first legal action of every request (protocol 1)."""
import fcntl
import json
import os
import sqlite3
import sys


def exercise():
    home = os.environ.get("HOME") or os.environ.get("TMPDIR") or "."
    path = os.path.join(home, "sqlite_bot-%d.db" % os.getpid())  # tier none: the home is shared
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE IF NOT EXISTS moves (n INTEGER)")
    conn.execute("BEGIN EXCLUSIVE")
    conn.executemany("INSERT INTO moves VALUES (?)", [(i,) for i in range(10)])
    conn.commit()
    mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
    conn.execute("INSERT INTO moves VALUES (10)")
    conn.commit()
    other = sqlite3.connect(path)
    rows = other.execute("SELECT COUNT(*) FROM moves").fetchone()[0]
    other.close()
    conn.close()
    results = {}
    with open(path, "rb") as f:
        for name, call in (("flock", lambda: fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)),
                           ("lockf", lambda: fcntl.lockf(f, fcntl.LOCK_SH | fcntl.LOCK_NB))):
            try:
                call()
                results[name] = "ok"
            except OSError as e:
                results[name] = "errno%d" % e.errno
    for suffix in ("", "-wal", "-shm", "-journal"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    return "rows=%d wal=%s flock=%s lockf=%s" % (rows, mode, results["flock"], results["lockf"])


def main():
    reported = False
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            print(json.dumps({"type": "ready", "protocol": 1, "name": "sqlite_bot"}), flush=True)
        elif kind == "request":
            if not reported:
                try:
                    text = exercise()
                except Exception as e:  # the report says what failed
                    text = "error=" + type(e).__name__ + ":" + str(e).replace(" ", "_")
                sys.stderr.write("HOSTILE sqlite " + text + "\n")
                sys.stderr.flush()
                reported = True
            answer = {"type": "action", "protocol": 1, "id": message["id"], "action": message["legal"][0]}
            print(json.dumps(answer), flush=True)


main()
