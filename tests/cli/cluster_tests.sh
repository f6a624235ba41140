#!/usr/bin/env bash
# pfa-cli cluster slurm, status and merge --manifest, without a scheduler: the generated array
# script is a bash script (its #SBATCH lines are comments), so a task is run as Slurm would run
# it, with SLURM_ARRAY_TASK_ID set. Shards 0 and 1 run (1 cut short), 2 never: status and merge
# name them and exit 3; the rerun array holds exactly those two; after it the merge is complete
# and equals the unsharded sweep record for record.
set -u
source "$(dirname "${BASH_SOURCE[0]}")/record_fields.sh"
cli="$1"
work="$2"
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAILED: $*" >&2; exit 1; }
sweep=(--dataset synthetic --synthetic-rows 400 --epsilon 1,2 --lambda 0,1 --seeds 0-2 --epochs 2)

"$cli" cluster slurm "${sweep[@]}" --quiet --partition short --out results/small.jsonl > write.log 2>&1 \
    || { cat write.log >&2; fail "cluster slurm"; }
jobs=results/small.slurm
for f in results/small.manifest.json $jobs/array.sbatch $jobs/merge.sbatch $jobs/submit.sh; do
    [ -f "$f" ] || fail "$f was not written"
done
[ -d $jobs/logs ] || fail "the log folder was not made (Slurm needs it before a task starts)"
grep -q "12 run(s) in 3 shard(s)" write.log || { cat write.log >&2; fail "3 seeds should give 3 shards"; }
grep -q '^#SBATCH --array=0-2$' $jobs/array.sbatch || fail "array range"
grep -q '^#SBATCH --partition=short$' $jobs/array.sbatch || fail "partition"
grep -q '^#SBATCH --chdir=' $jobs/array.sbatch || fail "working directory"
grep -q '^SHARDS=3 ' $jobs/array.sbatch || fail "shard count"
grep -q -- '--shard "${SLURM_ARRAY_TASK_ID}/${SHARDS}"' $jobs/array.sbatch || fail "shard option"
grep -q '^mkdir -p ' $jobs/array.sbatch || fail "no mkdir -p of the results folder"
grep -q -- "--quiet" $jobs/array.sbatch && fail "--quiet should be left out of the tasks"
grep -q -- '--dependency=afterany:' $jobs/submit.sh || fail "the merge is not chained afterany"
grep -q -- 'merge --manifest' $jobs/merge.sbatch || fail "the merge does not check the manifest"
bash -n $jobs/array.sbatch && bash -n $jobs/merge.sbatch && bash -n $jobs/submit.sh || fail "script syntax"

# Shards 0 and 1 as Slurm runs them; shard 1 then cut to 2 of its 4 runs; shard 2 never ran.
for task in 0 1; do
    SLURM_ARRAY_TASK_ID=$task bash $jobs/array.sbatch > task$task.log 2>&1 || { cat task$task.log >&2; fail "task $task"; }
done
head -2 results/small.shard-1.jsonl > cut && mv cut results/small.shard-1.jsonl
"$cli" status --manifest results/small.manifest.json > status.log; code=$?
[ $code -eq 3 ] || { cat status.log >&2; fail "status of an incomplete sweep exited $code, not 3"; }
grep -q "6 of 12 run(s)" status.log || { cat status.log >&2; fail "status count"; }
"$cli" merge --manifest results/small.manifest.json > merge.log 2> merge.err; code=$?
cat merge.log merge.err
[ $code -eq 3 ] || fail "merge of an incomplete sweep exited $code, not 3"
grep -q "incomplete: shard 1/3 has 2 of 4 run(s)" merge.log || fail "the partial shard is not named"
grep -q "missing: shard 2/3 wrote no results file" merge.log || fail "the missing shard is not named"
grep -q "cluster slurm --resume" merge.log || fail "no rerun command"
"$cli" merge --manifest results/small.manifest.json --allow-partial > partial.log || fail "--allow-partial"

# The rerun array: only shards 1 and 2; shard 1 resumes.
"$cli" cluster slurm --resume results/small.manifest.json > rerun.log 2>&1 || { cat rerun.log >&2; fail "resume"; }
grep -q '^#SBATCH --array=1,2$' $jobs/array-rerun.sbatch || fail "the rerun array is not 1,2"
grep -q '^SHARDS=3 ' $jobs/array-rerun.sbatch || fail "the rerun keeps 3 shards"
for task in 1 2; do
    SLURM_ARRAY_TASK_ID=$task bash $jobs/array-rerun.sbatch > rerun$task.log 2>&1 || fail "rerun task $task"
done
grep -q "2 finished now, 2 already in" rerun1.log || { cat rerun1.log >&2; fail "shard 1 did not resume"; }
bash $jobs/merge.sbatch > final.log 2>&1 || { cat final.log >&2; fail "the final merge"; }
grep -q "12 of 12 run(s)" final.log || { cat final.log >&2; fail "the final merge is not complete"; }

# Record for record the unsharded sweep (models, metrics, epsilon).
"$cli" train "${sweep[@]}" --quiet --out whole.jsonl > whole.log 2>&1 || fail "the unsharded sweep"
diff <(record_fields whole.jsonl) <(record_fields results/small.jsonl) > fields.diff || { cat fields.diff >&2; fail "the merged shards differ from the unsharded sweep"; }

# A sweep file (what the application's "Run on a cluster..." writes) plans the same runs as the
# options it stands for; a misspelt key in it is refused, naming the file.
cat > small.sweep.json <<'JSON'
{"name": "small", "title": "the sweep above", "source": "a test",
 "dataset": {"name": "synthetic", "synthetic-rows": 400},
 "algorithms": ["dp-fermi"], "fairness": ["dp"], "epsilons": [1, 2], "lambdas": [0, 1],
 "seeds": [0, 1, 2], "tuning": "not-covered", "config": {"epochs": 2}}
JSON
"$cli" train --preset "$PWD/small.sweep.json" --out file.jsonl --write-manifest file.manifest.json > file.log 2>&1 \
    || { cat file.log >&2; fail "train --preset FILE.json"; }
diff <(grep run_key results/small.manifest.json) <(grep run_key file.manifest.json) > keys.diff \
    || { cat keys.diff >&2; fail "the sweep file plans other runs than its options"; }
sed 's/"epochs"/"epochz"/' small.sweep.json > typo.sweep.json
"$cli" train --preset typo.sweep.json --out typo.jsonl > typo.log 2>&1; code=$?
[ $code -eq 2 ] || fail "a misspelt sweep file exited $code, not 2 (bad input)"
grep -q "typo.sweep.json.*epochz" typo.log || { cat typo.log >&2; fail "the misspelt key is not named"; }

# Refusals: options the job sets, tuning sweeps, no --out.
"$cli" cluster slurm "${sweep[@]}" --shard 0/2 --out x.jsonl > /dev/null 2>&1; [ $? -eq 2 ] || fail "--shard accepted"
"$cli" cluster slurm "${sweep[@]}" --auto-tune --out x.jsonl > /dev/null 2>&1; [ $? -eq 2 ] || fail "--auto-tune accepted"
"$cli" cluster slurm "${sweep[@]}" > /dev/null 2>&1; [ $? -eq 2 ] || fail "no --out accepted"
echo "cluster slurm: scripts, status and merge of missing and partial shards, rerun, merge equal to the unsharded sweep, sweep files"
