#!/usr/bin/env bash
# Results files written before the settings were declared (tests/core/data, written by the
# previous version of pfa-cli with the commands below) still work: resuming the same sweep
# finds every run already there (run keys unchanged), and running it again gives the same
# numbers bit for bit (the noise streams derive from the run keys).
set -u
cli="$1"
fixture="$2"
work="$3"
mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAILED: $*" >&2; exit 1; }

sweep=(train --dataset synthetic --synthetic-rows 300 --algorithm erm,fermi,dp-fermi,dp-sgd --epsilon 2
       --lambda 1 --epochs 2 --seeds 0 --quiet)
cp "$fixture" before.jsonl
"$cli" "${sweep[@]}" --out before.jsonl > resume.log 2>&1 || { cat resume.log >&2; fail "resume"; }
grep -q "4 run(s): 0 finished now, 4 already in" resume.log || { cat resume.log >&2; fail "the old runs were not recognised"; }

rm -f again.jsonl
"$cli" "${sweep[@]}" --out again.jsonl > again.log 2>&1 || { cat again.log >&2; fail "rerun"; }
# Per run: its key, test error, training loss, ε spent and model (first occurrence of each).
fields() {
    while IFS= read -r line; do
        for pattern in '"run_key":"[^"]*"' '"test_error":[^,]*' '"train_loss":[^,]*' '"epsilon_spent":[^,]*' '"theta":\[\[[^]]*\]'; do
            printf '%s ' "$(grep -o "$pattern" <<< "$line" | head -1)"
        done
        echo
    done < "$1" | sort
}
head -4 before.jsonl > old4.jsonl
[ "$(fields old4.jsonl | wc -l)" -eq 4 ] || fail "fields not found in the old records"
diff <(fields old4.jsonl) <(fields again.jsonl) > fields.diff || { cat fields.diff >&2; fail "results differ from the previous version"; }
echo "4 runs of the previous version: resumed as done, and rerun bit for bit"
