#!/usr/bin/env bash
# The published split from the command line: on Parkinsons, --split-method pandas --split-seed 100
# trains on the rows of pandas' df.sample(frac=0.75, random_state=100) and tests on the rest.
# Usage: split_tests.sh PFA_CLI WORK_DIR DATASETS_DIR ($PFA_SHARED_DATASETS, when set, overrides
# DATASETS_DIR). Exits 77 (reported as skipped) when the Parkinsons file is not there.
set -euo pipefail
cli=$1
work=$2
data=${PFA_SHARED_DATASETS:-$3}/parkinsons-telemonitoring
if [ ! -f "$data/parkinsons_updrs.data" ]; then
    echo "PFA-TEST-SKIPPED: $data/parkinsons_updrs.data is not present (PFA_SHARED_DATASETS)"
    exit 77
fi
mkdir -p "$work"
cd "$work"
rm -f ./*.jsonl ./*.log

fail() { echo "FAIL: $*" >&2; exit 1; }
run=(train --dataset parkinsons --data-dir "$data" --algorithm erm --epochs 1 --quiet --no-resume)

"$cli" "${run[@]}" --split-method pandas --split-seed 100 --out pandas.jsonl > /dev/null 2> pandas.log
grep -q "4406 training rows, 1469 test rows" pandas.log || fail "sizes: $(cat pandas.log)"
record=$(head -n 1 pandas.jsonl)
for field in '"split_seed":100' '"test_fraction":0.25' '"split_method":"pandas"' '"train_rows":4406' \
             '"test_rows":1469' '"run_key":"dataset=parkinsons|split=100,0.25,pandas;'; do
    grep -qF "$field" <<< "$record" || fail "the record lacks $field"
done
# The test set per sex, as pandas has it (computed once with pandas 1.5.3:
#   df = pd.read_csv("parkinsons_updrs.data"); test = df.drop(df.sample(frac=0.75, random_state=100).index)
#   test.groupby("sex")["total_UPDRS"].agg(n="size", base_rate=lambda u: (u > 27.576).mean())
# gives male (sex 0) 1008 rows, base rate 549/1008 = 0.544642857..., female (sex 1) 461 rows,
# base rate 214/461 = 0.464208242...: a base-rate gap of 0.080.
grep -Eq '\{"group":"male","n":1008,"base_rate":0\.544642857' <<< "$record" ||
    fail "male test rows: $(grep -o '"groups":\[[^]]*\]' <<< "$record")"
grep -Eq '\{"group":"female","n":461,"base_rate":0\.464208242' <<< "$record" ||
    fail "female test rows: $(grep -o '"groups":\[[^]]*\]' <<< "$record")"

# The default split stays our seeded one, with its key unchanged (no method named in it).
"$cli" "${run[@]}" --split-seed 100 --out seeded.jsonl > /dev/null 2> seeded.log
grep -qF '"run_key":"dataset=parkinsons|split=100,0.25;' seeded.jsonl || fail "default key: $(head -c 300 seeded.jsonl)"
grep -qF '"split_method":"seeded"' seeded.jsonl || fail "the default record does not name its split"
grep -Eq '\{"group":"male","n":1008,' seeded.jsonl && fail "the seeded split gave pandas' test rows"
echo "pandas split of Parkinsons: 4406 + 1469 rows, test base rates per sex as pandas has them"
