#!/usr/bin/env bash
# Your own CSV with a short row: pfa-cli train stops at it and names its line unless asked to
# skip such rows; with --skip-bad-rows it lists the skipped lines and records them with every
# run. --sensitive-threshold makes two groups of a numeric sensitive column.
# Usage: bad_rows_tests.sh PFA_CLI WORK_DIR
set -euo pipefail
cli=$1
work=$2
mkdir -p "$work"
cd "$work"
rm -f ./*.jsonl ./*.log ./*.csv

fail() { echo "FAIL: $*" >&2; exit 1; }

# 120 rows, line 1 the header; data line 50 (physical line 51) loses its last two fields.
{
    echo "income,age,region,approved"
    for i in $(seq 0 119); do
        if [ "$i" -eq 49 ]; then
            echo "$((20 + i % 50)),$((20 + i % 40))"
        else
            echo "$((20 + i % 50)),$((20 + i % 40)),r$((i % 3)),$([ $((i % 50)) -gt 24 ] && echo yes || echo no)"
        fi
    done
} > loans.csv
run=(train --csv loans.csv --target approved --positive yes --sensitive region --algorithm erm --epochs 1
     --quiet --no-resume)

# Default: the short row is an error naming its line, and the option that skips it.
if "$cli" "${run[@]}" --out plain.jsonl > /dev/null 2> plain.log; then fail "a short row was accepted silently"; fi
grep -q "loans.csv:51: expected 4 fields, found 2" plain.log || fail "error: $(cat plain.log)"
grep -q -- "--skip-bad-rows" plain.log || fail "no hint at --skip-bad-rows: $(cat plain.log)"

# --skip-bad-rows: the line is listed, and the record says so.
"$cli" "${run[@]}" --skip-bad-rows --out skip.jsonl > /dev/null 2> skip.log || fail "skip: $(cat skip.log)"
grep -q "skipped loans.csv: line 51 has 2 fields, expected 4" skip.log || fail "listing: $(cat skip.log)"
grep -q "1 malformed row skipped (line 51)" skip.log || fail "data line: $(cat skip.log)"
grep -qF '1 malformed row skipped (line 51)' skip.jsonl || fail "record: $(head -c 400 skip.jsonl)"
train=$(grep -o '"train_rows":[0-9]*' skip.jsonl | head -n 1 | cut -d: -f2)
test=$(grep -o '"test_rows":[0-9]*' skip.jsonl | head -n 1 | cut -d: -f2)
[ "$((train + test))" -eq 119 ] || fail "rows: $train + $test, expected the 119 good rows"

# --sensitive-threshold: two groups of a numeric sensitive column.
"$cli" train --csv loans.csv --target approved --positive yes --sensitive age --sensitive-threshold 40 \
    --skip-bad-rows --algorithm erm --epochs 1 --quiet --no-resume --out age.jsonl > /dev/null 2> age.log ||
    fail "threshold: $(cat age.log)"
grep -q "2 groups" age.log || fail "groups: $(cat age.log)"
grep -qF '"group":"age < 40"' age.jsonl || fail "group names: $(grep -o '"groups":\[[^]]*\]' age.jsonl)"
echo "ok"
