#!/usr/bin/env bash
# Count n-queens solutions on Grid Engine (Son of Grid Engine, Open Grid Scheduler, Altair Grid
# Engine): an array job of K shards, then a merge job that waits for it (-hold_jid) and writes
# DIR/result.txt only when every shard is there and belongs.
#
# Submit from a submit host (nqueens on the PATH of the execution hosts, the current directory
# on a file system they share):
#
#     N=20 SHARDS=8 bash count.sh
#     N=20 SHARDS=8 ARRAY=3 bash count.sh        # count task 3 again (it resumes), then merge
#     N=20 SHARDS=8 bash count.sh -q long.q -P proj   # any other qsub options, for both jobs
#
# Settings (environment): N (default 21), SHARDS (K, default 8), DIR (default nqueens-nN-kK),
# ARRAY (indices to submit, qsub -t syntax: 3 or 2-5; default 1-K). Each task runs on the slots
# Grid Engine grants it (NSLOTS; ask for more with your site's parallel environment, -pe smp T).
#
# Each task counts shard SGE_TASK_ID of SHARDS, named explicitly (--shard I/K), so that a task
# submitted again alone (-t 3) is still shard 3 of K; it keeps a checkpoint, so a task killed or
# resubmitted resumes where it stopped, and a second copy of a task still running is refused.
# Everything lands in DIR: shard-I.json, shard-I.ckpt, shard-I.log, merge.log and result.txt.
#$ -S /bin/bash
#$ -cwd
#$ -j y
set -euo pipefail

N=${N:-21}
SHARDS=${SHARDS:-8}
DIR=${DIR:-nqueens-n$N-k$SHARDS}

if [[ -z "${SGE_TASK_ID:-}" || "${SGE_TASK_ID}" == undefined ]]; then
    # On the submit host: the array, then the merge that waits for it.
    script=$(realpath "$0")
    mkdir -p "$DIR"
    rm -f "$DIR/result.txt"
    jid=$(qsub -terse -N nqueens -t "${ARRAY:-1-$SHARDS}" -o "$DIR/shard-\$TASK_ID.log" \
        -v "N=$N,SHARDS=$SHARDS,DIR=$DIR" "$@" "$script")
    jid=${jid%%.*}
    d=$(printf %q "$DIR")
    qsub -terse -N nqueens-merge -hold_jid "$jid" -cwd -o "$DIR/merge.log" -j y -b y "$@" \
        /bin/sh -c "'nqueens merge $d > $d/result.txt.tmp && mv $d/result.txt.tmp $d/result.txt \
        || { s=\$?; rm -f $d/result.txt.tmp; echo \"the merge failed: count the missing shards \
        again with N=$N SHARDS=$SHARDS ARRAY=<indices> bash $script\" >&2; exit \$s; }'" > /dev/null
    echo "submitted array job $jid (tasks ${ARRAY:-1-$SHARDS} of $SHARDS, n = $N); the count will be in $DIR/result.txt"
    exit 0
fi

# In a task: shard SGE_TASK_ID of SHARDS on the slots granted.
exec nqueens count "$N" --shard "$SGE_TASK_ID/$SHARDS" -j "${NSLOTS:-1}" --progress=60 \
    --checkpoint "$DIR/shard-$SGE_TASK_ID.ckpt" \
    --output "$DIR/shard-$SGE_TASK_ID.json"
