#!/bin/bash
# Submit the shard array and a merge job that starts when every task has succeeded.
# Run from the directory the shards and report go under (WORK and OUT are relative to
# it); SCENARIO, WORK and OUT pass to the jobs through the environment.
set -euo pipefail
here=$(dirname "$0")
array=$(sbatch --parsable --export=ALL "$here/shard.sbatch")
sbatch --export=ALL --dependency="afterok:${array%%;*}" "$here/merge.sbatch"
