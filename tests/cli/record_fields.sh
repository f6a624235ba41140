# Sourced by the CLI tests and scripts/check-slurm.sh: record_fields FILE [PATTERN ...] prints,
# per record of a results file, the first match of each pattern (default: run key, test error,
# training loss, epsilon spent, model), one line per record, sorted — two files compared with
# diff then agree when their runs agree field by field, whatever their order.
record_fields() {
    local file="$1"
    shift
    local patterns=("$@")
    if [ ${#patterns[@]} -eq 0 ]; then
        patterns=('"run_key":"[^"]*"' '"test_error":[^,]*' '"train_loss":[^,]*'
                  '"epsilon_spent":[^,]*' '"theta":\[\[[^]]*\]')
    fi
    while IFS= read -r line; do
        for pattern in "${patterns[@]}"; do
            printf '%s ' "$(grep -o "$pattern" <<< "$line" | head -1)"
        done
        echo
    done < "$file" | sort
}
