#!/usr/bin/env bash
# pfa-cli audit: the empirical privacy audit of DP-SGD (correct and deliberately broken) on a
# small synthetic data set, its JSON output, and the settings it refuses.
# Usage: audit_tests.sh PFA_CLI WORK_DIR CASE
set -euo pipefail
cli=$1
work=$2
case_name=$3
mkdir -p "$work"
cd "$work"

fail() { echo "FAILED: $*" >&2; exit 1; }
# Output is searched with grep -q <<< "$text", never through a pipe: with pipefail, grep -q
# leaving at its first match makes a writer with more lines to come fail (SIGPIPE), sometimes.

case "$case_name" in
correct)
    rm -f audit.json
    out=$("$cli" audit --epsilons 4 --models 20 --threads 2 --out audit.json)
    grep -Eq "^target +claimed +lower +TPR \[lower\] +FPR \[upper\] +models +seconds +verdict" <<< "$out" \
        || fail "no table header: $out"
    line=$(echo "$out" | grep -E "^4 ") || fail "no row for epsilon 4: $out"
    grep -q "consistent" <<< "$line" || fail "a correct mechanism was flagged: $line"
    grep -Eq " 40 +[0-9.]+ " <<< "$line" || fail "40 models trained expected: $line"
    grep -q '"algorithm":"dp-sgd"' audit.json || fail "JSON lacks the algorithm"
    grep -q '"broken":false' audit.json || fail "JSON: broken should be false"
    grep -q '"contradicts_claim":false' audit.json || fail "JSON: the claim should hold"
    grep -Eq '"claimed_epsilon":(3\.99|4[,.])' audit.json || fail "JSON: claimed epsilon is not the accountant's 4"
    # Everything that reproduces the audit: the audited settings, its seed, software and date.
    for key in '"epochs":40' '"batch-size":64' '"clip-theta":10' '"lambda":0' '"audit_seed":1' \
               '"software":"' '"date":"20'; do
        grep -q "$key" audit.json || fail "JSON lacks $key"
    done
    echo "audit correct: $line"
    ;;
broken)
    out=$("$cli" audit --epsilons 1 --models 40 --threads 2 --broken-noise-divisor 100)
    grep -q "DELIBERATELY BROKEN dp-sgd (noise / 100)" <<< "$out" || fail "broken mechanism not named: $out"
    line=$(echo "$out" | grep -E "^1 ") || fail "no row for epsilon 1: $out"
    grep -q "VIOLATED: lower bound > claimed epsilon" <<< "$line" || fail "broken mechanism not caught: $line"
    lower=$(echo "$line" | awk '{print $3}')
    awk -v l="$lower" 'BEGIN { exit !(l > 1) }' || fail "lower bound $lower should exceed 1"
    grep -q "the accountant's epsilon for the noise actually added" <<< "$out" || fail "no honest epsilon: $out"
    echo "audit broken: $line"
    ;;
refused)
    set +e
    err=$("$cli" audit --algorithm user-level-dp-sgd --models 4 2>&1 >/dev/null); code=$?
    set -e
    [ "$code" -eq 2 ] || fail "user-level audit should exit 2, got $code"
    grep -q "the audit does not apply: 'user-level-dp-sgd' protects a whole user" <<< "$err" || fail "$err"
    set +e
    err=$("$cli" audit --models 2 2>&1 >/dev/null); code=$?
    set -e
    [ "$code" -eq 2 ] || fail "--models 2 should exit 2, got $code"
    grep -q "models must be between 4" <<< "$err" || fail "$err"
    set +e
    err=$("$cli" audit --broken-noise-divisor 0.5 2>&1 >/dev/null); code=$?
    set -e
    [ "$code" -eq 2 ] || fail "divisor 0.5 should exit 2, got $code"
    grep -q "must be greater than 1" <<< "$err" || fail "$err"
    echo "audit refused: user-level algorithm, too few models, divisor below 1"
    ;;
white-box)
    # The one-run white-box audit: a bound below the claim, and the broken mechanism caught.
    rm -f audit.json
    out=$("$cli" audit --method white-box --epsilons 4 --canaries 2000 --threads 2 --out audit.json)
    grep -Eq "^target +claimed +lower +right guesses \[of m in\] +runs +seconds +verdict" <<< "$out" \
        || fail "no one-run table header: $out"
    line=$(echo "$out" | grep -E "^4 ") || fail "no row for epsilon 4: $out"
    grep -q "consistent" <<< "$line" || fail "a correct mechanism was flagged: $line"
    grep -Eq " of 2000 in\] +223 " <<< "$line" || fail "2000 canaries over 223 runs expected: $line"
    lower=$(echo "$line" | awk '{print $3}')
    awk -v l="$lower" 'BEGIN { exit !(l > 0.5 && l < 3.998) }' || fail "bound $lower outside (0.5, claim)"
    for key in '"method":"white-box"' '"canaries":2000' '"canary_scores":[' '"canary_included":[' \
               '"correct_guesses":' '"guess_counts_tried":16'; do
        grep -qF "$key" audit.json || fail "JSON lacks $key"
    done
    out=$("$cli" audit --method white-box --epsilons 1 --canaries 2000 --threads 2 --broken-noise-divisor 10)
    line=$(echo "$out" | grep -E "^1 ") || fail "no row for epsilon 1: $out"
    grep -q "VIOLATED: lower bound > claimed epsilon" <<< "$line" || fail "broken mechanism not caught: $line"
    echo "audit white-box: bound $lower at epsilon 4; broken: $line"
    ;;
run-record)
    # A run's settings, read from its record, audited on its data; another data set refused.
    rm -f run.jsonl audit.json
    "$cli" train --out run.jsonl --algorithm dp-fermi --epsilon 2 --epochs 7 --batch-size 128 \
        --synthetic-rows 2000 > /dev/null
    out=$("$cli" audit --method white-box --canaries 200 --settings-from run.jsonl --threads 2 \
          --out audit.json)
    grep -q "privacy audit of dp-fermi" <<< "$out" || fail "the record's algorithm not audited: $out"
    line=$(echo "$out" | grep -E "^2 ") || fail "the record's epsilon 2 not audited: $out"
    grep -q "consistent" <<< "$line" || fail "$line"
    for key in '"algorithm":"dp-fermi"' '"epochs":7' '"batch-size":128'; do
        grep -qF "$key" audit.json || fail "JSON lacks the record's $key"
    done
    set +e
    err=$("$cli" audit --method white-box --settings-from run.jsonl --synthetic-rows 3000 2>&1 >/dev/null)
    code=$?
    set -e
    [ "$code" -eq 2 ] || fail "another data set should exit 2, got $code"
    grep -q "the record's run was trained on" <<< "$err" || fail "$err"
    echo "audit run-record: $line"
    ;;
*)
    fail "unknown case $case_name"
    ;;
esac
