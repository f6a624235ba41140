#!/usr/bin/env bash
# Sets up (missing Debian packages), builds (Release) and launches PFA Explorer on the built-in
# synthetic data set, ready to press Run. Extra arguments go to pfa-explorer.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

pfa_ensure_packages
pfa_build
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
    echo "No display found: run this from a desktop session (or under 'xvfb-run')." >&2
    echo "Headless alternative: $PFA_BUILD/bin/pfa-cli train --help" >&2
    exit 1
fi
exec "$PFA_BUILD/bin/pfa-explorer" "$@"
