#!/bin/bash
# Runs examples/slurm.sh for real on a one-node Slurm cluster started from
# Debian's packages on this machine, and prints one line:
#
#   slurm-check: OK — …        (exit 0)
#   slurm-check: FAIL — …      (exit 1; everything is kept in WORKDIR)
#
#   sudo examples/slurm-check.sh [WORKDIR]      # from a clone; WORKDIR default: a new /tmp/slurm-check.*
#
# For a fresh Debian 12 machine with Go (≥ 1.26) and Node (≥ 18, npm);
# run as root: it installs slurm-wlm and munge with apt-get (one update)
# when they are missing, writes /etc/slurm/slurm.conf for this node (its
# real CPU count and memory; it refuses to replace a slurm.conf it did not
# write), starts munged, slurmctld and slurmd on the loopback address, and
# stops what it started when it ends (KEEP_CLUSTER=1 leaves them running).
# Not run by CI. It checks, on a synthesized archive:
#
#   1. the recipe as documented — sbatch --array=0-3 examples/slurm.sh
#      ARCHIVE OUT --tokenizer words, OUT not existing yet, the recipe's own
#      resource defaults — completes every task, each log showing progress
#      lines and a summary;
#   2. the shards' rows and series equal an unsharded sweep's (DuckDB, via
#      @duckdb/node-api installed into WORKDIR: EXCEPT ALL both ways empty,
#      same counts; the timing columns analysis_ns and ingest_ns excepted);
#   3. resubmitting a subset (--array=1,3) keeps the sharding and changes
#      nothing (same part files, same rows);
#   4. into a fresh OUT, task 1's sweep killed with SIGKILL and task 2
#      cancelled (scancel: SIGTERM), each once it has finished a run, then
#      --array=1,2 resubmitted: equal to the unsharded sweep again, with no
#      temporaries left.
set -Eeuo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
WORK=${1:-$(mktemp -d /tmp/slurm-check.XXXXXX)}
mkdir -p "$WORK"/{bin,logs,slurm,node}
WORK=$(cd "$WORK" && pwd)
LOG=$WORK/check.log
: >"$LOG"
started=() # "name pidfile" of the daemons this script started

say() { echo "slurm-check: $*" >&2; echo "== $*" >>"$LOG"; }
fail() {
  if [[ $BASHPID != "$$" ]]; then # in a command substitution: the caller reports
    echo "(in a subshell) $*" >>"$LOG"
    exit 1
  fi
  trap - ERR
  echo "slurm-check: FAIL — $* (details: $LOG, $WORK)"
  exit 1
}
trap 'fail "line $LINENO: $BASH_COMMAND"' ERR

stop_started() {
  [[ ${KEEP_CLUSTER:-0} == 1 ]] && return
  for ((i = ${#started[@]} - 1; i >= 0; i--)); do
    local pidfile=${started[i]#* } pid
    pid=$(cat "$pidfile" 2>/dev/null || true)
    [[ -n $pid ]] && kill "$pid" 2>/dev/null || true
  done
}
trap stop_started EXIT

[[ $(id -u) == 0 ]] || fail "run as root (apt-get, and the Slurm and munge daemons)"
for tool in go node npm; do
  command -v "$tool" >/dev/null || fail "needs $tool on PATH"
done

# --- the cluster -----------------------------------------------------------
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
  say "installing slurm-wlm and munge from Debian"
  apt-get update >>"$LOG" 2>&1
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends slurm-wlm munge >>"$LOG" 2>&1
fi

if [[ ! -s /etc/munge/munge.key ]]; then
  mungekey --create --keyfile=/etc/munge/munge.key >>"$LOG" 2>&1
  chown munge:munge /etc/munge/munge.key
  chmod 0400 /etc/munge/munge.key
fi
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  say "starting munged"
  install -d -o munge -g munge -m 0755 /run/munge
  runuser -u munge -- /usr/sbin/munged >>"$LOG" 2>&1
  started+=("munged /run/munge/munged.pid")
  for _ in $(seq 50); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.1; done
  munge -n | unmunge >/dev/null || fail "munged does not answer"
fi

node=$(hostname -s)
cpus=$(nproc)
mem_mb=$(awk '/^MemTotal:/ {print int($2 / 1024)}' /proc/meminfo)
if [[ -r /sys/fs/cgroup/memory.max ]] && [[ $(cat /sys/fs/cgroup/memory.max) != max ]]; then
  mem_mb=$(( $(cat /sys/fs/cgroup/memory.max) / 1048576 < mem_mb ? $(cat /sys/fs/cgroup/memory.max) / 1048576 : mem_mb ))
fi
conf=/etc/slurm/slurm.conf
marker="# written by steadysweep examples/slurm-check.sh"
if [[ -e $conf ]] && ! grep -qxF "$marker" "$conf"; then
  fail "$conf exists and was not written by this script; not replacing it (run on a fresh machine)"
fi
S=$WORK/slurm
mkdir -p "$S"/{ctld,d} /etc/slurm
cat >"$conf" <<EOF
$marker
ClusterName=steadysweep-check
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$S/ctld
SlurmdSpoolDir=$S/d
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/slurmctld.log
SlurmdLogFile=$S/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
KillWait=10
MinJobAge=3600
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=check Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
say "slurm.conf: node $node, $cpus CPUs, $mem_mb MB; starting slurmctld and slurmd"
slurmctld -c >>"$LOG" 2>&1
started+=("slurmctld $S/slurmctld.pid")
slurmd >>"$LOG" 2>&1
started+=("slurmd $S/slurmd.pid")
for _ in $(seq 60); do
  [[ $(sinfo -h -N -o '%T' 2>/dev/null) == idle ]] && break
  sleep 1
done
[[ $(sinfo -h -N -o '%T') == idle ]] || fail "node $node is $(sinfo -h -N -o '%T %E'), not idle"
sinfo -N -o '%N %T %c %m' >>"$LOG"

# --- steadysweep, an archive, the unsharded reference ---------------------
say "building steadysweep, synthesizing the archive"
BIN=$WORK/bin/steadysweep
(cd "$REPO" && go build -o "$BIN" ./cmd/steadysweep) >>"$LOG" 2>&1
ARCH=$WORK/archive
rm -rf "$ARCH"
presets=(clean_ramp poisson_steady late_staircase noisy drift_up ramp_only truncated partial_dataset)
for i in $(seq 0 19); do
  "$BIN" synth --out "$ARCH/r$i" --preset "${presets[i % ${#presets[@]}]}" --dataset-size 2000 --seed "$i" >>"$LOG" 2>&1
done
FLAGS=(--tokenizer words)

say "unsharded sweep (the recipe without an array)"
(cd "$REPO" && env -u SLURM_ARRAY_TASK_ID -u SLURM_JOB_ID STEADYSWEEP="$BIN" \
  bash examples/slurm.sh "$ARCH" "$WORK/whole" "${FLAGS[@]}") >"$WORK/logs/whole.log" 2>&1

say "installing @duckdb/node-api"
(cd "$WORK/node" && npm install --no-audit --no-fund --loglevel=error @duckdb/node-api) >>"$LOG" 2>&1
cat >"$WORK/node/compare.mjs" <<'EOF'
// node compare.mjs A B: the rows and series of sweep outputs A and B are
// the same multisets (timing columns excepted). Prints a summary; exit 1
// when they differ or are empty.
import { DuckDBInstance } from '@duckdb/node-api';
const [a, b] = process.argv.slice(2);
const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
let ok = true;
const parts = [];
for (const [table, except] of [['rows', ' EXCLUDE (analysis_ns, ingest_ns)'], ['series', '']]) {
  const sel = (d) => `SELECT *${except} FROM read_parquet('${d}/${table}/*.parquet')`;
  const r = await c.runAndReadAll(`SELECT (SELECT count(*) FROM (${sel(a)})), (SELECT count(*) FROM (${sel(b)})),
    (SELECT count(*) FROM (${sel(a)} EXCEPT ALL ${sel(b)})), (SELECT count(*) FROM (${sel(b)} EXCEPT ALL ${sel(a)}))`);
  const [na, nb, ab, ba] = r.getRows()[0].map(Number);
  parts.push(`${table} ${na}/${nb}, A−B ${ab}, B−A ${ba}`);
  ok &&= na === nb && na > 0 && ab === 0 && ba === 0;
}
console.log(parts.join('; '));
process.exit(ok ? 0 : 1);
EOF
compare() { node "$WORK/node/compare.mjs" "$1" "$2" 2>>"$LOG"; }

# --- submissions ----------------------------------------------------------
submit() { # OUT ARRAY → job id
  (cd "$REPO" && sbatch --parsable --array="$2" --output="$WORK/logs/%A_%a.log" \
    --export=ALL,STEADYSWEEP="$BIN",PROGRESS_EVERY=1s examples/slurm.sh "$ARCH" "$1" "${FLAGS[@]}")
}
state() { scontrol -o show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -1; }
wait_job() { # JOB [seconds]
  local t=0
  while squeue -h -j "$1" 2>/dev/null | grep -q .; do
    ((t++ < ${2:-900})) || fail "job $1 still queued after ${2:-900} s: $(squeue -h -j "$1" -o '%i %T %r' | tr '\n' ' ')"
    sleep 1
  done
}
all_completed() { # JOB IDS...
  local job=$1 id s
  shift
  for id in "$@"; do
    s=$(state "${job}_$id")
    [[ $s == COMPLETED ]] || fail "task ${job}_$id ended $s, not COMPLETED (log $WORK/logs/${job}_$id.log)"
  done
}
listing() { (cd "$1" && find rows series -type f | sort | xargs sha256sum); }

OUT=$WORK/out # not created: the recipe must make it
say "submitting --array=0-3 into a fresh OUT"
job=$(submit "$OUT" 0-3)
wait_job "$job"
all_completed "$job" 0 1 2 3
for id in 0 1 2 3; do
  l=$WORK/logs/${job}_$id.log
  grep -q "steadysweep task $id of job $job" "$l" || fail "task $id log has no start line"
  grep -q " progress: " "$l" || fail "task $id log has no progress line ($l)"
  grep -q "runs × .* configs" "$l" || fail "task $id log has no summary ($l)"
done
union=$(compare "$OUT" "$WORK/whole") || fail "shards' union ≠ unsharded: $union"
say "union = unsharded: $union"

say "resubmitting --array=1,3"
before=$(listing "$OUT")
job2=$(submit "$OUT" 1,3)
wait_job "$job2"
all_completed "$job2" 1 3
grep -q "mod 4" "$WORK/logs/${job2}_3.log" || fail "resubmitted task 3 did not keep 4 shards"
[[ $(listing "$OUT") == "$before" ]] || fail "resubmitting 1,3 changed the part files"
again=$(compare "$OUT" "$WORK/whole") || fail "after resubmitting 1,3: $again"

OUT2=$WORK/out-killed
say "--array=0-3 into a fresh OUT, task 1 SIGKILLed and task 2 cancelled mid-way"
job3=$(submit "$OUT2" 0-3)
kill_midway() { # ID KILL|TERM: once the task has finished a run, SIGKILL its sweep or scancel it (SIGTERM)
  local id=$1 how=$2 l=$WORK/logs/${job3}_$1.log t=0 jid pid p
  until [[ $(state "${job3}_$id") == RUNNING ]] && grep -qE ' progress: [1-9][0-9]*/[0-9]+ runs' "$l" 2>/dev/null; do
    [[ $(state "${job3}_$id") =~ ^(PENDING|RUNNING)$ ]] || fail "task $id ended $(state "${job3}_$id") before it could be killed (make the archive bigger)"
    ((t++ < 6000)) || fail "task $id never showed progress"
    sleep 0.1
  done
  if [[ $how == KILL ]]; then
    # scancel --signal=KILL is a plain cancel (SIGTERM first): kill the
    # sweep itself, a process of this node.
    jid=$(squeue -h -j "${job3}_$id" -o %A)
    pid=
    for p in $(scontrol listpids "$jid" | awk 'NR > 1 {print $1}'); do
      [[ $(ps -o comm= -p "$p" 2>/dev/null) == steadysweep ]] && pid=$p
    done
    [[ -n $pid ]] || fail "no steadysweep process in job $jid"
    kill -KILL "$pid"
  else
    scancel "${job3}_$id"
  fi
  grep ' progress: ' "$l" | tail -1 >>"$LOG"
}
kill_midway 1 KILL
kill_midway 2 TERM
wait_job "$job3"
all_completed "$job3" 0 3
for id in 1 2; do
  s=$(state "${job3}_$id")
  [[ $s == COMPLETED ]] && fail "task $id completed although killed"
  echo "task $id: $s" >>"$LOG"
done
if cut=$(compare "$OUT2" "$WORK/whole"); then fail "the killed tasks lost nothing: not killed mid-way ($cut)"; fi
temps=$(find "$OUT2/rows" "$OUT2/series" -name '.*.tmp' | wc -l)
say "after the kills: $cut; $temps temporaries left"
job4=$(submit "$OUT2" 1,2)
wait_job "$job4"
all_completed "$job4" 1 2
resumed=$(compare "$OUT2" "$WORK/whole") || fail "killed + resubmitted ≠ unsharded: $resumed"
stray=$(find "$OUT2/rows" "$OUT2/series" -name '.*' | head -3)
[[ -z $stray ]] || fail "temporaries left: $stray"

echo "slurm-check: OK — Slurm $(sinfo -V | awk '{print $2}'), 1 node ($cpus CPUs, $mem_mb MB); --array=0-3 into a fresh OUT = unsharded ($union); resubmitted 1,3: no change; tasks 1 (SIGKILL) and 2 (SIGTERM) killed after a run ($cut; $temps temporaries) + resubmitted 1,2 = unsharded ($resumed)"
