#!/usr/bin/env bash
# Release check: does the Debian package install and run on a brand-new Debian 12?
#
#   sudo bash scripts/check-deb-install.sh [path/to/pfa-explorer_VERSION_ARCH.deb]
#
# Without an argument the package is built first with cpack -G DEB in the build folder
# (PFA_BUILD_DIR, default build/). Builds a fresh Debian 12 (bookworm) minbase root with
# debootstrap in a temporary directory under /var/tmp (the root, its clean-up and the timings come
# from scripts/fresh_root.sh, shared with scripts/check-fresh-machine.sh), and inside it, as root:
#   1. apt-get install ./pfa-explorer_*.deb: only the package's run-time dependencies come in;
#   2. pfa-cli --version, and a short training run (pfa-cli train ... --epochs 5);
#   3. desktop-file-validate and appstreamcli validate --no-net on the installed desktop entry
#      and metainfo (the two validators are installed in the root for this);
#   4. a man page for pfa-cli, for every command 'pfa-cli --help' lists, and for pfa-explorer;
#   5. pfa-explorer on Qt's offscreen platform for 20 s: it must still be running at the end.
# Prints the time of each phase and the total, exits non-zero on any failure, and always
# unmounts and deletes the root (also after a failure or Ctrl+C).
#
# Environment: PFA_DEBIAN_MIRROR (default http://deb.debian.org/debian),
#              PFA_FRESH_CACHE (tarball folder, default /var/tmp/pfa-fresh-machine),
#              PFA_BUILD_DIR (default build, relative to the project).
set -euo pipefail

RUN_SECONDS=20
PROJECT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
APP_ID=io.github.pfa_explorer.PfaExplorer
FRESH_NAME=deb-install
source "$PROJECT/scripts/fresh_root.sh"
fresh_namespace "$PROJECT/scripts/check-deb-install.sh" "$@"

# --- the package ------------------------------------------------------------------------------
if [ $# -ge 1 ]; then
    DEB=$(realpath "$1")
else
    BUILD=$(cd "$PROJECT" && realpath "${PFA_BUILD_DIR:-build}")
    say "building the package: cpack -G DEB in $BUILD"
    (cd "$BUILD" && cpack -G DEB > /dev/null) || fail "cpack -G DEB failed in $BUILD"
    DEB=$(ls -t "$BUILD"/pfa-explorer_*.deb | head -n 1)
fi
[ -s "$DEB" ] || fail "no package at $DEB"
say "package: $DEB"
FRESH_PASSED="$(basename "$DEB") installs and runs on a fresh Debian 12 root"

fresh_work
fresh_debootstrap

# --- phase: machine set-up --------------------------------------------------------------------
phase "mounts" "/proc, /sys, /dev, resolv.conf"
fresh_mounts
cp "$DEB" "$ROOT/root/"
DEB_IN_ROOT=/root/$(basename "$DEB")

# --- phase: install the package -----------------------------------------------------------------
phase "apt-get install the package" "$DEB_IN_ROOT (run-time dependencies only)"
run_job in_root bash -c "apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $DEB_IN_ROOT" ||
    fail "the package did not install"

# --- phase: the command-line tool ---------------------------------------------------------------
phase "pfa-cli" "--version and a 5-epoch training run"
in_root pfa-cli --version || fail "pfa-cli --version failed"
run_job in_root pfa-cli train --dataset synthetic --epochs 5 --out /tmp/r.jsonl || fail "pfa-cli train failed"
[ -s "$ROOT/tmp/r.jsonl" ] || fail "pfa-cli train wrote no record"
say "pfa-cli train wrote $(wc -l < "$ROOT/tmp/r.jsonl") record(s)"

# --- phase: validators --------------------------------------------------------------------------
phase "validate desktop entry and metainfo" "installing desktop-file-utils and appstream in the root"
run_job in_root bash -c "DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends desktop-file-utils appstream" ||
    fail "could not install the validators"
in_root desktop-file-validate /usr/share/applications/$APP_ID.desktop || fail "desktop-file-validate failed"
in_root appstreamcli validate --no-net /usr/share/metainfo/$APP_ID.metainfo.xml || fail "appstreamcli validate failed"
[ -s "$ROOT/usr/share/icons/hicolor/scalable/apps/$APP_ID.svg" ] || fail "the icon is missing"

# --- phase: man pages ---------------------------------------------------------------------------
phase "man pages" "one per command of 'pfa-cli --help'"
commands=$(in_root pfa-cli --help | awk '/^commands:/ { on = 1; next } on && NF == 0 { exit } on && /^  [a-z]/ { print $1 }')
[ -n "$commands" ] || fail "'pfa-cli --help' lists no commands"
for page in pfa-cli pfa-explorer $(sed 's/^/pfa-cli-/' <<< "$commands"); do
    found=$(ls "$ROOT/usr/share/man/man1/$page.1"* 2>/dev/null || true)
    [ -n "$found" ] || fail "no man page $page(1)"
done
say "man pages present: pfa-cli, pfa-explorer and $(wc -w <<< "$commands") commands"

# --- phase: the desktop application, offscreen, for RUN_SECONDS ---------------------------------
phase "pfa-explorer (${RUN_SECONDS} s, offscreen)"
run_offscreen "$RUN_SECONDS" pfa-explorer "PFA_NO_TOUR=1 exec pfa-explorer"
phase ""
exit 0
