#!/bin/bash
# Sweep an archive of benchmark runs with a Slurm job array: each array
# task owns the runs whose relative path hashes to its shard, and all tasks
# write their own part files into the same output directory, which then
# reads as one Parquet dataset (pyarrow.dataset("OUT/rows"), DuckDB
# 'OUT/rows/*.parquet').
#
#   sbatch --array=0-15 examples/slurm.sh /archive/runs /scratch/sweep-out
#
# The shard comes from SLURM_ARRAY_TASK_ID / SLURM_ARRAY_TASK_COUNT (an
# array starting at 1 works too: SLURM_ARRAY_TASK_MIN is subtracted).
# Re-submitting the same array with --resume redoes only what is missing
# (tasks that were killed, runs added to the archive, new grid values).
#SBATCH --job-name=steadysweep
#SBATCH --cpus-per-task=8
#SBATCH --mem=16G
#SBATCH --time=04:00:00
#SBATCH --output=steadysweep-%A_%a.log
set -euo pipefail

ARCHIVE=${1:?usage: sbatch --array=0-N examples/slurm.sh ARCHIVE OUT}
OUT=${2:?usage: sbatch --array=0-N examples/slurm.sh ARCHIVE OUT}
GRID=${GRID:-examples/grid.yaml}

# A shared column cache lets re-runs skip decoding (safe across tasks).
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-$OUT/.cache}

exec steadysweep sweep "$ARCHIVE" -o "$OUT" \
  --grid "$GRID" --preset default,reference,total,fixed-pct,mser5 \
  --jobs "${SLURM_CPUS_PER_TASK:-1}" \
  --resume \
  --debug-log "$OUT/debug-${SLURM_ARRAY_JOB_ID:-0}_${SLURM_ARRAY_TASK_ID:-0}.log"
