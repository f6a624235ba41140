#!/usr/bin/env bash
# pfa-cli export-model end to end: a seeded private run is refused with the secure-noise command,
# exported only when asked; the file holds no seed, no run key and no training diagnostics, labels
# its preprocessing statistics, and predicts exactly as the run; a run with secure noise exports
# at once. Usage: export_model_tests.sh PFA_CLI WORK_DIR LOANS_CSV
set -euo pipefail
cli=$1
work=$2
loans=$3
mkdir -p "$work"
cd "$work"
rm -f ./*.jsonl ./*.json ./*.csv ./*.log

fail() { echo "FAIL: $*" >&2; exit 1; }
expect_status() {  # expect_status CODE COMMAND...: runs it, stderr into err.log
    local want=$1
    shift
    local got=0
    "$@" 2> err.log || got=$?
    [ "$got" -eq "$want" ] || { cat err.log >&2; fail "exit status $got, expected $want: $*"; }
}

own=(--csv "$loans" --target approved --positive yes --sensitive gender --categorical region
     --batch-size 64 --epochs 5 --quiet)
"$cli" train "${own[@]}" --algorithm dp-fermi --epsilon 2 --lambda 1 --seeds 424242 --out seeded.jsonl > /dev/null
grep -q '"seed":424242' seeded.jsonl || fail "the results file should hold the seed"

# Seeded noise: refused, with the command that trains it again with secure noise.
expect_status 2 "$cli" export-model --run seeded.jsonl --out m.json
[ "$(wc -l < err.log)" -eq 1 ] || fail "refusal: more than one line"
grep -q "Secure noise (OS entropy)" err.log || fail "refusal does not name secure noise: $(cat err.log)"
grep -q -- "pfa-cli train .*--secure-noise --out secure.jsonl" err.log || fail "no rerun command: $(cat err.log)"
[ ! -e m.json ] || fail "a refused export wrote a file"

# Exported when asked: no seed, no run key, no diagnostics; labelled preprocessing.
expect_status 0 "$cli" export-model --run seeded.jsonl --out m.json --allow-seeded-noise
grep -q "warning: The noise of this run was derived from its seed" err.log || fail "no warning: $(cat err.log)"
grep -q "424242" m.json && fail "the model file holds the seed"
grep -q '"run_key":' m.json && fail "the model file holds the run key"
grep -q '"train_loss":' m.json && fail "the model file holds training diagnostics"
grep -q '"history":' m.json && fail "the model file holds the per-epoch history"
grep -q '"not_protected":"computed from the training rows without noise' m.json ||
    fail "the preprocessing statistics are not labelled"
grep -q "it holds, NOT protected:" err.log || fail "the summary does not list what is not protected"

# The model file predicts as the run; without test metrics there is nothing to compare with.
expect_status 0 "$cli" predict --run m.json --csv "$loans" --out from-file.csv --test-rows
grep -q "seed not in the file" err.log || fail "predict: $(cat err.log)"
grep -q "holds no test metrics" err.log || fail "predict: $(cat err.log)"
expect_status 0 "$cli" predict --run seeded.jsonl --csv "$loans" --out from-run.csv --test-rows
cmp -s from-file.csv from-run.csv || fail "the model file predicts differently from its run"
expect_status 0 "$cli" export-model --run seeded.jsonl --out mt.json --allow-seeded-noise --with-test-metrics
expect_status 0 "$cli" predict --run mt.json --csv "$loans" --out x.csv --test-rows
grep -q "(identical)" err.log || fail "test metrics not reproduced: $(cat err.log)"
expect_status 0 "$cli" export-model --run seeded.jsonl --out md.json --allow-seeded-noise --with-diagnostics
grep -q '"train_loss":' md.json || fail "--with-diagnostics did not add the diagnostics"
expect_status 2 "$cli" export-model --run m.json --out again.json --with-diagnostics
grep -q "holds no training-set diagnostics" err.log || fail "re-export: $(cat err.log)"

# Secure noise: exported at once, no warning.
"$cli" train "${own[@]}" --algorithm dp-fermi --epsilon 2 --lambda 1 --secure-noise --out secure.jsonl > /dev/null
expect_status 0 "$cli" export-model --run secure.jsonl --out s.json
grep -q "warning" err.log && fail "secure noise warned: $(cat err.log)"
grep -q '"noise":"os-entropy"' s.json || fail "noise source not stated"

expect_status 2 "$cli" export-model --run secure.jsonl
grep -q -- "--out MODEL.json is required" err.log || fail "usage: $(cat err.log)"

echo "export-model: seeded run refused then exported without seed, key or diagnostics; predicts as its run; secure run exported"
