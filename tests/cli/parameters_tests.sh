#!/usr/bin/env bash
# Every declared setting round-trips through the command line: `pfa-cli train --NAME VALUE`
# (or --NAME / --no-NAME for on/off settings) records VALUE under the same name in the run's
# "settings". Generated from `pfa-cli parameters --tsv`, so a new parameter is covered with no
# change here.
set -u
cli="$1"
work="$2"
mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAILED: $*" >&2; exit 1; }

"$cli" parameters --tsv > parameters.tsv || fail "parameters --tsv"
[ "$(wc -l < parameters.tsv)" -ge 20 ] || fail "too few parameters listed"
checked=0
while IFS=$'\t' read -r name kind role default example algorithms; do
    [ "$role" = setting ] || continue
    algorithm="${algorithms%%,*}"
    [ -n "$algorithm" ] || fail "$name: read by no algorithm"
    case "$kind" in
        flag) if [ "$example" = true ]; then option=(--"$name"); else option=(--no-"$name"); fi
              expected="\"$name\":$example" ;;
        choice) option=(--"$name" "$example"); expected="\"$name\":\"$example\"" ;;
        *) option=(--"$name" "$example"); expected="\"$name\":$example" ;;
    esac
    rm -f one.jsonl
    epochs=(--epochs 1)
    [ "$name" = epochs ] && epochs=()
    data=(--dataset synthetic --synthetic-rows 400)
    # An algorithm whose unit of privacy is a user needs data with users.
    [ "$algorithm" = user-level-dp-sgd ] && data+=(--synthetic-users 40)
    [ "$algorithm" = ppsgd ] && data+=(--synthetic-users 40)
    # The algorithms that train across silos need data with silos.
    case "$algorithm" in isrl-*) data+=(--synthetic-silos 4) ;; esac
    # An algorithm that protects only the sensitive attribute runs privately in that scope.
    [ "$algorithm" = dp-reductions ] && [ "$name" != scope ] && data+=(--scope sensitive-only)
    # Post-processing for equalized odds protects only the sensitive attribute.
    [ "$algorithm" = dp-postprocessing ] && data+=(--fairness eo) && { [ "$name" = scope ] || data+=(--scope sensitive-only); }
    "$cli" train "${data[@]}" --algorithm "$algorithm" --epsilon 1 \
        "${epochs[@]}" --quiet --out one.jsonl "${option[@]}" > one.log 2>&1 || { cat one.log >&2; fail "$name: run refused"; }
    # δ and the epochs sit at the top level of a record, every other setting in "settings".
    case "$name" in
        delta|epochs) where='[{,]' ;;
        *) where='"settings":{[^}]*' ;;
    esac
    grep -q "$where$expected"'[,}]' one.jsonl || fail "$name: $expected not in the record"
    checked=$((checked + 1))
done < parameters.tsv
[ "$checked" -ge 20 ] || fail "only $checked settings checked"
echo "$checked settings round-trip through the command line into records"
