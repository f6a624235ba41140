#!/usr/bin/env bash
# Release check: does the Debian package install and run on a brand-new Debian 12?
#
#   sudo bash scripts/check-deb-install.sh [path/to/pfa-explorer_VERSION_ARCH.deb]
#
# Without an argument the package is built first with cpack -G DEB in the build folder
# (PFA_BUILD_DIR, default build/). Builds a fresh Debian 12 (bookworm) minbase root with
# debootstrap in a temporary directory under /var/tmp (same cached base tarball as
# scripts/check-fresh-machine.sh, whose structure this script follows), and inside it, as root:
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

SUITE=bookworm
MIRROR=${PFA_DEBIAN_MIRROR:-http://deb.debian.org/debian}
CACHE=${PFA_FRESH_CACHE:-/var/tmp/pfa-fresh-machine}
RUN_SECONDS=20
PROJECT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CHROOT_PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
APP_ID=io.github.pfa_explorer.PfaExplorer

if [ "$(id -u)" -ne 0 ]; then
    echo "check-deb-install.sh needs root (debootstrap, chroot, mounts): sudo bash $0" >&2
    exit 2
fi
# A private mount namespace: no mount made here is seen by the rest of the machine.
if [ -z "${PFA_FRESH_NAMESPACE:-}" ]; then
    exec env PFA_FRESH_NAMESPACE=1 unshare --mount --propagation private \
        bash "$PROJECT/scripts/check-deb-install.sh" "$@"
fi

say() { echo "== deb-install: $*"; }
fail() { echo "!! deb-install: $*" >&2; exit 1; }

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

# --- timing -----------------------------------------------------------------------------------
phase_names=()
phase_seconds=()
phase_name=""
phase_start=0
phase() {  # phase NAME [DETAIL]: ends the current phase (recording its time), starts the next
    local now=$SECONDS
    if [ -n "$phase_name" ]; then
        phase_names+=("$phase_name")
        phase_seconds+=($((now - phase_start)))
    fi
    phase_name=$1
    phase_start=$now
    if [ -n "$phase_name" ]; then say "$phase_name${2:+: $2}"; fi
}
print_timings() {
    echo "== deb-install: timings"
    local i
    for i in "${!phase_names[@]}"; do
        printf '   %-40s %5d s\n' "${phase_names[$i]}" "${phase_seconds[$i]}"
    done
    printf '   %-40s %5d s\n' "total" "$SECONDS"
}

# --- the new root and its clean-up ------------------------------------------------------------
WORK=$(mktemp -d /var/tmp/pfa-fresh-root.XXXXXX)
ROOT=$WORK/root
mkdir "$ROOT"

mounts_under_work() {  # mount points at or below $WORK, deepest first
    awk -v w="$WORK" '$5 == w || index($5, w "/") == 1 { print $5 }' /proc/self/mountinfo |
        sort -r
}
processes_in_root() {  # processes whose root directory is the new root (all started by this check)
    local p
    for p in /proc/[0-9]*; do
        [ "$(readlink "$p/root" 2>/dev/null)" = "$ROOT" ] && echo "${p#/proc/}"
    done
    return 0
}
# Long steps run in the background while the script waits for them: a waiting script reaches
# its INT/TERM trap at once (a foreground step would have to end first; apt ignores Ctrl+C).
job_pid=""
run_job() {  # run_job COMMAND...: runs COMMAND and returns its exit status
    local status=0
    "$@" &
    job_pid=$!
    wait "$job_pid" || status=$?
    job_pid=""
    return "$status"
}
cleanup() {
    local status=$? pids point
    trap - EXIT INT TERM
    set +e
    phase "clean-up" "stop processes, unmount, delete the root"
    if [ -n "$job_pid" ]; then kill -TERM "$job_pid" 2>/dev/null; fi
    pids=$(processes_in_root)
    if [ -n "$pids" ]; then
        kill -TERM $pids 2>/dev/null
        sleep 2
        pids=$(processes_in_root)
        [ -n "$pids" ] && kill -KILL $pids 2>/dev/null && sleep 1
    fi
    for point in $(mounts_under_work); do
        umount "$point" 2>/dev/null || umount --lazy "$point"
    done
    if [ -n "$(mounts_under_work)" ]; then
        # Never delete a tree that still has /dev or ../shared mounted inside it.
        echo "!! deb-install: still mounted, $WORK left in place: $(mounts_under_work | tr '\n' ' ')" >&2
        status=1
    else
        rm -rf --one-file-system "$WORK"
    fi
    phase ""
    print_timings
    if [ "$status" -eq 0 ]; then
        say "PASSED: $(basename "$DEB") installs and runs on a fresh Debian 12 root"
    else
        echo "!! deb-install: FAILED (exit status $status)" >&2
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'echo "!! deb-install: interrupted" >&2; exit 130' INT
trap 'echo "!! deb-install: terminated" >&2; exit 143' TERM

# --- phase: debootstrap -----------------------------------------------------------------------
if ! command -v debootstrap > /dev/null 2>&1; then
    phase "install debootstrap" "on this machine"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends debootstrap ||
        { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
              --no-install-recommends debootstrap; }
fi

TARBALL=$CACHE/$SUITE-minbase-git-$(dpkg --print-architecture).tgz
DEBOOTSTRAP=(debootstrap --variant=minbase --include=git)
if [ ! -s "$TARBALL" ]; then
    phase "download base system (first run only)" "$SUITE minbase + git into $TARBALL"
    mkdir -p "$CACHE"
    run_job "${DEBOOTSTRAP[@]}" --make-tarball="$WORK/base.tgz" "$SUITE" "$WORK/make-tarball" "$MIRROR"
    mv "$WORK/base.tgz" "$TARBALL"
    rm -rf --one-file-system "$WORK/make-tarball"
fi
phase "install fresh root (debootstrap)" "$SUITE minbase + git from $TARBALL into $ROOT"
run_job "${DEBOOTSTRAP[@]}" --unpack-tarball="$TARBALL" "$SUITE" "$ROOT" "$MIRROR"

# --- phase: machine set-up and clone ----------------------------------------------------------
phase "mounts" "/proc, /sys, /dev, resolv.conf"
mount -t proc proc "$ROOT/proc"
mount -t sysfs -o ro,nosuid,nodev,noexec sysfs "$ROOT/sys"
mount --bind /dev "$ROOT/dev"
mount --bind /dev/pts "$ROOT/dev/pts"
mount -t tmpfs -o nosuid,nodev,mode=1777 tmpfs "$ROOT/dev/shm"
cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf"
[ -e "$ROOT/etc/hosts" ] || printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' \
    > "$ROOT/etc/hosts"
# Like any chroot: packages must not start services in it.
printf '#!/bin/sh\nexit 101\n' > "$ROOT/usr/sbin/policy-rc.d"
chmod 755 "$ROOT/usr/sbin/policy-rc.d"


in_root() {  # a login's environment inside the new root, nothing inherited from this machine
    chroot "$ROOT" /usr/bin/env -i HOME=/root USER=root LOGNAME=root SHELL=/bin/bash \
        PATH="$CHROOT_PATH" LANG=C.UTF-8 TERM="${TERM:-dumb}" "$@"
}
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
timeout --kill-after=10 "$RUN_SECONDS" \
    chroot "$ROOT" /usr/bin/env -i HOME=/root USER=root LOGNAME=root SHELL=/bin/bash \
    PATH="$CHROOT_PATH" LANG=C.UTF-8 QT_QPA_PLATFORM=offscreen PFA_NO_TOUR=1 pfa-explorer &
run_pid=$!
job_pid=$run_pid
run_status=0
wait "$run_pid" || run_status=$?
job_pid=""
# timeout's 124: the program was still running when the time was up (it exits only on error).
[ "$run_status" -eq 124 ] ||
    fail "pfa-explorer ended with status $run_status before the ${RUN_SECONDS} s were up"
say "pfa-explorer was still running after ${RUN_SECONDS} s; stopped by the timeout"
phase ""
exit 0
