#!/bin/bash
# A build search on Slurm, one job array per stage of the race (docs/search.md, "A search
# in shards"). Each stage is an array whose tasks play one share each of the candidates
# still in the race (volley reads its share from SLURM_ARRAY_TASK_ID and the array's
# size), then a merge job that runs once every task succeeded. The merge writes either a
# state directory, from which the next stage's array resumes, or, when the race is over,
# the search's report. The script waits for each stage's merge (sbatch --wait) before it
# submits the next array, since the survivors are known only then.
#
#   SEARCH="--field meta --unit Dwarf --top 5 --trials 200" \
#       scenarios/cluster/slurm/search.sh --array=1-20 --cpus-per-task=4
#
# SEARCH holds the search's flags (after `volley search`, split on spaces); WORK is where
# the stages' shards, states and logs go (default reports/search-work); OUT is the report
# (default reports/search); VOLLEY the binary (default volley). Options given to search.sh
# go to every stage's array sbatch, before search-stage.sbatch, so they override its
# #SBATCH lines. Run it from the directory WORK and OUT are relative to. It prints each
# stage's line and, at the end, the search's output (the last merge's).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${SEARCH:?set SEARCH to the search flags, e.g. SEARCH=\"--field meta --unit Dwarf\"}"
: "${WORK:=reports/search-work}"
: "${OUT:=reports/search}"
: "${VOLLEY:=volley}"
[ ! -e "$OUT" ] || { echo "search.sh: $OUT exists: move it away first" >&2; exit 2; }
mkdir -p "$WORK"
state=""
for stage in $(seq 1 20); do
    shards=$WORK/stage-$stage
    merged=$WORK/merged-$stage
    [ ! -e "$shards" ] && [ ! -e "$merged" ] || { echo "search.sh: $shards or $merged exists: empty $WORK first" >&2; exit 2; }
    mkdir -p "$shards"
    array=$(STAGE_DIR=$shards STATE=$state SEARCH=$SEARCH VOLLEY=$VOLLEY \
        sbatch --parsable --export=ALL --output="$WORK/search-$stage-%A_%a.log" "$@" "$here/search-stage.sbatch")
    array=${array%%;*}
    # The merge: after every task of the array succeeded; never, if one failed.
    sbatch --parsable --wait --export=ALL --dependency="afterok:$array" --kill-on-invalid-dep=yes \
        --job-name=volley-search-merge --cpus-per-task=2 --mem=4G --time=00:30:00 \
        --output="$WORK/merge-$stage.log" \
        --wrap="$VOLLEY merge $shards/shard-* --out $merged --quiet" > /dev/null \
        || { echo "search.sh: stage $stage (array $array) or its merge failed: see $WORK/*-$stage*.log" >&2; exit 1; }
    if [ -f "$merged/search-state.json" ]; then
        echo "stage $stage: merged into $merged (array $array)"
        state=$merged
    else
        mv "$merged" "$OUT"
        echo "stage $stage: the race is over; report in $OUT (array $array)"
        cat "$WORK/merge-$stage.log"
        exit 0
    fi
done
echo "search.sh: no report after 20 stages" >&2
exit 1
