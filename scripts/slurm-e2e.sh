#!/usr/bin/env bash
# End-to-end check of the Slurm recipe (scenarios/cluster/slurm) on a real scheduler: a
# one-node Slurm cluster on this machine runs submit.sh's shard array and merge job on a
# small scenario, and the merged report must equal a single `volley sweep` of the same
# scenario: every CSV file byte for byte and every Parquet table cell for cell (what
# tests/cli/shard.rs compares; manifest.json differs in timings and `merged_from`).
#
# Usage (as root, on Debian 12 or a machine like it):  scripts/slurm-e2e.sh
#
# It installs Slurm and munge from the distribution's packages (`slurm-wlm`, `munge`)
# when they are missing, without starting their system services, then starts its own
# munged, slurmctld and slurmd with their configuration, key, sockets, spool and logs all
# in E2E_DIR (nothing under /etc is touched) and stops them again on any exit. Each run
# starts from an empty E2E_DIR, so it can be run again; after a run E2E_DIR keeps the
# logs, the shards and both reports for a look.
#
# The cluster is this machine's CPUs, so the array runs with fewer, smaller tasks than
# shard.sbatch asks for real clusters (--array=1-1000, --cpus-per-task=4): the e2e passes
# --array and --cpus-per-task to submit.sh, which hands them to the array's sbatch (they
# override the #SBATCH lines; the scripts themselves are unchanged).
#
# Environment:
#   VOLLEY       the volley binary to run (default: `cargo build --release --locked` here
#                and target/release/volley, or $CARGO_TARGET_DIR/release/volley)
#   E2E_DIR      working directory (default /tmp/volley-slurm-e2e; emptied first, so it
#                must be new, empty or one of an earlier run)
#   E2E_SKIP_WITHOUT_SLURM  when 1: a machine where Slurm cannot be had (not root, or
#                apt-get cannot install it) ends the check with a SKIPPED line and exit
#                0 instead of failing; every failure once Slurm is installed still fails
#   E2E_SHARDS   array tasks (default 4)
#   E2E_CPUS     --cpus-per-task of a shard (default 1)
#   E2E_TIMEOUT  seconds to wait for the array and the merge (default 600)
#   E2E_PORT     slurmctld's port; slurmd uses the next one (default 16817: not Slurm's
#                own 6817/6818, so a Slurm already running here is left alone)
#
# Exit status: 0 when the merged report equals the single run, 1 on any failure (with
# the job logs and the daemons' logs printed), 2 on a usage error.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
E2E_DIR=${E2E_DIR:-/tmp/volley-slurm-e2e}
E2E_SHARDS=${E2E_SHARDS:-4}
E2E_CPUS=${E2E_CPUS:-1}
E2E_TIMEOUT=${E2E_TIMEOUT:-600}
E2E_PORT=${E2E_PORT:-16817}

say() { printf 'slurm-e2e: %s\n' "$*"; }
die() {
    say "FAILED: $*" >&2
    exit 1
}

# Slurm cannot be had on this machine: fail, or with E2E_SKIP_WITHOUT_SLURM=1 say so
# loudly and end the check.
no_slurm() {
    if [ "${E2E_SKIP_WITHOUT_SLURM:-0}" = 1 ]; then
        say "SKIPPED: $* (E2E_SKIP_WITHOUT_SLURM=1)" >&2
        exit 0
    fi
    die "$*"
}

if [ "$(id -u)" != 0 ]; then
    [ "${E2E_SKIP_WITHOUT_SLURM:-0}" = 1 ] && no_slurm "not root: cannot install packages or start slurmd"
    say "run it as root (it installs packages and starts slurmd)" >&2
    exit 2
fi
for v in E2E_SHARDS E2E_CPUS E2E_TIMEOUT E2E_PORT; do
    [[ ${!v} =~ ^[1-9][0-9]*$ ]] || { say "$v must be a positive integer, not '${!v}'" >&2; exit 2; }
done
case $E2E_DIR in
    /*) ;;
    *) E2E_DIR=$PWD/$E2E_DIR ;;
esac
while [[ $E2E_DIR == */ && $E2E_DIR != / ]]; do E2E_DIR=${E2E_DIR%/}; done
[ "$E2E_DIR" != / ] || { say "E2E_DIR must not be /" >&2; exit 2; }
# It is emptied first: only a directory of an earlier run (with its marker) or an empty one.
if [ -d "$E2E_DIR" ] && [ ! -e "$E2E_DIR/.slurm-e2e" ] && [ -n "$(ls -A "$E2E_DIR")" ]; then
    say "E2E_DIR=$E2E_DIR holds files of something else: give an empty or new directory" >&2
    exit 2
fi

# Nothing from the caller's environment may steer the jobs or pick a shard: no Slurm or
# sbatch settings of another cluster, no shard variables in the single run.
while read -r v; do unset "$v"; done < <(compgen -e | grep -E '^(SLURM|SBATCH|SALLOC|SRUN)_' || true)
unset JOB_COMPLETION_INDEX VOLLEY_SHARDS

# One run at a time per E2E_DIR (the lock file sits beside it).
exec 9> "$E2E_DIR.lock"
flock -n 9 || { say "another run is using $E2E_DIR" >&2; exit 1; }

# --- Daemons: started here, stopped on every exit ------------------------------------
pids=()      # munged, slurmctld, slurmd, in start order
jobs_ids=()  # the jobs submitted, cancelled if still there on exit
policy_rc=""

cleanup() {
    local status=$?
    set +e
    if [ ${#jobs_ids[@]} -gt 0 ] && squeue -h -j "$(IFS=,; echo "${jobs_ids[*]}")" 2>/dev/null | grep -q .; then
        scancel "${jobs_ids[@]}" 2>/dev/null
        for _ in $(seq 30); do
            squeue -h 2>/dev/null | grep -q . || break
            sleep 1
        done
    fi
    local i pid
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
        pid=${pids[i]}
        kill -TERM "$pid" 2>/dev/null || continue
        for _ in $(seq 50); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.2
        done
        kill -KILL "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    done
    if [ ${#pids[@]} -gt 0 ]; then
        rm -f "$E2E_DIR"/pids/*
        say "stopped the daemons it started (pids ${pids[*]})"
    fi
    [ -z "$policy_rc" ] || rm -f "$policy_rc"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# A previous run that was killed before its trap ran may have left its jobs and daemons:
# stop those (only processes whose command line names this E2E_DIR), then start afresh.
left_by_earlier_run() { # NAME: the pid of that daemon of an earlier run, if still running
    local pid
    pid=$(cat "$E2E_DIR/pids/$1" 2>/dev/null) || return 1
    [[ $pid =~ ^[0-9]+$ ]] && { tr '\0' ' ' < "/proc/$pid/cmdline"; } 2>/dev/null | grep -qF "$E2E_DIR/" && echo "$pid"
}
if left_by_earlier_run slurmctld > /dev/null && command -v scancel > /dev/null; then
    SLURM_CONF=$E2E_DIR/slurm.conf timeout 20 scancel --user=root 2>/dev/null && sleep 2 || true
fi
for d in slurmd slurmctld munged; do
    pid=$(left_by_earlier_run "$d") || continue
    say "stopping $d (pid $pid) left by an earlier run"
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 50); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.2
    done
    kill -KILL "$pid" 2>/dev/null || true
done
rm -rf "$E2E_DIR"
mkdir -p "$E2E_DIR"/{bin,pids,log,munge,ctld,slurmd,jobs}
touch "$E2E_DIR/.slurm-e2e"
chmod 755 "$E2E_DIR" "$E2E_DIR/munge"   # munged wants its socket's directories searchable by all

start=$SECONDS

# --- Packages ------------------------------------------------------------------------
missing=()
for c in sbatch squeue scontrol scancel sinfo slurmctld slurmd munged mungekey munge unmunge; do
    command -v "$c" > /dev/null || missing+=("$c")
done
if [ ${#missing[@]} -gt 0 ]; then
    say "installing slurm-wlm and munge (missing: ${missing[*]})"
    # Their system services are not started: this script runs daemons of its own.
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        policy_rc=/usr/sbin/policy-rc.d
        printf '#!/bin/sh\nexit 101\n' > "$policy_rc"
        chmod 755 "$policy_rc"
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q > "$E2E_DIR/log/apt.log" 2>&1 \
        && apt-get install -y -q --no-install-recommends slurm-wlm munge >> "$E2E_DIR/log/apt.log" 2>&1 \
        || { tail -n 30 "$E2E_DIR/log/apt.log" >&2; [ -z "$policy_rc" ] || rm -f "$policy_rc"; no_slurm "apt-get could not install slurm-wlm and munge"; }
    [ -z "$policy_rc" ] || { rm -f "$policy_rc"; policy_rc=""; }
fi

# --- volley --------------------------------------------------------------------------
if [ -n "${VOLLEY:-}" ]; then
    bin=$(command -v "$VOLLEY" || true)
    if [ -z "$bin" ] || [ ! -x "$bin" ]; then die "VOLLEY=$VOLLEY is not an executable"; fi
else
    say "building volley (cargo build --release --locked)"
    (cd "$root" && cargo build --release --locked) || die "cargo build failed"
    target=${CARGO_TARGET_DIR:-target}
    case $target in /*) ;; *) target=$root/$target ;; esac
    bin=$target/release/volley
fi
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
ln -s "$bin" "$E2E_DIR/bin/volley"
export PATH="$E2E_DIR/bin:$PATH"   # submit.sh exports it to the jobs (--export=ALL)
say "volley: $bin ($(volley --version))"

# --- munge ---------------------------------------------------------------------------
mungekey --create --keyfile="$E2E_DIR/munge/munge.key" --force
socket=$E2E_DIR/munge/munge.socket
munged --foreground --socket="$socket" --key-file="$E2E_DIR/munge/munge.key" \
    --pid-file="$E2E_DIR/munge/munged.pid" --seed-file="$E2E_DIR/munge/munged.seed" \
    --log-file="$E2E_DIR/log/munged.log" > "$E2E_DIR/log/munged.out" 2>&1 &
pids+=($!)
echo "$!" > "$E2E_DIR/pids/munged"
for _ in $(seq 50); do
    munge -S "$socket" -n 2>/dev/null | unmunge -S "$socket" > /dev/null 2>&1 && break
    sleep 0.2
done
munge -S "$socket" -n | unmunge -S "$socket" > /dev/null 2>&1 \
    || { cat "$E2E_DIR/log/munged.out" >&2; die "munged did not start"; }

# --- Slurm ---------------------------------------------------------------------------
cpus=$(nproc)
mem=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 * 0.9 }' /proc/meminfo)
export SLURM_CONF=$E2E_DIR/slurm.conf   # every Slurm command below, and the jobs, read it
cat > "$SLURM_CONF" <<EOF
# A one-node cluster on this machine for scripts/slurm-e2e.sh (no cgroups, no accounting).
ClusterName=volley-e2e
SlurmctldHost=localhost
SlurmctldPort=$E2E_PORT
SlurmdPort=$((E2E_PORT + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$E2E_DIR/ctld
SlurmdSpoolDir=$E2E_DIR/slurmd
SlurmctldPidFile=$E2E_DIR/ctld/slurmctld.pid
SlurmdPidFile=$E2E_DIR/slurmd/slurmd.pid
SlurmctldLogFile=$E2E_DIR/log/slurmctld.log
SlurmdLogFile=$E2E_DIR/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MinJobAge=3600
MailProg=/bin/true
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=e2e Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
say "$(sbatch --version), $(munged --version 2>&1 | awk '{ print $1 }')"
slurmctld -D -i -f "$SLURM_CONF" > "$E2E_DIR/log/slurmctld.out" 2>&1 &
pids+=($!)
echo "$!" > "$E2E_DIR/pids/slurmctld"
slurmd -D -N localhost -f "$SLURM_CONF" > "$E2E_DIR/log/slurmd.out" 2>&1 &
pids+=($!)
echo "$!" > "$E2E_DIR/pids/slurmd"

# The daemons' logs (their stderr when they failed before opening the log file).
daemon_logs() {
    local d f
    for d in munged slurmctld slurmd; do
        f=$E2E_DIR/log/$d.log
        [ -s "$f" ] || f=$E2E_DIR/log/$d.out
        [ -s "$f" ] || continue
        printf '\n----- %s (last 20 lines)\n' "$f"
        tail -n 20 "$f"
    done >&2
}

state=""
for _ in $(seq 120); do
    for pid in "${pids[@]}"; do
        kill -0 "$pid" 2>/dev/null || { daemon_logs; die "a daemon exited (pid $pid): see its log above"; }
    done
    state=$(sinfo -h -N -o %T 2>/dev/null || true)
    [ "$state" = idle ] && break
    sleep 0.5
done
[ "$state" = idle ] || { daemon_logs; die "the node is not idle after 60 s (sinfo says '${state:-nothing}')"; }
say "one-node cluster up: localhost, $cpus CPUs, ${mem} MB, slurmctld port $E2E_PORT"

# --- The sweep through submit.sh ------------------------------------------------------
jobs=$E2E_DIR/jobs
cd "$jobs"
# The attack runs of tests/cli/shard.rs: 2 attackers x 2 targets x 2 ranges x 2 smokes,
# 16 cells of 12388 engagements, four streams each (the last one short).
cat > scenario.toml <<'EOF'
name = "slurm-e2e"
engagement = "attack-run"
seed = 11
trials = 12388
max_turns = 8
attackers = ["Dwarf ALPHA", "Gladiator Lancer"]
targets = ["Stingray", "ac:5"]

[grid]
range = [12, 30]
smoke = ["none", "designated"]
EOF
export SCENARIO=$jobs/scenario.toml WORK=shards OUT=report
submitted=$("$root/scenarios/cluster/slurm/submit.sh" --array="1-$E2E_SHARDS" --cpus-per-task="$E2E_CPUS" 2>&1) \
    || { echo "$submitted" >&2; daemon_logs; die "submit.sh failed"; }
echo "$submitted" | sed 's/^/  /'
array=$(echo "$submitted" | awk '/shard array/ { print $4 }')
merge=$(echo "$submitted" | awk '/merge/ { print $4 }')
[[ $array =~ ^[0-9]+$ && $merge =~ ^[0-9]+$ ]] || die "no job ids in submit.sh's output"
jobs_ids=("$array" "$merge")

job_logs() {
    local f
    for f in "$jobs"/volley-*.log; do
        [ -f "$f" ] || continue
        printf '\n----- %s\n' "$f"
        tail -n 40 "$f"
    done >&2
    printf '\n----- scontrol show job %s %s\n' "$array" "$merge" >&2
    scontrol -o show job "$array" >&2 2>&1 || true
    scontrol -o show job "$merge" >&2 2>&1 || true
}
# The states of a job's records (one per array task, pending tasks in one record).
states() { scontrol -o show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2; }

waited=$SECONDS
while :; do
    bad=$(states "$array" | grep -vE '^(PENDING|CONFIGURING|RUNNING|COMPLETING|COMPLETED)$' || true)
    [ -z "$bad" ] || { job_logs; daemon_logs; die "a shard of array $array ended ${bad//$'\n'/, }"; }
    m=$(states "$merge")
    case $m in
        COMPLETED) break ;;
        PENDING | CONFIGURING | RUNNING | COMPLETING | "") ;;
        *) job_logs; daemon_logs; die "merge job $merge ended $m" ;;
    esac
    if scontrol -o show job "$merge" 2>/dev/null | grep -q 'Reason=DependencyNeverSatisfied'; then
        job_logs; daemon_logs; die "merge job $merge can never start: a shard of array $array failed"
    fi
    if ((SECONDS - waited > E2E_TIMEOUT)); then
        job_logs; daemon_logs; die "timed out after ${E2E_TIMEOUT} s waiting for array $array and merge $merge (E2E_TIMEOUT)"
    fi
    sleep 1
done
waited=$((SECONDS - waited))

# Every task completed with exit 0, each played the shard Slurm's variables gave it.
done_tasks=$(scontrol -o show job "$array" | grep -c 'JobState=COMPLETED ' || true)
bad_exit=$(scontrol -o show job "$array" "$merge" 2>/dev/null | grep -o 'ExitCode=[0-9:]*' | grep -vc '^ExitCode=0:0$' || true)
[ "$done_tasks" = "$E2E_SHARDS" ] || { job_logs; die "$done_tasks of $E2E_SHARDS array tasks completed"; }
[ "$bad_exit" = 0 ] || { job_logs; die "a job exited non-zero"; }
for k in $(seq "$E2E_SHARDS"); do
    log=$jobs/volley-shard-${array}_$k.log
    grep -q "shard $k of $E2E_SHARDS (from SLURM_ARRAY_TASK_ID=$k" "$log" 2>/dev/null \
        || { job_logs; die "$log does not say it played shard $k of $E2E_SHARDS from SLURM_ARRAY_TASK_ID"; }
done
[ -d report ] || { job_logs; die "the merge job wrote no report"; }
say "array $array: $done_tasks of $E2E_SHARDS shards completed (--cpus-per-task=$E2E_CPUS); merge job $merge completed; ${waited} s from submission"

# --- The single run and the comparison ------------------------------------------------
volley sweep "$SCENARIO" --out single --quiet 2> single.log || { cat single.log >&2; die "the single volley sweep failed"; }

csv=0
parquet=()
for f in single/*.csv; do
    [ -f "$f" ] || continue
    name=$(basename "$f")
    [ -f "report/$name" ] || die "the merged report has no $name"
    cmp -s "$f" "report/$name" || { diff "$f" "report/$name" | head -n 20 >&2; die "$name differs between the single run and the merged shards"; }
    csv=$((csv + 1))
    [ -f "single/${name%.csv}.parquet" ] && parquet+=("${name%.csv}")
done
[ "$csv" -ge 2 ] || die "the single run wrote $csv CSV tables (a report has at least 2)"
if python3 -c 'import pyarrow.parquet' 2>/dev/null; then
    python3 - single report "${parquet[@]}" <<'EOF' || die "a Parquet table differs between the single run and the merged shards"
import sys
import pyarrow.parquet as pq

single, merged, names = sys.argv[1], sys.argv[2], sys.argv[3:]
bad = [n for n in names if not pq.read_table(f"{single}/{n}.parquet").equals(pq.read_table(f"{merged}/{n}.parquet"))]
for n in bad:
    print(f"{n}.parquet differs between the single run and the merged shards", file=sys.stderr)
sys.exit(1 if bad else 0)
EOF
    pq="${#parquet[@]} Parquet tables cell for cell"
else
    pq="Parquet tables NOT compared (python3 with pyarrow not installed)"
fi
say "merged report equals a single volley sweep: $csv CSV files byte for byte, $pq"
# --- A search, one job array per stage, through search.sh -------------------------------
search_flags="--ruleset techcommander --field meta --unit Dwarf --must-include Blackout --top 2 --no-exact --trials 20 --range 12 --format json"
waited=$SECONDS
SEARCH=$search_flags WORK=search-work OUT=search-report VOLLEY=volley \
    timeout "$E2E_TIMEOUT" "$root/scenarios/cluster/slurm/search.sh" --array="1-$E2E_SHARDS" --cpus-per-task="$E2E_CPUS" \
    > search.out 2> search.err \
    || { cat search.err >&2; tail -n 20 search-work/*.log >&2; daemon_logs; die "search.sh failed (or timed out after ${E2E_TIMEOUT} s)"; }
waited=$((SECONDS - waited))
stages=$(grep -c '^stage ' search.out || true)
# shellcheck disable=SC2086 # the search's flags, split on spaces
volley search $search_flags --out search-single --quiet > search-single.json 2> search-single.log \
    || { cat search-single.log >&2; die "the single volley search failed"; }
last=$(ls search-work/merge-*.log | sort -V | tail -n 1)
cmp -s search-single.json "$last" || { diff search-single.json "$last" | head -n 20 >&2; die "the search merged stage by stage prints another result than a single volley search"; }
for f in search-single/*.csv; do
    cmp -s "$f" "search-report/$(basename "$f")" || die "$(basename "$f") differs between the single search and the staged one"
done
say "search: $stages stages, each an array of $E2E_SHARDS shards and a merge, ${waited} s; its output and tables equal a single volley search byte for byte"
say "OK in $((SECONDS - start)) s ($E2E_DIR keeps the logs and reports)"
