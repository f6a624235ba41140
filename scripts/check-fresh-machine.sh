#!/usr/bin/env bash
# Release check: do README's two commands work on a brand-new Debian 12 that has nothing but git?
#
#   sudo bash scripts/check-fresh-machine.sh
#
# Builds a fresh Debian 12 (bookworm) root with debootstrap (variant minbase, plus git only) in
# a temporary directory under /var/tmp, clones the committed HEAD of this checkout into it with
# this checkout's ../shared bind-mounted read-only beside it (when it exists), and inside that
# root, as root, runs
#   1. README's test command (it installs the Debian packages, builds and runs every test);
#   2. README's run command on Qt's offscreen platform for 20 s: the application must still be
#      running when the 20 s are up (an earlier exit or a crash fails the check).
# Both commands are read from the two ```sh blocks of README.md's "Two commands" section (at
# HEAD), so the check follows README. Prints the time of each phase and the total, exits non-zero
# on any failure, and always unmounts and deletes the root (also after a failure or Ctrl+C).
#
# Needs root (debootstrap, chroot, mounts) and network access to the Debian mirror. The base
# system is downloaded once into a tarball under /var/tmp and unpacked from there afterwards.
# Takes about 9 minutes on an idle 2-core machine, nearly all of it the test command (build and
# tests); the first run also downloads the base system (about a minute).
#
# The root, its clean-up and the timings come from scripts/fresh_root.sh (shared with
# scripts/check-deb-install.sh). Environment: PFA_DEBIAN_MIRROR (default
# http://deb.debian.org/debian), PFA_FRESH_CACHE (tarball folder, default
# /var/tmp/pfa-fresh-machine).
set -euo pipefail

RUN_SECONDS=20
PROJECT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CHROOT_PROJECT=/root/pfa-explorer  # and /root/shared beside it
FRESH_NAME=fresh-machine
FRESH_PASSED="README's two commands work on a fresh Debian 12 root"
source "$PROJECT/scripts/fresh_root.sh"
fresh_namespace "$PROJECT/scripts/check-fresh-machine.sh" "$@"

# --- README's two commands --------------------------------------------------------------------
# Every line of every ```sh block in the "## Two commands" section, as "<block number> <line>".
readme=$(git -C "$PROJECT" show HEAD:README.md)
blocks=$(awk '
    /^## /                          { in_section = ($0 ~ /^## Two commands/); next }
    in_section && /^```sh[ \t]*$/   { in_block = 1; next }
    in_section && in_block && /^```/ { in_block = 0; n++; next }
    in_section && in_block && NF    { print n + 0, $0 }
' <<< "$readme")
[ "$(wc -l <<< "$blocks")" -eq 2 ] && [ "$(cut -d' ' -f1 <<< "$blocks" | tr '\n' ' ')" = "0 1 " ] ||
    fail "README.md's \"Two commands\" section must hold exactly two \`\`\`sh blocks of one line each; found:
$blocks"
RUN_COMMAND=$(sed -n '1s/^0 //p' <<< "$blocks")   # first block: set up, build and launch
TEST_COMMAND=$(sed -n '2s/^1 //p' <<< "$blocks")  # second block: set up, build and run all tests
say "README's run command:  $RUN_COMMAND"
say "README's test command: $TEST_COMMAND"

fresh_work
fresh_debootstrap

# --- phase: machine set-up and clone ----------------------------------------------------------
phase "mounts and clone" "/proc, /sys, /dev, ../shared (read-only), resolv.conf; clone of HEAD $(git -C "$PROJECT" rev-parse --short HEAD)"
if [ -n "$(git -C "$PROJECT" status --porcelain --untracked-files=no)" ]; then
    say "note: $PROJECT has uncommitted changes; the check uses the committed HEAD"
fi
fresh_mounts
if [ -d "$PROJECT/../shared" ]; then
    mkdir "$ROOT/root/shared"
    mount --bind "$PROJECT/../shared" "$ROOT/root/shared"
    mount -o remount,bind,ro "$ROOT/root/shared"
else
    say "note: no ../shared beside $PROJECT; the tests that need its data files are skipped"
fi
git -C "$PROJECT" bundle create --quiet "$ROOT/root/pfa-explorer.bundle" HEAD
in_root git -c advice.detachedHead=false clone -q /root/pfa-explorer.bundle "$CHROOT_PROJECT"
rm "$ROOT/root/pfa-explorer.bundle"
in_root git -C "$CHROOT_PROJECT" log --oneline -1

# --- phase: README's test command -------------------------------------------------------------
phase "test command" "$TEST_COMMAND"
run_job in_root bash -c "cd $CHROOT_PROJECT && $TEST_COMMAND" || fail "README's test command failed"

# --- phase: README's run command, offscreen, for RUN_SECONDS -----------------------------------
phase "run command (${RUN_SECONDS} s, offscreen)" "$RUN_COMMAND"
run_offscreen "$RUN_SECONDS" pfa-explorer "cd $CHROOT_PROJECT && exec $RUN_COMMAND"
phase ""
exit 0
