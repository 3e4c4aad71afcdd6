"""Checks of the Slurm test (tests/slurm/run.sh) on league folders; standard library only.

    check.py journal DIR               prints the number of records of DIR/results.jsonl; fails on
                                       a fault (a crash above all), a torn line or a repeated index
    check.py inflight DIR              prints the matches of DIR that have a replay or a bot's log
                                       but no record (in flight when the league was stopped)
    check.py procs OUT CONF [PID...]   prints "PID command" for each live process of the test: its
                                       command line names OUT/ or its environment has
                                       SLURM_CONF=CONF (the daemons, job steps and jobs of the
                                       test's cluster); leaves out this process's ancestors (the
                                       test script), the PIDs given (daemons) and their children
                                       but job steps (slurmctld's slurmscriptd)
    check.py compare SINGLE MERGED N   the merged league against the single-machine one: N records
                                       in index order, the same matches (deal, leg, seed, end,
                                       scores, ranks), a replay per match, and equal standings once
                                       what depends on timing (decision_ms, stderr_bytes) and the
                                       folder are left out
Exit 0 when the check passes, 1 (with the reason on stderr) when it does not.
"""

import difflib
import json
import os
import sys


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def read_journal(folder):
    path = os.path.join(folder, "results.jsonl")
    records = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError as e:
                fail(f"{path}:{number}: not a whole JSON record ({e})")
    seen = set()
    for r in records:
        if r["index"] in seen:
            fail(f"{path}: match {r['index']} is journaled twice")
        seen.add(r["index"])
        if r.get("fault") is not None:
            fail(f"{path}: match {r['index']} has a fault: {json.dumps(r['fault'])}")
        if r.get("end") != "finished":
            fail(f"{path}: match {r['index']} ended {r.get('end')!r}, not 'finished'")
    return records


def match_key(r):
    """What two runs of the same league must agree on (times and file paths aside)."""
    return (r["deal"], r["leg"], r["seed"], r["end"],
            tuple((s["bot"], s["score"], s["rank"]) for s in r["seats"]))


# Differ from run to run: decision times are wall clock, and how much a bot wrote to stderr depends
# on when it was stopped (a job-wide signal right after a match's end kills a bot before its last
# stderr line, "game over", while that match is journaled all the same).
TIMING = ("decision_ms", "stderr_bytes")


def without_times(value):
    """The standings without what depends on timing."""
    if isinstance(value, dict):
        return {k: without_times(v) for k, v in value.items() if k not in TIMING}
    if isinstance(value, list):
        return [without_times(v) for v in value]
    return value


def projection(folder):
    with open(os.path.join(folder, "standings.json"), encoding="utf-8") as f:
        standings = json.load(f)
    standings.get("league", {}).pop("folder", None)
    return without_times(standings)


def compare(single, merged, total):
    one, many = read_journal(single), read_journal(merged)
    indices = [r["index"] for r in many]
    if indices != list(range(total)):
        fail(f"{merged}/results.jsonl: expected the indices 0..{total - 1} in order, got {len(indices)} records"
             f" (first out of place: {next((i for n, i in enumerate(indices) if i != n), 'none')})")
    if sorted(r["index"] for r in one) != list(range(total)):
        fail(f"{single}/results.jsonl: expected {total} matches, got {len(one)}")
    by_index = {r["index"]: match_key(r) for r in one}
    for r in many:
        if match_key(r) != by_index[r["index"]]:
            fail(f"match {r['index']} differs:\n  single: {by_index[r['index']]}\n  merged: {match_key(r)}")
        replay = os.path.join(merged, "replays", f"m{r['index']:06d}.jsonl")
        if not os.path.isfile(replay):
            fail(f"the merged folder lacks {replay}")
    a, b = projection(single), projection(merged)
    if a != b:
        diff = difflib.unified_diff(json.dumps(a, indent=1, sort_keys=True).splitlines(),
                                    json.dumps(b, indent=1, sort_keys=True).splitlines(),
                                    "single/standings.json", "merged/standings.json", lineterm="")
        fail(f"the merged standings differ from the single-machine ones ({', '.join(TIMING)} and the folder left out):\n"
             + "\n".join(diff))
    print(f"{total} matches, the same in both; standings equal ({', '.join(TIMING)} and the folder left out)")


def inflight(folder):
    journaled = {r["index"] for r in read_journal(folder)}
    started = set()
    for sub in ("replays", "logs"):
        path = os.path.join(folder, sub)
        for name in os.listdir(path) if os.path.isdir(path) else []:
            if name.startswith("m") and name[1:7].isdigit():
                started.add(int(name[1:7]))
    print(" ".join(f"m{i:06d}" for i in sorted(started - journaled)))


def procs(out, conf, exclude):
    def read(pid, name):
        try:
            with open(f"/proc/{pid}/{name}", "rb") as f:
                return f.read()
        except OSError:
            return b""

    def stat(pid):  # (state, parent) from /proc/PID/stat; the name may hold spaces and parentheses
        text = read(pid, "stat").decode(errors="replace")
        fields = text[text.rfind(")") + 2:].split()
        return (fields[0], int(fields[1])) if len(fields) > 1 else ("X", 0)

    skip = {int(p) for p in exclude}
    pid = os.getpid()
    while pid > 1:  # this process and its ancestors
        skip.add(pid)
        pid = stat(pid)[1]
    marks = (os.fsencode(out.rstrip("/") + "/"), b"SLURM_CONF=" + os.fsencode(conf))
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) in skip:
            continue
        state, parent = stat(name)
        if state in ("Z", "X") or (str(parent) in exclude and read(name, "comm").strip() != b"slurmstepd"):
            continue
        args = read(name, "cmdline")
        env = read(name, "environ").split(b"\0")
        if marks[0] in args or marks[1] in env:
            print(name, args.replace(b"\0", b" ").decode(errors="replace").strip())


def main(argv):
    if len(argv) == 3 and argv[1] == "journal":
        print(len(read_journal(argv[2])))
    elif len(argv) == 3 and argv[1] == "inflight":
        inflight(argv[2])
    elif len(argv) >= 4 and argv[1] == "procs":
        procs(argv[2], argv[3], argv[4:])
    elif len(argv) == 5 and argv[1] == "compare":
        compare(argv[2], argv[3], int(argv[4]))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
