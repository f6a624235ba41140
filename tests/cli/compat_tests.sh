#!/usr/bin/env bash
# Results files written before the settings were declared (tests/core/data, written by the
# previous version of pfa-cli with the commands below) still work: resuming the same sweep
# finds every run already there (run keys unchanged), and running it again gives the same
# numbers bit for bit (the noise streams derive from the run keys); the training loss, a
# diagnostic, to round-off.
set -u
source "$(dirname "${BASH_SOURCE[0]}")/record_fields.sh"
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
# Per run: its key, test error, ε spent and model (first occurrence of each), bit for bit.
fields() {
    record_fields "$1" '"run_key":"[^"]*"' '"test_error":[^,]*' '"epsilon_spent":[^,]*' \
        '"theta":\[\[[^]]*\]'
}
# Per run: its key and training loss. A training-set diagnostic, computed since 629d85a in
# SIMD (Eigen's exp and log): equal up to round-off (relative 1e-12), not bit for bit.
losses() {
    while IFS= read -r line; do
        printf '%s %s\n' "$(grep -o '"run_key":"[^"]*"' <<< "$line" | head -1)" \
            "$(grep -o '"train_loss":[^,]*' <<< "$line" | head -1 | cut -d: -f2)"
    done < "$1" | sort
}
head -4 before.jsonl > old4.jsonl
[ "$(fields old4.jsonl | wc -l)" -eq 4 ] || fail "fields not found in the old records"
diff <(fields old4.jsonl) <(fields again.jsonl) > fields.diff || { cat fields.diff >&2; fail "results differ from the previous version"; }
paste -d' ' <(losses old4.jsonl) <(losses again.jsonl) | awk '
    { if ($1 != $3) { print "run keys out of step: " $1 " / " $3; bad = 1; next }
      d = $2 - $4; if (d < 0) d = -d; s = $2 < 0 ? -$2 : $2
      if (NF != 4 || d > 1e-12 * s) { print "training loss " $2 " became " $4 " for " $1; bad = 1 } }
    END { exit bad }' > losses.diff || { cat losses.diff >&2; fail "training losses differ from the previous version"; }
[ "$(losses again.jsonl | wc -l)" -eq 4 ] || fail "training losses not found in the new records"
echo "4 runs of the previous version: resumed as done, rerun bit for bit (training loss to round-off)"
