#!/usr/bin/env bash
# Sets up (missing Debian packages), builds (Release) and runs every test of PFA Explorer.
#   bash scripts/test.sh            every test
#   bash scripts/test.sh --quick    all but the tests labelled "slow": the edit–compile–test loop
# Other arguments go to ctest, e.g. `bash scripts/test.sh -R privacy` or `-L core`
# (`ctest --print-labels` in build/ lists the labels).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

ctest_args=()
for argument in "$@"; do
    case "$argument" in
        --quick) ctest_args+=(--label-exclude slow) ;;
        *) ctest_args+=("$argument") ;;
    esac
done

start=$SECONDS
pfa_ensure_packages
packages_seconds=$((SECONDS - start))
pfa_build
build_seconds=$((SECONDS - start - packages_seconds))
cd "$PFA_BUILD"
QT_QPA_PLATFORM=offscreen ctest --output-on-failure --parallel "$(nproc)" "${ctest_args[@]}"
echo "test.sh: packages ${packages_seconds} s, configure and build ${build_seconds} s," \
     "tests $((SECONDS - start - packages_seconds - build_seconds)) s"
