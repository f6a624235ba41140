#!/usr/bin/env bash
# Privacy behaviour of pfa-cli that needs several commands: the ledger printed by train and by
# 'pfa-cli ledger', secure noise, DP-FERMI with default settings on data whose minority is
# small (a generated file shaped like Law School: 10 % non-White, 8 % fail the bar), the
# persistent ledger of a data set's rows, and the charges of auto-tune's trials.
# Usage: privacy_tests.sh PFA_CLI WORK_DIR CASE
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
ledger)
    rm -f ledger.jsonl
    out=$("$cli" train --algorithm dp-sgd,erm --epsilon 1,2 --lambda 0 --epochs 4 --synthetic-rows 2000 \
          --quiet --out ledger.jsonl)
    grep -Eq "privacy ledger of synthetic\(n=2000,.*\): ε = [0-9.]+ at δ = [0-9.e-]+ by RDP composition of 2 runs; Σε = [0-9.]+" <<< "$out" \
        || fail "train did not print the ledger of its 2 private runs: $out"
    # A second sweep on the same data in the same file adds to the same ledger.
    out=$("$cli" train --algorithm dp-sgd --epsilon 0.5 --lambda 0 --epochs 4 --synthetic-rows 2000 \
          --quiet --out ledger.jsonl)
    grep -q "RDP composition of 3 runs" <<< "$out" || fail "the ledger did not grow to 3 runs"
    listing=$("$cli" ledger ledger.jsonl --runs)
    [ "$(echo "$listing" | grep -c "^  completed")" -eq 3 ] || fail "ledger --runs should list 3 runs: $listing"
    grep -q "dp-sgd dp, ε = 0.5, λ = 0, seed 0" <<< "$listing" || fail "run label missing: $listing"
    # The RDP total is below the simple sum of 0.5 + 1 + 2.
    total=$(echo "$listing" | sed -nE 's/.*: ε = ([0-9.]+) at δ.*/\1/p')
    sum=$(echo "$listing" | sed -nE 's/.*Σε = ([0-9.]+),.*/\1/p')
    awk -v t="$total" -v s="$sum" 'BEGIN { exit !(t < s && s > 3.3 && s <= 3.5) }' || fail "total $total vs sum $sum"
    # Anyone can recompute each run's ε from its record (here also a shuffled-batch run,
    # accounted as one unamplified Gaussian release per epoch under replace-one).
    "$cli" train --algorithm dp-sgd --epsilon 1 --lambda 0 --epochs 4 --synthetic-rows 2000 --sampling shuffle \
        --batch-size 700 --quiet --out ledger.jsonl > /dev/null
    recomputed=$("$cli" epsilon --record ledger.jsonl)
    grep -q "4 private run(s) recomputed, 0 mismatch(es)" <<< "$recomputed" || fail "recomputation: $recomputed"
    grep -q "gaussian, q = 1, .* 4 release(s), replace" <<< "$recomputed" || fail "shuffle accounting: $recomputed"
    echo "ledger: 3 private runs composed to ε = $total (simple sum $sum); the non-private run is not charged; every ε recomputed from its record"
    ;;
secure)
    rm -f secure.jsonl
    "$cli" train --algorithm dp-sgd --epsilon 1 --lambda 0 --epochs 3 --synthetic-rows 2000 --secure-noise \
        --no-diagnostics --seeds 0-1 --quiet --out secure.jsonl > /dev/null
    grep -q '"noise_source":"os-entropy"' secure.jsonl || fail "no os-entropy noise source"
    grep -q '"secure-noise":true' secure.jsonl || fail "setting not recorded"
    grep -q '"train_loss":null' secure.jsonl || fail "diagnostics were recorded"
    grep -q 'cannot be regenerated' secure.jsonl || fail "statement does not say the noise cannot be regenerated"
    echo "secure noise: recorded as os-entropy, diagnostics left out"
    ;;
small-minority)
    # Law-School-shaped data: decile1b,decile3,lsat,ugpa,zfygpa,zgpa,fulltime,fam_inc,male,tier,race,pass_bar.
    awk 'BEGIN {
        srand(7); print "decile1b,decile3,lsat,ugpa,zfygpa,zgpa,fulltime,fam_inc,male,tier,race,pass_bar";
        for (i = 0; i < 3000; i++) {
            nonwhite = rand() < 0.10; u = rand() * 2 - 1 + (nonwhite ? -0.5 : 0);
            lsat = int(36 + 6 * u + 4 * (rand() - 0.5)); ugpa = 3.2 + 0.3 * u + 0.2 * (rand() - 0.5);
            pass = (u + 1.4 + (rand() - 0.5) > 0) ? 1 : 0;
            printf "%d,%d,%d,%.1f,%.2f,%.2f,%d,%d,%d,%d,%s,%d\n", 1 + int(rand() * 10), 1 + int(rand() * 10), lsat,
                   ugpa, u + rand() - 0.5, u + rand() - 0.5, 1 + (rand() < 0.1), 1 + int(rand() * 5),
                   rand() < 0.55, 1 + int(rand() * 6), nonwhite ? "Non-White" : "White", pass;
        } }' > law_like.csv
    rm -f law.jsonl
    for notion in dp eo eopp; do
        "$cli" train --csv law_like.csv --target pass_bar --positive 1 --sensitive race --algorithm dp-fermi \
            --fairness "$notion" --epochs 5 --quiet --out law.jsonl > law.log 2>&1 || { cat law.log >&2; fail "$notion refused"; }
    done
    [ "$(grep -c '"status":"completed"' law.jsonl)" -eq 3 ] || fail "expected 3 completed runs"
    grep -q '"min-group-share":0.0500000' law.jsonl || fail "default rho is not 0.05 for demographic parity"
    echo "a 10 % minority trains with default settings for dp, eo and eopp"
    ;;
tuning)
    # A split-budget grid of K = 4 candidates (2 λ × 2 learning rates) at ε = 1: each run gets
    # ε/4, the statements name the grid, and the ledger of one seed's grid stays within ε = 1.
    rm -f tuning.jsonl notcovered.jsonl
    "$cli" train --algorithm dp-fermi --epsilon 1 --lambda 0.5,2 --axis 'lr-theta=0.05,0.1' --epochs 3 \
        --synthetic-rows 2000 --tuning split-budget --quiet --out tuning.jsonl > /dev/null
    [ "$(grep -c '"epsilon":0.25,' tuning.jsonl)" -eq 4 ] || fail "every candidate should run at epsilon 1/4"
    [ "$(grep -c '"tuning":{"mode":"split-budget","candidates":4,"grid_epsilon":1}' tuning.jsonl)" -eq 4 ] \
        || fail "records do not carry the tuning grid"
    grep -q "split the grid's ε = 1 evenly" tuning.jsonl || fail "statement does not name the grid"
    listing=$("$cli" ledger tuning.jsonl)
    sum=$(echo "$listing" | sed -nE 's/.*Σε = ([0-9.]+),.*/\1/p')
    awk -v s="$sum" 'BEGIN { exit !(s > 0.9 && s <= 1.0 + 1e-9) }' || fail "grid spent Σε = $sum, not at most 1: $listing"
    # Without a split each candidate spends the full ε, and says what that means.
    "$cli" train --algorithm dp-fermi --epsilon 1 --lambda 0.5,2 --epochs 3 --synthetic-rows 2000 --quiet \
        --out notcovered.jsonl > /dev/null
    grep -q "Tuning is not covered: this run is one of 2 candidate settings" notcovered.jsonl \
        || fail "not-covered statement missing"
    echo "tuning: split-budget grid of 4 runs at ε/4 each, Σε = $sum; not-covered candidates say so"
    ;;
persistent)
    # The persistent ledger of the rows: kept outside results files, shared by a renamed and
    # row-shuffled copy, never refunded, exported, and reset only with --yes.
    export PFA_LEDGER_DIR="$work/ledgers"
    rm -rf "$PFA_LEDGER_DIR" ./*.jsonl ledger-export.*
    awk 'BEGIN { srand(3); print "income,region,gender,approved";
        for (i = 0; i < 400; i++) { income = 20 + int(rand() * 80);
            printf "%d,r%d,%s,%s\n", income, i % 3, (i % 2 ? "m" : "f"), (income > 55 ? "yes" : "no") } }' > loans.csv
    { head -n 1 loans.csv; tail -n +2 loans.csv | tac; } > "shuffled copy.csv"
    common=(--target approved --positive yes --sensitive gender --algorithm dp-sgd --lambda 0 --epochs 2 --quiet)
    "$cli" train --csv loans.csv "${common[@]}" --epsilon 1 --out first.jsonl > first.log \
        || { cat first.log >&2; fail "training on loans.csv failed"; }
    grep -q "persistent privacy ledger of file:loans.csv: ε = [0-9.]* at δ = [0-9.e-]* by RDP composition of 1 run;" first.log \
        || fail "train did not print the persistent ledger: $(cat first.log)"
    where=$("$cli" ledger --csv loans.csv --where)
    [ "$(dirname "$where")" = "$PFA_LEDGER_DIR" ] || fail "ledger file $where is not in $PFA_LEDGER_DIR"
    [ "$("$cli" ledger --where)" = "$PFA_LEDGER_DIR" ] || fail "--where does not print the folder"
    # The shuffled copy under another name is the same rows: its runs go to the same file.
    [ "$("$cli" ledger --csv "shuffled copy.csv" --where)" = "$where" ] || fail "the copy has another ledger"
    "$cli" train --csv "shuffled copy.csv" "${common[@]}" --epsilon 2 --out second.jsonl > second.log \
        || { cat second.log >&2; fail "training on the copy failed"; }
    grep -q "persistent privacy ledger of file:loans.csv (also charged as file:shuffled copy.csv): .*composition of 2 runs" second.log \
        || fail "the copy's run was not added to the same ledger: $(cat second.log)"
    # Deleting the results files refunds nothing.
    total=$("$cli" ledger --csv loans.csv | sed -nE 's/.*: ε = ([0-9.]+) at δ.*/\1/p')
    rm -f first.jsonl second.jsonl
    listing=$("$cli" ledger --csv loans.csv --runs)
    grep -q "composition of 2 runs" <<< "$listing" || fail "runs were refunded: $listing"
    [ "$(echo "$listing" | grep -c '^  completed')" -eq 2 ] || fail "--runs should list 2 runs: $listing"
    # Exports: CSV (a line per run) and JSON (totals, no fingerprint).
    "$cli" ledger --csv loans.csv --export ledger-export.csv > /dev/null
    [ "$(grep -c '^"' ledger-export.csv)" -eq 2 ] || fail "CSV export: $(cat ledger-export.csv)"
    "$cli" ledger --csv loans.csv --export ledger-export.json > /dev/null
    grep -q "\"runs\":2" ledger-export.json || fail "JSON export: $(cat ledger-export.json)"
    ! grep -q "$(basename "$where" .jsonl)" ledger-export.json ledger-export.csv || fail "an export holds the fingerprint"
    # Reset: refused without --yes (saying what it means), done with it, never re-charged.
    if "$cli" ledger --csv loans.csv --reset 2> reset.err; then fail "--reset without --yes went through"; fi
    grep -q "does not make the data private again and cannot be undone: add --yes" reset.err || fail "reset message: $(cat reset.err)"
    out=$("$cli" ledger --csv loans.csv)
    grep -q "composition of 2 runs" <<< "$out" || fail "a refused reset changed the ledger"
    out=$("$cli" ledger --csv loans.csv --reset --yes)
    grep -q "2 run(s) (ε = $total) no longer counted" <<< "$out" || fail "reset output"
    out=$("$cli" ledger --csv loans.csv)
    grep -q "nothing spent yet" <<< "$out" || fail "the reset ledger is not empty"
    out=$("$cli" ledger --list)
    grep -q "reset 1 time(s)" <<< "$out" || fail "--list does not show the reset"
    echo "persistent: 2 runs on a file and its shuffled copy in one ledger ($where), ε = $total; deleting results refunded nothing; exported; reset with --yes"
    ;;
auto-tune)
    # Auto-tune's trials are charged: the ledger of its results file and the persistent ledger
    # compose every trial and the final run to the ε its statement gives.
    export PFA_LEDGER_DIR="$work/ledgers"
    rm -rf "$PFA_LEDGER_DIR" tuned.jsonl
    # Step 1 diverges for both candidates: each candidate's first trial is abandoned.
    "$cli" train --dataset synthetic-teacher --test-fraction 0.2 --silos 10 --algorithm diff2 --model mlp \
        --gd-rounds 200 --epsilon 1 --seeds 0 --delta 1e-5 --auto-tune --axis 'full-clip=0.1,0.3' --quiet \
        --out tuned.jsonl > tuned.log \
        || { cat tuned.log >&2; fail "auto-tune failed"; }
    stated=$(grep -o 'compose to ε = [0-9.]*' tuned.jsonl | head -n 1 | sed 's/.*= //')
    [ -n "$stated" ] || fail "the statement gives no composed ε"
    grep -q "the choice is NOT covered by any ε" tuned.jsonl || fail "the statement does not say the choice is not covered"
    trials=$(python3 -c 'import json,sys; print(len(json.loads(open("tuned.jsonl").readline())["tuning_trials"]))')
    runs=$((trials + 1))
    listing=$("$cli" ledger tuned.jsonl --runs)
    grep -q "ε = $stated at δ = [0-9.e-]* by RDP composition of $runs runs" <<< "$listing" \
        || fail "the results file's ledger is not $runs runs at ε = $stated: $listing"
    [ "$(echo "$listing" | grep -c 'auto-tune trial')" -eq "$trials" ] || fail "not every trial is listed: $listing"
    grep -q "^  abandoned .*(abandoned)" <<< "$listing" || fail "no abandoned trial is charged: $listing"
    grep -q "persistent privacy ledger of synthetic-teacher.*ε = $stated at δ = [0-9.e-]* by RDP composition of $runs runs" tuned.log \
        || fail "the persistent ledger is not $runs runs at ε = $stated: $(cat tuned.log)"
    echo "auto-tune: $trials trials and the final run charged, ε = $stated as stated"
    ;;
*)
    echo "unknown case $case_name" >&2
    exit 2
    ;;
esac
