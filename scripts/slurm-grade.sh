#!/usr/bin/env bash
# Grades a class on a Slurm cluster: a job array with one `arbiter grade --shard K/N` per task,
# then a merge job that runs only when every task succeeded (--dependency=afterok), writing
# REPORTS/gradebook.csv. REPORTS must be on a file system every node sees (each shard writes
# its own submissions' folders, gradebook-K-of-N.csv and shard-K-of-N.json there).
#
#   scripts/slurm-grade.sh --shards 10 --reports /shared/out [--arbiter PATH] [--wait]
#       [--sbatch-option OPT]... -- --corpus /shared/corpus --games 10 /shared/class/*
#
# Everything after `--` is passed to `arbiter grade` as it is. Prints the two job ids. With
# --wait it returns when the merge job ends, with its status. A failed shard cancels the merge
# job (afterok, --kill-on-invalid-dep): rerun the failed task's command from its log (a rerun
# skips what is already graded), then `arbiter merge REPORTS --csv REPORTS/gradebook.csv`.
set -euo pipefail

usage() { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

shards="" reports="" arbiter="" wait=0 opts=()
while [ $# -gt 0 ]; do
  case "$1" in
    --shards) shards="${2:?}"; shift 2 ;;
    --reports) reports="${2:?}"; shift 2 ;;
    --arbiter) arbiter="${2:?}"; shift 2 ;;
    --sbatch-option) opts+=("${2:?}"); shift 2 ;;
    --wait) wait=1; shift ;;
    --) shift; break ;;
    -h|--help) usage ;;
    *) echo "slurm-grade: unknown option $1" >&2; usage ;;
  esac
done
[ -n "$shards" ] && [ -n "$reports" ] && [ $# -gt 0 ] || usage
case "$shards" in ''|*[!0-9]*|0) echo "slurm-grade: --shards must be a whole number from 1" >&2; exit 2 ;; esac
arbiter="${arbiter:-$(command -v arbiter || true)}"
[ -x "$arbiter" ] || { echo "slurm-grade: no arbiter binary (give --arbiter PATH)" >&2; exit 2; }
arbiter="$(cd "$(dirname "$arbiter")" && pwd)/$(basename "$arbiter")"
mkdir -p "$reports/slurm-logs"
reports="$(cd "$reports" && pwd)"

# The grade arguments, quoted once for the job script.
grade_args=$(printf ' %q' "$@")

array_id=$(sbatch --parsable "${opts[@]}" --job-name=arbiter-grade --array="1-$shards" \
  --output="$reports/slurm-logs/shard-%a-of-$shards.log" <<JOB
#!/bin/sh
exec $(printf %q "$arbiter") grade --reports $(printf %q "$reports") --shard "\$SLURM_ARRAY_TASK_ID/$shards"$grade_args
JOB
)
array_id="${array_id%%;*}"

wait_opt=()
[ "$wait" = 1 ] && wait_opt=(--wait)
merge_id=$(sbatch --parsable "${wait_opt[@]}" "${opts[@]}" --job-name=arbiter-merge \
  --dependency="afterok:$array_id" --kill-on-invalid-dep=yes \
  --output="$reports/slurm-logs/merge.log" <<JOB
#!/bin/sh
exec $(printf %q "$arbiter") merge $(printf %q "$reports") --require-complete --csv $(printf %q "$reports/gradebook.csv")
JOB
) || { status=$?; echo "slurm-grade: the merge job failed (see $reports/slurm-logs/)" >&2; exit "$status"; }
merge_id="${merge_id%%;*}"
echo "shards: job $array_id (array 1-$shards), merge: job $merge_id"
echo "gradebook: $reports/gradebook.csv once job $merge_id has finished"
