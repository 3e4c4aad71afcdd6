#!/usr/bin/env bash
# The Slurm test (tests/slurm/CMakeLists.txt, CTest `slurm_shards`): one league played on a real
# Slurm cluster as a job array of shards, compared with the same league played on one machine.
#
#   run.sh REFEREE GREEDY_BOT RANDOM_BOT PYTHON_BOT OUT_DIR
#
# 1. Brings up a single-node cluster on 127.0.0.1 that belongs to this test: munged, slurmctld and
#    slurmd in the foreground as children of this script, with their own munge key and socket,
#    two free ports and every file under OUT_DIR/cluster (no system daemon, port or state is used).
# 2. Plays the league on this machine (`referee league`, the same --seed).
# 3. Submits a job array of 4 tasks (shard.sbatch: `referee league --shard I/4`), cancels one task
#    mid-run with plain `scancel JOB_TASK` (a signal to every process of the task, the bots too,
#    as a time limit or a pre-emption does), checks that its journal holds no fault (no crash
#    charged to a bot the scheduler killed), submits that task again (it resumes its shard) and
#    then a merge job (`referee league merge`) with --dependency=afterok on it.
# 4. Checks the merged league against the single-machine one (check.py): the same matches, and
#    the same standings apart from what depends on timing (decision times, stderr byte counts)
#    and the folder; no fault anywhere.
# 5. On exit, whatever happened: cancels the jobs, stops the daemons by PID and checks that no
#    process of the test is left. Any failure prints the tail of the daemons' and jobs' logs.
#
# Skips (exit 77) only when not root or when the Debian packages slurmctld, slurmd, slurm-client,
# munge and procps are missing (scripts/setup.sh installs them when ARENA_TEST_TOOLS=1, as
# scripts/test.sh does). ARENA_SLURM_DEALS (default 16) sets the deals per pairing.
set -euo pipefail
[ $# -eq 5 ] || { echo "usage: $0 REFEREE GREEDY_BOT RANDOM_BOT PYTHON_BOT OUT_DIR" >&2; exit 2; }
referee=$(realpath "$1") greedy=$(realpath "$2") random=$(realpath "$3") pybot=$(realpath "$4") out=$(realpath -m "$5")
here=$(cd "$(dirname "$0")" && pwd)
python=/usr/bin/python3
shards=4 cancelled=2     # the task cancelled mid-run and submitted again
deals=${ARENA_SLURM_DEALS:-16}
bots=3 legs=2
total=$((bots * (bots - 1) / 2 * deals * legs))

skip() { echo "SKIPPED: $*"; exit 77; }
[ "$(id -u)" -eq 0 ] || skip "the Slurm test needs root (it runs a munged, slurmctld and slurmd of its own, and slurmd starts jobs as their user)"
for tool in /usr/sbin/munged /usr/bin/munge /usr/bin/unmunge /usr/sbin/slurmctld /usr/sbin/slurmd /usr/sbin/slurmstepd \
            /usr/bin/sbatch /usr/bin/squeue /usr/bin/scancel /usr/bin/sinfo /usr/bin/scontrol /usr/bin/ps; do
  [ -x "$tool" ] || skip "no $tool: the Slurm test needs the Debian packages slurmctld slurmd slurm-client munge procps (scripts/test.sh installs them: ARENA_TEST_TOOLS=1 scripts/setup.sh)"
done
for f in "$referee" "$greedy" "$random"; do [ -x "$f" ] || { echo "FAIL: no executable $f" >&2; exit 1; }; done
if [ ! -f "$pybot" ] || [ ! -x "$python" ]; then echo "FAIL: no $pybot or no $python" >&2; exit 1; fi

# One run at a time in $out: a second one would take the first one's processes for its own (it
# takes the lock before it has anything that marks a process as the test's: SLURM_CONF, below).
# The lock is not passed on to the daemons (9>&-), so the cluster of a run that CTest killed does
# not hold it.
mkdir -p "$(dirname "$out")"
exec 9>"$out.lock"
flock -w 300 9 || { echo "FAIL: another run of this test holds $out.lock" >&2; exit 1; }

W=$out/cluster
start=$SECONDS
stamp() { echo "[$((SECONDS - start)) s] $*"; }

export SLURM_CONF=$W/slurm.conf
slurm_up=0
ours() {  # the live processes of the test's cluster, its jobs and its referees, as "PID command"
  "$python" "$here/check.py" procs "$out" "$SLURM_CONF" "$@"
}
daemon_pids() {  # the daemons this test (or a killed earlier run) started that still run
  local d pid
  for d in slurmd slurmctld munged; do
    [ -f "$W/$d.mypid" ] || continue
    pid=$(cat "$W/$d.mypid")
    # Only while it is still that daemon: its command line names $W.
    [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF "$W" && echo "$pid"
  done
  return 0
}
stop_pid() {  # stop_pid PID: TERM, up to 10 s, then KILL; reaps it when it is our child
  local pid=$1
  kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}
# Stops the cluster in $W: the jobs first (killing slurmd under a running job leaves a slurmstepd
# that ignores SIGTERM), then slurmd, slurmctld and munged by PID. Every process of the test is
# recognised by its environment (SLURM_CONF=$W/slurm.conf: the daemons, the job steps and the
# jobs inherit it) or its command line (the folder $out/), never by name, so another cluster or
# another test on this machine is left alone. Fails when something of ours outlives it.
stop_cluster() {
  local ids pid left daemons
  daemons=$(daemon_pids)
  if grep -qx "$(cat "$W/slurmctld.mypid" 2>/dev/null)" <<<"$daemons"; then
    mapfile -t ids < <(squeue -h -o %F 2>/dev/null | sort -u)
    [ ${#ids[@]} -eq 0 ] || scancel "${ids[@]}" 2>/dev/null
    # shellcheck disable=SC2086  # one argument per daemon PID
    for _ in $(seq 300); do
      [ -z "$(squeue -h 2>/dev/null)" ] && [ -z "$(ours $daemons)" ] && break
      sleep 0.1
    done
  fi
  for pid in $daemons; do stop_pid "$pid"; done
  for _ in $(seq 100); do [ -z "$(ours)" ] && break; sleep 0.1; done
  left=$(ours)
  [ -z "$left" ] && return 0
  echo "FAIL: processes of the test left behind (killed now):" >&2
  echo "$left" >&2
  for pid in $(cut -d' ' -f1 <<<"$left"); do kill -KILL "$pid" 2>/dev/null; done
  return 1
}
# A run that CTest killed (its timeout) may have left its cluster running.
if [ -n "$(daemon_pids)" ]; then
  echo "stopping the cluster an earlier run left in $W"
  stop_cluster || true
fi
rm -rf "$out"
mkdir -p "$out"
# munged accepts its socket only in a folder that everybody may traverse, up to the root. The
# build folder may sit in a private one (a checkout in `mktemp -d`, 0700), so the munge folder is
# its own under /tmp, removed at the end.
mkdir -m 755 "$W"
MUNGE=$(mktemp -d /tmp/arena-munge.XXXXXX)
chmod 755 "$MUNGE"
mkdir -p "$W/state" "$W/spool/slurmd-localhost" "$W/log" "$out/jobs" "$out/shards"
# A Unix socket path has at most 107 bytes (slurmd's own sockets go in its spool folder too).
[ ${#W} -le 60 ] || { echo "FAIL: the output folder's path is too long for Unix sockets (${#W} > 60 bytes): $W" >&2; exit 1; }

dump_logs() {
  echo "---- the last lines of the daemons' and jobs' logs ----"
  for f in "$W"/log/* "$out"/jobs/*; do
    [ -f "$f" ] || continue
    echo "== $f"
    tail -n 25 "$f"
  done
  if [ "$slurm_up" = 1 ]; then
    echo "== squeue"; squeue 2>&1 | tail -n 20
    echo "== sinfo"; sinfo 2>&1 | tail -n 5
  fi
}
fail() {
  echo "FAIL: $*" >&2
  exit 1  # the EXIT trap prints the logs and stops everything
}
cleanup() {
  local rc=$?
  set +e
  trap - EXIT INT TERM HUP
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ]; then dump_logs >&2; fi
  if stop_cluster; then
    [ "$rc" -eq 0 ] && stamp "every daemon stopped, no process left"
  else
    [ "$rc" -eq 0 ] && rc=1
  fi
  [ -n "${MUNGE:-}" ] && rm -rf "$MUNGE"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
trap 'exit 129' HUP

wait_until() {  # wait_until SECONDS WHAT COMMAND...: polls every 0.1 s
  local limit=$1 what=$2 i
  shift 2
  for ((i = 0; i < limit * 10; i++)); do
    "$@" && return 0
    sleep 0.1
  done
  fail "$what: not after $limit s"
}

# ---- 1. The cluster ----------------------------------------------------------------------------
# Two free TCP ports on 127.0.0.1 (never Slurm's 6817/6818, which a real cluster may hold).
read -r ctld_port slurmd_port < <("$python" -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s:
    x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')

head -c 1024 /dev/urandom >"$MUNGE/munge.key"
chmod 400 "$MUNGE/munge.key"
/usr/sbin/munged --foreground --socket="$MUNGE/munge.socket" --key-file="$MUNGE/munge.key" \
  --pid-file="$MUNGE/munged.pid" --seed-file="$MUNGE/munged.seed" --log-file="$W/log/munged.log" \
  </dev/null >"$W/log/munged.out" 2>&1 9>&- &
echo $! >"$W/munged.mypid"
munge_ok() { munge -S "$MUNGE/munge.socket" -n 2>/dev/null | unmunge -S "$MUNGE/munge.socket" >/dev/null 2>&1; }
wait_until 20 "munged answering on $MUNGE/munge.socket" munge_ok

cat >"$SLURM_CONF" <<EOF
# A single-node cluster of the test (tests/slurm/run.sh): everything under $W.
ClusterName=arenatest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$MUNGE/munge.socket
StateSaveLocation=$W/state
SlurmdSpoolDir=$W/spool/slurmd-%n
SlurmctldPidFile=$W/slurmctld.pid
SlurmdPidFile=$W/slurmd-%n.pid
SlurmctldLogFile=$W/log/slurmctld.log
SlurmdLogFile=$W/log/slurmd.log
MailProg=/bin/true
# No cgroup set-up is needed: processes are tracked by parentage, tasks are not bound to CPUs.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SchedulerType=sched/backfill
# Start jobs as soon as they are submitted (the default holds batch jobs back up to 3 s).
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
KillWait=5
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=arena Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
/usr/sbin/slurmctld -D -f "$SLURM_CONF" </dev/null >"$W/log/slurmctld.out" 2>&1 9>&- &
echo $! >"$W/slurmctld.mypid"
slurm_up=1
/usr/sbin/slurmd -D -N localhost -f "$SLURM_CONF" </dev/null >"$W/log/slurmd.out" 2>&1 9>&- &
echo $! >"$W/slurmd.mypid"
node_idle() { [ "$(sinfo -h -N -o %T 2>/dev/null)" = idle ]; }
wait_until 60 "the node localhost idle in sinfo" node_idle
stamp "cluster up: munged, slurmctld (port $ctld_port), slurmd (port $slurmd_port), $(nproc) CPUs"

# ---- 2. The league on one machine --------------------------------------------------------------
# Generous limits (time_scale 10): the machine may be busy with the rest of the suite, and a
# timeout would be a different result, not a flaw of the sharding.
cat >"$out/league.json" <<EOF
{"game": "stellar", "seed": 2024, "deals": $deals, "time_scale": 10,
 "bots": [{"name": "greedy", "command": "$greedy"},
          {"name": "random", "command": "$random"},
          {"name": "py", "command": "$python $pybot"}]}
EOF
cd "$out"  # every run from the same folder: the league records its working folder
rc=0
"$referee" league "$out/league.json" --out "$out/single" -j "$(nproc)" >"$out/single.log" 2>&1 9>&- || rc=$?
[ "$rc" -eq 0 ] || { tail -n 30 "$out/single.log" >&2; fail "the single-machine league exited $rc"; }
n=$("$python" "$here/check.py" journal "$out/single") || fail "the single-machine league"
[ "$n" -eq "$total" ] || fail "the single-machine league journaled $n matches, not $total"
stamp "single-machine league: $total matches"

# ---- 3. The same league as a job array, one task cancelled and resumed --------------------------
job_tasks() {  # job_tasks JOB: "TASK STATE EXITCODE" per task of the job (scontrol keeps them for MinJobAge)
  scontrol -o show job "$1" 2>/dev/null |
    sed -n 's/.*ArrayTaskId=\([^ ]*\).* JobState=\([^ ]*\).* ExitCode=\([^ ]*\).*/\1 \2 \3/p
            t; s/.*JobId=\([^ ]*\).* JobState=\([^ ]*\).* ExitCode=\([^ ]*\).*/\1 \2 \3/p'
}
job_done() { [ -z "$(squeue -h -j "$1" 2>/dev/null)" ]; }
journaled() { [ -f "$1/results.jsonl" ] && wc -l <"$1/results.jsonl" || echo 0; }

submit_shards() {  # submit_shards ARRAY OUTPUT_NAME: prints the job id
  sbatch --parsable --array="$1" -D "$out" -o "$out/jobs/$2" \
    "$here/shard.sbatch" "$referee" "$out/league.json" "$shards" "$out/shards"
}
job=$(submit_shards "1-$shards" "shard-%a.out") || fail "sbatch of the shards"
stamp "job array $job: $shards shards submitted"
victim=$out/shards/shard-$cancelled
# Shard $cancelled plays about $total / $shards matches; it is cancelled once it has journaled 3,
# in the middle of a match (a worker starts the next match as soon as one is journaled).
has_three() { [ "$(journaled "$victim")" -ge 3 ]; }
wait_until 120 "shard $cancelled journaling 3 matches" has_three
scancel "${job}_$cancelled" || fail "scancel ${job}_$cancelled"
at_cancel=$(journaled "$victim")
stamp "cancelled task ${job}_$cancelled (a signal to all its processes) after $at_cancel journaled matches"
wait_until 300 "the job array $job finished" job_done "$job"
tasks=$(job_tasks "$job")
echo "$tasks" | sed 's/^/  task /'
for i in $(seq "$shards"); do
  state=$(awk -v i="$i" '$1 == i {print $2 " " $3}' <<<"$tasks")
  if [ "$i" -eq "$cancelled" ]; then
    # 143:0 is the referee's own exit on SIGTERM (it stops at once); 0:9 would be Slurm's SIGKILL
    # after KillWait (5 s), a referee that did not stop.
    [ "$state" = "CANCELLED 143:0" ] || fail "task $i: ${state:-not listed} (expected CANCELLED 143:0: the referee's exit on SIGTERM)"
  else
    [ "$state" = "COMPLETED 0:0" ] || fail "task $i: ${state:-not listed} (expected COMPLETED 0:0)"
  fi
done
kept=$("$python" "$here/check.py" journal "$victim") || fail "the cancelled shard's journal (a bot charged with the scheduler's kill?)"
played=0
for i in $(seq "$shards"); do
  [ "$i" -eq "$cancelled" ] && continue
  c=$("$python" "$here/check.py" journal "$out/shards/shard-$i") || fail "shard $i's journal"
  played=$((played + c))
done
[ "$kept" -lt $((total - played)) ] ||
  fail "shard $cancelled finished all its $kept matches before the cancel reached it: make the league longer (ARENA_SLURM_DEALS)"
flight=$("$python" "$here/check.py" inflight "$victim")
stamp "array done: shard $cancelled kept $kept clean matches of $((total - played)) (in flight when cancelled, dropped: ${flight:-none}), the others played $played"

job2=$(submit_shards "$cancelled" "shard-%a.resume.out") || fail "sbatch of the resumed shard"
merge=$(sbatch --parsable --dependency="afterok:$job2" --kill-on-invalid-dep=yes -D "$out" -o "$out/jobs/merge.out" \
  --job-name=league-merge --wrap "exec '$referee' league merge $(printf "'$out/shards/shard-%s' " $(seq "$shards"))--out '$out/merged'") ||
  fail "sbatch of the merge"
stamp "task $cancelled submitted again (job $job2), merge job $merge after it"
wait_until 300 "the resumed shard (job $job2) finished" job_done "$job2"
state=$(job_tasks "$job2")
[ "$(awk '{print $2 " " $3}' <<<"$state")" = "COMPLETED 0:0" ] || fail "the resumed shard: $state"
now=$("$python" "$here/check.py" journal "$victim") || fail "the resumed shard's journal"
[ $((now + played)) -eq "$total" ] || fail "shard $cancelled has $now matches after the resume; expected $((total - played))"
grep -q . "$out/jobs/shard-$cancelled.resume.out" || fail "the resumed shard printed nothing"
stamp "shard $cancelled resumed: $((now - kept)) matches played, $now in all"

# ---- 4. Merge and compare ----------------------------------------------------------------------
wait_until 120 "the merge job $merge finished" job_done "$merge"
state=$(job_tasks "$merge")
[ "$(awk '{print $2 " " $3}' <<<"$state")" = "COMPLETED 0:0" ] || fail "the merge job: $state"
sed 's/^/  merge: /' "$out/jobs/merge.out"
# Each shard's manifest has one run per start: the cancelled shard two, the first interrupted.
for i in $(seq "$shards"); do
  runs=$("$python" -c 'import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
print(" ".join("interrupted" if r["interrupted"] else "finished" for r in runs))' "$out/shards/shard-$i/shard.json") ||
    fail "shard $i: no readable shard.json"
  expected=finished
  [ "$i" -eq "$cancelled" ] && expected="interrupted finished"
  [ "$runs" = "$expected" ] || fail "shard $i: shard.json records the runs '$runs', not '$expected'"
done
"$python" "$here/check.py" compare "$out/single" "$out/merged" "$total" || fail "merged league against the single-machine one"
# The replays of the shard that was cancelled and resumed re-simulate.
for r in $(seq $((cancelled - 1)) "$shards" $((total / legs - 1))); do
  for l in $(seq 0 $((legs - 1))); do
    f=$(printf '%s/merged/replays/m%06d.jsonl' "$out" $((r * legs + l)))
    "$referee" verify "$f" >/dev/null 2>&1 || fail "referee verify $f"
  done
done
stamp "merged: the same matches and standings as the single-machine league; the resumed shard's replays verify"
echo "OK: $total matches in $shards Slurm shards (one cancelled and resumed) merged to the single-machine standings"
