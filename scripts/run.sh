#!/usr/bin/env bash
# Sets up (missing Debian packages), builds (Release) and runs PFA Explorer on the built-in
# synthetic data set: a DP-FERMI grid over lambda, with the result table printed at the end.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

pfa_ensure_packages
pfa_build
exec "$PFA_BUILD/bin/pfa-cli" train --dataset synthetic --algorithm dp-fermi --epsilon 1 \
    --lambda 0,1,2,5 --seeds 0-2 --epochs 100 --out "$PFA_BUILD/run.jsonl" "$@"
