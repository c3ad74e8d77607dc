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
# ARRAY (indices to submit: 3, 2-5 or a list of them, 3,5-7; default 1-K). Each task runs on the slots
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

# The merge job's command, one line of POSIX shell with no single quote (Grid Engine joins a
# binary job's words and a shell reads them, inside the quotes given there). result.txt appears
# only when the merge succeeds; a failed merge leaves only what to do next: the indices whose
# results are missing, and the command that counts them and merges again, with the run's folder
# and this script (`$1`) by their full paths, so that it runs from anywhere.
merge() {
    local d again full
    d=$(printf %q "$DIR")
    case "$DIR" in /*) full=$DIR ;; *) full=$PWD/$DIR ;; esac
    again="N=$N SHARDS=$SHARDS DIR=$(printf %q "$full")"
    printf '%s' "cd $(printf %q "$PWD") || exit 1; " \
        "if nqueens merge $d > $d/result.txt.tmp; then mv $d/result.txt.tmp $d/result.txt; " \
        "else s=\$?; rm -f $d/result.txt.tmp; m=; i=1; " \
        "while [ \$i -le $SHARDS ]; do [ -f $d/shard-\$i.json ] || m=\$m\$i,; i=\$((i + 1)); done; m=\${m%,}; " \
        "if [ -n \"\$m\" ]; then echo \"the merge failed; count the missing shards (\$m) and merge again with: $again ARRAY=\$m bash $(printf %q "$1")\" >&2; " \
        "else echo \"the merge failed (see above); once mended, merge again with: nqueens merge $(printf %q "$full") > $(printf %q "$full")/result.txt\" >&2; fi; " \
        "exit \$s; fi"
}

if [[ -z "${SGE_TASK_ID:-}" || "${SGE_TASK_ID}" == undefined ]]; then
    # On the submit host: the array, then the merge that waits for it. ARRAY may list ranges
    # (3,5-7, as the merge's advice does): qsub -t takes one range, so each is an array job of
    # its own, and the merge waits for them all.
    script=$(realpath "$0")
    mkdir -p "$DIR"
    rm -f "$DIR/result.txt"
    jids=()
    IFS=, read -ra ranges <<< "${ARRAY:-1-$SHARDS}"
    for range in "${ranges[@]}"; do
        jid=$(qsub -terse -N nqueens -t "$range" -o "$DIR/shard-\$TASK_ID.log" \
            -v "N=$N,SHARDS=$SHARDS,DIR=$DIR" "$@" "$script")
        jids+=("${jid%%.*}")
    done
    held=$(IFS=,; echo "${jids[*]}")
    qsub -terse -N nqueens-merge -hold_jid "$held" -cwd -o "$DIR/merge.log" -j y -b y "$@" \
        /bin/sh -c "'$(merge "$script")'" > /dev/null
    echo "submitted array job $held (tasks ${ARRAY:-1-$SHARDS} of $SHARDS, n = $N); the count will be in $DIR/result.txt"
    exit 0
fi

# In a task: shard SGE_TASK_ID of SHARDS on the slots granted.
exec nqueens count "$N" --shard "$SGE_TASK_ID/$SHARDS" -j "${NSLOTS:-1}" --progress=60 \
    --checkpoint "$DIR/shard-$SGE_TASK_ID.ckpt" \
    --output "$DIR/shard-$SGE_TASK_ID.json"
