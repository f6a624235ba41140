#!/usr/bin/env bash
# Sweep behaviour of pfa-cli that needs processes: resume after kill -9, parallel equals serial,
# shards + merge equal the unsharded run; and the runs of a log-spaced --lambda generator.
# Usage: sweep_tests.sh PFA_CLI WORK_DIR CASE
set -euo pipefail
cli=$1
work=$2
case_name=$3
mkdir -p "$work"
cd "$work"

sweep=(train --dataset synthetic --synthetic-rows 3000 --algorithm dp-fermi,fermi --epsilon 1,4
       --lambda 0,1,3 --seeds 0-2 --epochs 40 --quiet)

# Result lines without wall-clock fields and run uids (each execution's own id), sorted: what
# must be identical between two sweeps.
normalise() {
    sed -E 's/"seconds":[-0-9.e+]+//g; s/"seconds":\[[^]]*\]//g; s/"run_uid":"[0-9a-f]+"//g' "$1" | sort
}

same_results() {
    if ! diff <(normalise "$1") <(normalise "$2") > /dev/null; then
        echo "results differ: $1 vs $2" >&2
        diff <(normalise "$1") <(normalise "$2") | head -c 2000 >&2
        exit 1
    fi
}

case "$case_name" in
resume)
    rm -f full.jsonl crashed.jsonl
    "$cli" "${sweep[@]}" --threads 2 --out full.jsonl > /dev/null
    total=$(wc -l < full.jsonl)
    # Run the same sweep and kill it hard once some runs are on disk: the kernel does it, in
    # the middle of a write, when the results file reaches 80 KiB (records are 10 to 16 kB),
    # with SIGXFSZ. Killing it from here after polling the file raced the sweep (0.3 s in
    # all) against this shell on a busy machine. Its ledger goes to a folder of its own,
    # kept under the limit.
    rm -rf crash-ledgers
    status=0
    (ulimit -f 80; PFA_LEDGER_DIR="$work/crash-ledgers" exec "$cli" "${sweep[@]}" --threads 2 \
        --out crashed.jsonl > /dev/null 2>&1) || status=$?
    [ "$status" -eq $((128 + 25)) ] || { echo "the sweep was not killed by SIGXFSZ (status $status)" >&2; exit 1; }
    before=$(wc -l < crashed.jsonl)
    if [ "$before" -lt 5 ] || [ "$before" -ge "$total" ]; then
        echo "$before of $total runs on disk when killed, expected 5 or more and not all" >&2; exit 1
    fi
    # Simulate a power cut in the middle of a write: a partial last line.
    printf '{"run_key":"cut-off mid-wri' >> crashed.jsonl
    output=$("$cli" "${sweep[@]}" --threads 2 --out crashed.jsonl)
    grep -q "already in crashed.jsonl" <<< "$output" || { echo "no resume message" >&2; exit 1; }
    [ "$(wc -l < crashed.jsonl)" -eq "$total" ] || { echo "expected $total lines, got $(wc -l < crashed.jsonl)" >&2; exit 1; }
    same_results full.jsonl crashed.jsonl
    echo "killed after $before of $total runs; resumed to the identical set of $total results"
    ;;
parallel)
    rm -f serial.jsonl parallel.jsonl
    "$cli" "${sweep[@]}" --threads 1 --out serial.jsonl > /dev/null
    "$cli" "${sweep[@]}" --threads 4 --out parallel.jsonl > /dev/null
    same_results serial.jsonl parallel.jsonl
    echo "1 and 4 threads gave bit-identical results ($(wc -l < serial.jsonl) runs)"
    ;;
shards)
    rm -f whole.jsonl shard-*.jsonl merged.jsonl
    "$cli" "${sweep[@]}" --out whole.jsonl > /dev/null
    for i in 0 1 2; do "$cli" "${sweep[@]}" --shard "$i/3" --out "shard-$i.jsonl" > /dev/null; done
    "$cli" merge merged.jsonl shard-0.jsonl shard-1.jsonl shard-2.jsonl shard-1.jsonl > merge.log
    grep -q "dropped" merge.log
    same_results whole.jsonl merged.jsonl
    echo "3 shards ($(wc -l < shard-0.jsonl)+$(wc -l < shard-1.jsonl)+$(wc -l < shard-2.jsonl) runs) merged equal the unsharded sweep"
    ;;
log-lambdas)
    # --lambda 0,log:0.01:100:5 is 0 and five log-spaced weights: six runs, each weight once
    # in the results file and in the summary table.
    rm -f log.jsonl
    "$cli" train --dataset synthetic --synthetic-rows 2000 --algorithm dp-fermi --epsilon 1 \
        --lambda 0,log:0.01:100:5 --epochs 2 --threads 2 --quiet --out log.jsonl > summary.txt
    expected="0 0.01 0.1 1 10 100 "
    [ "$(wc -l < log.jsonl)" -eq 6 ] || { echo "expected 6 runs, got $(wc -l < log.jsonl)" >&2; exit 1; }
    recorded=$(grep -o '"lambda":[^,]*' log.jsonl | cut -d: -f2 | sort -g | awk '{printf "%g ", $1}')
    [ "$recorded" = "$expected" ] || { echo "lambdas in log.jsonl: '$recorded', expected '$expected'" >&2; exit 1; }
    summarised=$(awk '$1 == "dp-fermi" {print $4}' summary.txt | sort -g | awk '{printf "%g ", $1}')
    [ "$summarised" = "$expected" ] || { echo "lambdas in the summary: '$summarised', expected '$expected'" >&2; exit 1; }
    echo "--lambda 0,log:0.01:100:5 ran lambda = $recorded"
    ;;
stability)
    # --stability N: a table of the violation's sd, mean change and drift over each run's last N
    # evaluations; printed again from the results file without rerunning.
    rm -f stable.jsonl
    run=(train --dataset synthetic --synthetic-rows 2000 --algorithm dp-fermi --epsilon 1 --lambda 0,3
         --seeds 0-1 --epochs 8 --threads 2 --quiet --out stable.jsonl)
    "$cli" "${run[@]}" --stability 5 > first.txt
    grep -q "violation over each run's last 5 evaluations" first.txt || { cat first.txt >&2; exit 1; }
    rows=$(awk '/last 5 evaluations/ {table = 1; next} table && $1 == "dp-fermi" && $NF == 5' first.txt | wc -l)
    [ "$rows" -eq 2 ] || { echo "expected 2 stability rows with 5 evaluations, got $rows" >&2; cat first.txt >&2; exit 1; }
    "$cli" "${run[@]}" --stability 5 > again.txt
    grep -q "0 finished now" again.txt || { echo "the second call reran runs" >&2; exit 1; }
    diff <(sed -n '/last 5 evaluations/,/^eps spent/p' first.txt) <(sed -n '/last 5 evaluations/,/^eps spent/p' again.txt) ||
        { echo "the stability table differs when read back" >&2; exit 1; }
    if "$cli" "${run[@]}" --stability 1 > /dev/null 2> usage.txt; then echo "--stability 1 accepted" >&2; exit 1; fi
    grep -q "stability" usage.txt || { cat usage.txt >&2; exit 1; }
    echo "--stability 5 printed $rows rows, the same when read back"
    ;;
constant-baseline)
    # The table ends with the constant classifier of the data (always its most frequent test
    # class, violation 0) and counts the runs that do no better: lambda = 10000 forces one there.
    rm -f constant.jsonl
    "$cli" train --dataset synthetic --synthetic-rows 2000 --algorithm dp-fermi --epsilon 1 \
        --lambda 0,10000 --epochs 20 --threads 2 --quiet --out constant.jsonl > table.txt
    line=$(grep "^constant classifier on synthetic: always '" table.txt) ||
        { cat table.txt >&2; exit 1; }
    grep -q -- "-- 1 run(s) did no better" <<< "$line" || { echo "$line" >&2; exit 1; }
    # The records carry it, so that the number can be checked against the test labels.
    [ "$(grep -c '"constant_classifier":{"class":' constant.jsonl)" -eq 2 ] ||
        { echo "records without constant_classifier" >&2; exit 1; }
    echo "$line"
    ;;
*)
    echo "unknown case $case_name" >&2
    exit 2
    ;;
esac
