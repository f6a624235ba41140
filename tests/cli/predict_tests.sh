#!/usr/bin/env bash
# pfa-cli predict end to end: train on loans.csv, apply the saved model to it and to new rows,
# reproduce the run's test metrics, and the data errors. Usage: predict_tests.sh PFA_CLI WORK_DIR LOANS_CSV
set -euo pipefail
cli=$1
work=$2
loans=$3
mkdir -p "$work"
cd "$work"
rm -f ./*.jsonl ./*.csv ./*.log

fail() { echo "FAIL: $*" >&2; exit 1; }
expect_status() {  # expect_status CODE COMMAND...: runs it, stderr into err.log
    local want=$1
    shift
    local got=0
    "$@" 2> err.log || got=$?
    [ "$got" -eq "$want" ] || { cat err.log >&2; fail "exit status $got, expected $want: $*"; }
}

own=(--csv "$loans" --target approved --positive yes --sensitive gender --categorical region
     --batch-size 64 --quiet)
"$cli" train "${own[@]}" --algorithm dp-fermi --epsilon 2 --lambda 1 --epochs 5 --out one.jsonl > /dev/null

# Every row of the training file: header, one line per row, probabilities summing to 1.
expect_status 0 "$cli" predict --run one.jsonl --csv "$loans" --out pred.csv
[ "$(head -n 1 pred.csv)" = "line,predicted,p_not_yes,p_yes,group,label" ] || fail "header: $(head -n 1 pred.csv)"
[ "$(wc -l < pred.csv)" -eq "$(wc -l < "$loans")" ] || fail "expected one line per row of $loans"
awk -F, 'NR > 1 && (NF != 6 || ($3 + $4 < 0.999999) || ($3 + $4 > 1.000001)) { bad = 1 } END { exit bad }' pred.csv ||
    fail "a row without 6 fields or with probabilities not summing to 1"
grep -q "error .* on these 300 rows" err.log || fail "no error summary: $(cat err.log)"

# The held-out test rows reproduce the run's test error and violation exactly.
expect_status 0 "$cli" predict --run one.jsonl --csv "$loans" --out test.csv --test-rows
grep -q "(identical)" err.log || fail "test rows do not reproduce the run: $(cat err.log)"
[ "$(wc -l < test.csv)" -eq 76 ] || fail "expected 75 test rows"
test_error=$(grep -o '"test_error":[^,]*' one.jsonl | head -n 1 | cut -d: -f2)

# The same with the published calibration, whose feature bound rescales the rows.
"$cli" train "${own[@]}" --algorithm dp-fermi --calibration published --epsilon 1 --lambda 1 --epochs 10 \
    --feature-bound 1 --out published.jsonl > /dev/null
grep -q '"feature_bound":1}' published.jsonl || fail "the record does not store the feature bound"
expect_status 0 "$cli" predict --run published.jsonl --csv "$loans" --out test2.csv --test-rows
grep -q "(identical)" err.log || fail "published run not reproduced: $(cat err.log)"

# A run on the pandas-style split: the record names it, and its test rows are those rows.
"$cli" train "${own[@]}" --algorithm fermi --lambda 1 --epochs 5 --split-method pandas --split-seed 100 \
    --out pandas.jsonl > /dev/null
grep -q '"split_method":"pandas"' pandas.jsonl || fail "the record does not name the pandas split"
expect_status 0 "$cli" predict --run pandas.jsonl --csv "$loans" --out test3.csv --test-rows
grep -q "(identical)" err.log || fail "pandas-split run not reproduced: $(cat err.log)"
cmp -s test.csv test3.csv && fail "the pandas split predicted the seeded split's test rows"

# New rows without label and group, in another order, with an unseen level.
printf 'region,income\nr1,50\nr7,61.5\n' > new.csv
expect_status 0 "$cli" predict --run one.jsonl --csv new.csv --out new-pred.csv
[ "$(head -n 1 new-pred.csv)" = "line,predicted,p_not_yes,p_yes" ] || fail "header without label/group"
[ "$(wc -l < new-pred.csv)" -eq 3 ] || fail "expected 2 predicted rows"
grep -q "region='r7' (1)" err.log || fail "the unseen level is not reported: $(cat err.log)"

# Data errors: exit status 1 and one line.
sed 's/,"model":.*$/}/' one.jsonl > old.jsonl
expect_status 1 "$cli" predict --run old.jsonl --csv "$loans" --out x.csv
grep -q "has no model" err.log || fail "old record: $(cat err.log)"
[ "$(wc -l < err.log)" -eq 1 ] || fail "old record: more than one line"
cut -d, -f2- "$loans" > no-income.csv
expect_status 1 "$cli" predict --run one.jsonl --csv no-income.csv --out x.csv
grep -q "no column 'income'" err.log || fail "missing column: $(cat err.log)"
expect_status 1 "$cli" predict --run "$loans" --csv "$loans" --out x.csv
grep -q "no run record" err.log || fail "wrong file: $(cat err.log)"
expect_status 1 "$cli" predict --run one.jsonl --csv new.csv --out x.csv --test-rows
grep -q "no columns 'approved', 'gender'" err.log || fail "test rows need labels: $(cat err.log)"

echo "predict: 300 rows, 75 test rows reproduced (test error $test_error), published bound, pandas split, new rows, 4 data errors"
