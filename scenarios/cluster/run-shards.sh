#!/bin/sh
# Every shard of a sweep as its own process on this machine (JOBS at a time), then the
# merge: the plain-loop version of the Slurm and Kubernetes recipes beside it.
#
#   SHARDS=8 JOBS=2 scenarios/cluster/run-shards.sh
#
# Settings (environment): VOLLEY (the binary, default volley on PATH), SCENARIO (default
# scenarios/cluster/cluster.toml), SHARDS (default 8), JOBS (shards at once, default 1;
# each shard uses every core unless VOLLEY_THREADS is set), WORK (shard directories,
# default reports/cluster-shards), OUT (the report, default reports/cluster).
set -eu
VOLLEY=${VOLLEY:-volley}
SCENARIO=${SCENARIO:-scenarios/cluster/cluster.toml}
SHARDS=${SHARDS:-8}
JOBS=${JOBS:-1}
WORK=${WORK:-reports/cluster-shards}
OUT=${OUT:-reports/cluster}
THREADS=${VOLLEY_THREADS:+--threads $VOLLEY_THREADS}
# xargs fails when any shard fails; a failed shard leaves no directory, so the merge
# below would name it as missing.
seq 1 "$SHARDS" | xargs -P "$JOBS" -I {} "$VOLLEY" sweep "$SCENARIO" --shard "{}/$SHARDS" --out "$WORK/shard-{}" --quiet $THREADS
"$VOLLEY" merge "$WORK"/shard-* --out "$OUT"
