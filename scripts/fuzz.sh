#!/usr/bin/env bash
# Fuzzes the data-file readers (CSV/TSV and ARFF, with the file preview) with libFuzzer,
# AddressSanitizer and UndefinedBehaviorSanitizer.
#
#   bash scripts/fuzz.sh [seconds-per-target] [build-dir]
#
# Builds the core sources the readers need plus each target in tests/fuzz/ with
# `clang++ -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined` into build-dir (default
# build/fuzz; objects are rebuilt only when a source or header changed), then runs each target
# for the given seconds (default 60) on a fresh copy of its seed corpus (tests/fuzz/corpus/<name>).
# Prints libFuzzer's final status line (executions, coverage) and stats per target. Exits
# non-zero when a target crashed, hung, leaked or hit undefined behaviour; the input that did
# it is kept in build-dir/artifacts/<target>/ (reproduce: build-dir/<target> <that file>).
set -euo pipefail

SECONDS_PER_TARGET=${1:-60}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${2:-$ROOT/build/fuzz}
CXX=${PFA_FUZZ_CXX:-clang++}
TARGETS=(csv_reader_fuzz arff_reader_fuzz)
# The core sources the readers need (no Eigen, no threads).
CORE_SOURCES=(
    core/data/arff_parser.cpp
    core/data/arff_reader.cpp
    core/data/csv_reader.cpp
    core/data/data_checks.cpp
    core/data/delimited_parser.cpp
    core/data/file_preview.cpp
    core/data/line_reader.cpp
    core/data/record_assembler.cpp
    core/data/schema.cpp
    core/data/text_cells.cpp
)
FLAGS=(-std=c++20 -O1 -g -fno-omit-frame-pointer -fno-sanitize-recover=undefined
       -Wall -Wextra -Wpedantic -I"$ROOT")

if ! command -v "$CXX" >/dev/null 2>&1; then
    echo "fuzz.sh: $CXX not found (libFuzzer needs clang)" >&2
    exit 2
fi
mkdir -p "$BUILD/obj"

# Newest modification time among the headers every object depends on.
newest_header=$(find "$ROOT/core/data" "$ROOT/core/util" "$ROOT/tests/fuzz" -name '*.h' \
                    -printf '%T@\n' | sort -n | tail -1)
is_stale() {  # is_stale <output> <source>
    [ ! -e "$1" ] && return 0
    [ "$2" -nt "$1" ] && return 0
    local out_time
    out_time=$(stat -c '%Y' "$1")
    awk -v h="$newest_header" -v o="$out_time" 'BEGIN { exit !(h > o) }'
}

echo "== building fuzz targets in $BUILD"
pids=()
objects=()
for src in "${CORE_SOURCES[@]}"; do
    obj="$BUILD/obj/$(basename "${src%.cpp}").o"
    objects+=("$obj")
    if is_stale "$obj" "$ROOT/$src"; then
        "$CXX" "${FLAGS[@]}" -fsanitize=fuzzer-no-link,address,undefined \
            -c "$ROOT/$src" -o "$obj" &
        pids+=($!)
        # Two compiles at a time: enough for a CI runner, gentle on a laptop.
        if [ ${#pids[@]} -ge 2 ]; then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
    fi
done
for pid in "${pids[@]}"; do wait "$pid"; done
for target in "${TARGETS[@]}"; do
    src="$ROOT/tests/fuzz/$target.cpp"
    stale=false
    is_stale "$BUILD/$target" "$src" && stale=true
    for obj in "${objects[@]}"; do [ "$obj" -nt "$BUILD/$target" ] && stale=true; done
    if $stale; then
        "$CXX" "${FLAGS[@]}" -fsanitize=fuzzer,address,undefined "$src" "${objects[@]}" \
            -o "$BUILD/$target"
    fi
done

export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
failed=()
# This run's own copies of the corpora: a fuzzer left running by an interrupted earlier run still
# writes into its own folder, never into this one's.
corpora=$(mktemp -d "$BUILD/corpus.XXXXXX")
trap 'rm -rf "$corpora"' EXIT
for target in "${TARGETS[@]}"; do
    name=${target%_reader_fuzz}  # csv, arff
    work="$corpora/$name"
    artifacts="$BUILD/artifacts/$target"
    log="$BUILD/$target.log"
    mkdir -p "$work" "$artifacts"
    cp "$ROOT/tests/fuzz/corpus/$name"/* "$work"/
    dict=()
    [ -f "$ROOT/tests/fuzz/$name.dict" ] && dict=(-dict="$ROOT/tests/fuzz/$name.dict")
    echo "== $target: ${SECONDS_PER_TARGET}s on a copy of tests/fuzz/corpus/$name"
    status=0
    "$BUILD/$target" -max_total_time="$SECONDS_PER_TARGET" -print_final_stats=1 \
        -timeout=10 -rss_limit_mb=2048 -max_len=8192 -artifact_prefix="$artifacts/" \
        "${dict[@]}" "$work" >"$log" 2>&1 || status=$?
    if [ "$status" -eq 0 ]; then
        grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1 || true
        grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' "$log" || true
    else
        echo "!! $target FAILED (exit $status); last lines of $log:"
        tail -n 60 "$log"
        echo "!! artifacts: $(ls "$artifacts" 2>/dev/null | tr '\n' ' ')"
        failed+=("$target")
    fi
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz.sh: failures in ${failed[*]}" >&2
    exit 1
fi
echo "fuzz.sh: no crash, hang, leak or undefined behaviour found"
