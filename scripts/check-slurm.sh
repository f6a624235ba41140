#!/usr/bin/env bash
# Release check: does a sweep run on a real Slurm as README's "Beyond one machine" says?
#
#   sudo bash scripts/check-slurm.sh [--readme] [path/to/pfa-cli]
#
# Installs Debian's slurm-wlm and munge when they are missing, starts munged, slurmctld -D and
# slurmd -D in the background with a single-node configuration in a temporary folder (this
# machine is the node, all its CPUs one partition), and then, as a researcher would:
#   1. writes and submits a small sweep (6 shards) with `pfa-cli cluster slurm --submit`;
#   2. cancels one array task at once, waits for the merge job: it must run (afterany) and fail
#      with exit 3 naming the cancelled shard;
#   3. reruns what is missing with `pfa-cli cluster slurm --resume MANIFEST --submit`, waits:
#      the merge must now be complete;
#   4. compares the merged file with the same sweep run unsharded, record for record (run key,
#      test error, training loss, epsilon spent, model).
# With --readme it then also runs the Slurm commands of README.md's "Beyond one machine"
# section as written (the Adult preset, 540 runs, from ../shared/datasets/adult linked as
# $HOME/data/adult in a scratch home) and checks that the merge is complete (a few minutes).
# Prints each step with its time, and stops the daemons it started and removes its folder on
# exit (also after a failure). Needs root (the daemons run as root here) and the Debian mirror
# when the packages are missing. About a minute on an idle 2-core machine.
set -euo pipefail

PROJECT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$PROJECT/tests/cli/record_fields.sh"
README_TOO=false
if [ "${1:-}" = "--readme" ]; then README_TOO=true; shift; fi
CLI=${1:-$PROJECT/build/bin/pfa-cli}
[ -x "$CLI" ] || { echo "check-slurm: no pfa-cli at $CLI (build first, or pass its path)" >&2; exit 1; }
CLI=$(cd "$(dirname "$CLI")" && pwd)/$(basename "$CLI")
[ "$(id -u)" -eq 0 ] || { echo "check-slurm: needs root (sudo bash $0)" >&2; exit 1; }

started=$(date +%s)
step() { echo "[$(( $(date +%s) - started )) s] $*"; }
fail() { echo "check-slurm: FAILED: $*" >&2; exit 1; }

if ! command -v slurmctld > /dev/null || ! command -v munged > /dev/null; then
    step "installing slurm-wlm and munge"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurm-wlm munge > /dev/null
fi

work=$(mktemp -d /var/tmp/pfa-check-slurm.XXXXXX)
chmod 755 "$work"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2> /dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2> /dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

# --- a single-node cluster --------------------------------------------------------------------
node=$(hostname -s)
cpus=$(nproc)
memory=$(( $(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo) * 9 / 10 ))
mkdir -p "$work/state" "$work/spool" "$work/munge" "$work/my sweep"
cat > "$work/slurm.conf" << CONF
ClusterName=pfacheck
SlurmctldHost=$node
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
ReturnToService=2
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$node CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=short Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$work/slurm.conf

step "starting munged, slurmctld and slurmd ($node, $cpus CPUs)"
if ! munge -n > /dev/null 2>&1; then
    munged --force --foreground --socket="$work/munge/munge.socket" \
        --pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" \
        > "$work/munge/munged.out" 2>&1 &
    pids+=($!)
    export MUNGE_SOCKET=$work/munge/munge.socket
    # Slurm's auth plugin reads the socket from its own option.
    echo "AuthInfo=socket=$work/munge/munge.socket" >> "$work/slurm.conf"
    sleep 1
fi
slurmctld -D -f "$work/slurm.conf" > "$work/slurmctld.out" 2>&1 &
pids+=($!)
sleep 1
slurmd -D -f "$work/slurm.conf" > "$work/slurmd.out" 2>&1 &
pids+=($!)
for _ in $(seq 1 60); do
    state=$(sinfo -h -N -o "%t" 2> /dev/null | head -1 || true)
    [ "$state" = "idle" ] && break
    sleep 1
done
[ "$state" = "idle" ] || { tail -20 "$work/slurmctld.log" "$work/slurmd.log" >&2 || true; fail "the node did not come up (state '$state')"; }
step "the node is idle: $(sinfo -h -o '%P %D %c %m')"

# Waits until no job of this user is queued or running.
wait_jobs() {
    for _ in $(seq 1 600); do
        [ -z "$(squeue -h -o %i 2> /dev/null)" ] && return 0
        sleep 1
    done
    fail "jobs still queued after 10 minutes: $(squeue)"
}

# --- 1. write and submit ----------------------------------------------------------------------
# (A folder with a space: the scripts must carry such paths.)
cd "$work/my sweep"
sweep=(--dataset synthetic --synthetic-rows 3000 --epsilon 1,4 --lambda 0,1 --seeds 0-5 --epochs 30
       --batch-sharing by-seed)
step "pfa-cli cluster slurm --submit (24 runs, 6 shards)"
"$CLI" cluster slurm "${sweep[@]}" --cpus-per-task 1 --time 00:10:00 --out results/check.jsonl \
    --submit | tee submit.log
array=$(sed -n 's/^submitted: array job \([0-9]*\).*/\1/p' submit.log)
[ -n "$array" ] || fail "no array job id in the submission's output"

# --- 2. a cancelled task: the merge still runs, and fails naming it ----------------------------
scancel "${array}_3" || true
step "cancelled task ${array}_3; waiting for the array and the merge"
wait_jobs
merge_log=results/check.slurm/logs/merge.out
[ -f "$merge_log" ] || fail "the merge job did not run after the cancelled task"
cat "$merge_log"
grep -q "shard 3/6" "$merge_log" || fail "the merge does not name the cancelled shard 3"
grep -q "the sweep is incomplete" "$merge_log" || fail "the merge did not report the sweep incomplete"
step "the merge ran after the cancelled task and named shard 3"

# --- 3. rerun what is missing -----------------------------------------------------------------
"$CLI" status --manifest results/check.manifest.json || true
step "pfa-cli cluster slurm --resume --submit"
"$CLI" cluster slurm --resume results/check.manifest.json --cpus-per-task 1 --time 00:10:00 --submit \
    | tee rerun.log
grep -q "shards 3)" rerun.log || fail "the rerun array is not shard 3 alone"
wait_jobs
cat "$merge_log"
grep -q "24 of 24 run(s)" "$merge_log" || fail "the merge after the rerun is not complete"
step "the merge after the rerun is complete"

# --- 4. the same as the unsharded sweep -------------------------------------------------------
"$CLI" train "${sweep[@]}" --quiet --out whole.jsonl > whole.log 2>&1 || fail "the unsharded sweep"
diff <(record_fields whole.jsonl) <(record_fields results/check.jsonl) > fields.diff || { head fields.diff >&2; fail "the merged shards differ from the unsharded sweep"; }
step "24 runs compared field by field with the unsharded sweep: identical"

# --- 5. README's commands as written ------------------------------------------------------------
if $README_TOO; then
    data=$PROJECT/../shared/datasets/adult
    [ -f "$data/adult.data" ] || fail "--readme needs the Adult files in $data"
    mkdir -p "$work/readme/home/data" && cd "$work/readme"
    ln -s "$(cd "$data" && pwd)" home/data/adult
    mkdir -p build/bin && ln -s "$CLI" build/bin/pfa-cli
    # The ```sh block of the section that starts with pfa-cli cluster slurm, line by line.
    awk '/^### Beyond one machine/ { on = 1; next } /^##/ { on = 0 }
         on && /^```sh/ { block++; inside = 1; next } on && /^```/ { inside = 0; next }
         on && inside && block == 1 { print }' "$PROJECT/README.md" > readme.sh
    step "README's commands:"
    cat readme.sh
    # Line by line as a user types them (status says 3, "incomplete", while the jobs run).
    HOME=$work/readme/home bash readme.sh > readme.log 2>&1 || true
    head -12 readme.log
    grep -q "^submitted: array job" readme.log || fail "README's commands did not submit the jobs"
    wait_jobs
    cat results/adult-dp.slurm/logs/merge.out
    grep -q "540 of 540 run(s)" results/adult-dp.slurm/logs/merge.out || fail "README's sweep did not merge complete"
    step "README's Slurm commands, as written: 540 of 540 runs merged"
fi
echo "check-slurm: passed in $(( $(date +%s) - started )) s"
