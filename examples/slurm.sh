#!/bin/bash
# Sweep an archive of benchmark runs with a Slurm job array: each array
# task owns the runs whose relative path hashes to its shard, and all tasks
# write their own part files into the same output directory, which then
# reads as one Parquet dataset (pyarrow.dataset("OUT/rows"), DuckDB
# 'OUT/rows/*.parquet').
#
#   sbatch --array=0-15 examples/slurm.sh ARCHIVE OUT [sweep flags...]
#   sbatch --array=0-15 examples/slurm.sh /archive/runs /scratch/sweep-out --tokenizer words
#
# Flags after OUT go to `steadysweep sweep` after the recipe's own, so a
# single-valued one (--preset, --grid, --jobs) replaces the recipe's and a
# repeatable one (--set) adds to it. OUT need not exist.
#
# Shards: task k sweeps shard k mod N. N is the whole array's size
# (--array=0-15 and --array=1-16 both make 16 shards), recorded in
# OUT/.steadysweep-shards by the first submission; later submissions into
# the same OUT read it, so resubmitting some tasks keeps the sharding:
#
#   sbatch --array=3,7 examples/slurm.sh ARCHIVE OUT [same flags]   # redo tasks 3 and 7
#
# SHARDS=N in the environment overrides both (sbatch --export=ALL,SHARDS=16).
# Every task resumes (--resume): a resubmitted or requeued task redoes only
# what is missing (killed tasks, runs added to the archive, new grid
# values) and runs whose rows are errors (--retry-errors=false keeps them).
#
# Resources. A task analyses --jobs runs at once (= --cpus-per-task) and
# holds each in memory: about 0.7 × its uncompressed events.jsonl (a
# 378 MB log peaks at 275 MB with one job, 580 MB with two), so ask
#   --mem ≈ cpus-per-task × 0.8 × largest events.jsonl + 256M.
# The defaults below (2 CPUs, 4G, 4 h) fit the smallest nodes. A request no
# node can meet leaves the job PENDING for ever: compare it with
# `sinfo -o '%P %c %m %l'` (CPUs, MB and time limit per node), and see why
# a job waits with `squeue -j JOBID -o '%i %T %r'` (Resources,
# ReqNodeNotAvail, PartitionTimeLimit). Override at submission:
#   sbatch --array=0-15 --cpus-per-task=8 --mem=16G --time=12:00:00 examples/slurm.sh ...
#
# Log: steadysweep-<job>_<task>.log in the submission directory: a start
# line, a progress line every PROGRESS_EVERY (default 30s: runs done,
# rows, MB/s, ETA), then the summary and the runs that failed and why.
# Panic stacks go to OUT/debug-<job>_<task>.log.
#
# Environment: STEADYSWEEP (the binary, default steadysweep on PATH), GRID
# (default examples/grid.yaml; empty for none), SHARDS, PROGRESS_EVERY.
#SBATCH --job-name=steadysweep
#SBATCH --cpus-per-task=2
#SBATCH --mem=4G
#SBATCH --time=04:00:00
#SBATCH --output=steadysweep-%A_%a.log
set -euo pipefail

usage="usage: sbatch --array=0-N examples/slurm.sh ARCHIVE OUT [sweep flags...]"
ARCHIVE=${1:?$usage}
OUT=${2:?$usage}
shift 2
STEADYSWEEP=${STEADYSWEEP:-steadysweep}
GRID=${GRID-examples/grid.yaml}
mkdir -p "$OUT"

# The shard count: SHARDS, else what the first submission recorded, else
# the whole array's span (refused by steadysweep for a non-contiguous
# subset, which cannot know it).
shards_file="$OUT/.steadysweep-shards"
if [[ -n ${SLURM_ARRAY_TASK_ID:-} ]]; then
  if [[ -n ${SHARDS:-} ]]; then
    export STEADYSWEEP_SHARD_COUNT=$SHARDS
  elif [[ -s $shards_file ]]; then
    export STEADYSWEEP_SHARD_COUNT=$(<"$shards_file")
  elif [[ ${SLURM_ARRAY_TASK_COUNT:-} == $((${SLURM_ARRAY_TASK_MAX:-0} - ${SLURM_ARRAY_TASK_MIN:-0} + 1)) ]]; then
    export STEADYSWEEP_SHARD_COUNT=$SLURM_ARRAY_TASK_COUNT
    tmp=$(mktemp "$OUT/.steadysweep-shards.XXXXXX")
    echo "$STEADYSWEEP_SHARD_COUNT" >"$tmp"
    mv -f "$tmp" "$shards_file" # every task of the array writes the same N
  fi
fi

# A shared column cache lets re-runs skip decoding (safe across tasks).
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-$OUT/.cache}

args=(sweep "$ARCHIVE" -o "$OUT" --preset default,reference,total,fixed-pct,mser5
  --jobs "${SLURM_CPUS_PER_TASK:-1}" --resume --progress-every "${PROGRESS_EVERY:-30s}"
  --debug-log "$OUT/debug-${SLURM_ARRAY_JOB_ID:-${SLURM_JOB_ID:-0}}_${SLURM_ARRAY_TASK_ID:-0}.log")
[[ -n $GRID ]] && args+=(--grid "$GRID")
if [[ -n ${SLURM_ARRAY_TASK_ID:-} ]]; then
  what="task $SLURM_ARRAY_TASK_ID of job ${SLURM_ARRAY_JOB_ID:-?}: shard $SLURM_ARRAY_TASK_ID mod ${STEADYSWEEP_SHARD_COUNT:-(the array span)}"
else
  what="job ${SLURM_JOB_ID:-(none)}: unsharded"
fi
echo "$(date '+%F %T') steadysweep $what on $(hostname); $ARCHIVE -> $OUT; flags: ${*:-(none)}" >&2
exec "$STEADYSWEEP" "${args[@]}" "$@"
