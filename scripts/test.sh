#!/usr/bin/env bash
# Sets up (missing Debian packages), builds (Release) and runs every test of PFA Explorer.
# Extra arguments go to ctest, e.g. `bash scripts/test.sh -R privacy`.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

pfa_ensure_packages
pfa_build
cd "$PFA_BUILD"
QT_QPA_PLATFORM=offscreen ctest --output-on-failure --parallel "$(nproc)" "$@"
