#!/bin/bash
# Submit the shard array and a merge job that starts when every task has succeeded.
# Run from the directory the shards and report go under (WORK and OUT are relative to
# it); SCENARIO, WORK and OUT pass to the jobs through the environment.
#
# Options given to submit.sh go to the array's sbatch, before shard.sbatch, so they
# override its #SBATCH lines (the array's size, the CPUs of a shard, a partition):
#
#   scenarios/cluster/slurm/submit.sh --array=1-50 --cpus-per-task=8
#
# For options of both jobs use sbatch's input environment (SBATCH_PARTITION,
# SBATCH_ACCOUNT, ...). It prints the two job ids, the array's first.
set -euo pipefail
here=$(dirname "$0")
array=$(sbatch --parsable --export=ALL "$@" "$here/shard.sbatch")
array=${array%%;*}
echo "Submitted batch job $array (the shard array)"
merge=$(sbatch --parsable --export=ALL --dependency="afterok:$array" "$here/merge.sbatch")
echo "Submitted batch job ${merge%%;*} (the merge, after every shard succeeded)"
