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
# Takes about 8 minutes on an idle 2-core machine, nearly all of it the test command (build and
# tests); the first run also downloads the base system (about a minute).
#
# Environment: PFA_DEBIAN_MIRROR (default http://deb.debian.org/debian),
#              PFA_FRESH_CACHE (tarball folder, default /var/tmp/pfa-fresh-machine).
set -euo pipefail

SUITE=bookworm
MIRROR=${PFA_DEBIAN_MIRROR:-http://deb.debian.org/debian}
CACHE=${PFA_FRESH_CACHE:-/var/tmp/pfa-fresh-machine}
RUN_SECONDS=20
PROJECT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CHROOT_PROJECT=/root/pfa-explorer  # and /root/shared beside it
CHROOT_PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

if [ "$(id -u)" -ne 0 ]; then
    echo "check-fresh-machine.sh needs root (debootstrap, chroot, mounts): sudo bash $0" >&2
    exit 2
fi
# Everything runs in a private mount namespace: no mount made here is seen by, or propagates
# to, the rest of the machine, and they all vanish with its last process even if the check is
# killed outright.
if [ -z "${PFA_FRESH_NAMESPACE:-}" ]; then
    exec env PFA_FRESH_NAMESPACE=1 unshare --mount --propagation private \
        bash "$PROJECT/scripts/check-fresh-machine.sh" "$@"
fi

say() { echo "== fresh-machine: $*"; }
fail() { echo "!! fresh-machine: $*" >&2; exit 1; }

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
    echo "== fresh-machine: timings"
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
        echo "!! fresh-machine: still mounted, $WORK left in place: $(mounts_under_work | tr '\n' ' ')" >&2
        status=1
    else
        rm -rf --one-file-system "$WORK"
    fi
    phase ""
    print_timings
    if [ "$status" -eq 0 ]; then
        say "PASSED: README's two commands work on a fresh Debian 12 root"
    else
        echo "!! fresh-machine: FAILED (exit status $status)" >&2
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'echo "!! fresh-machine: interrupted" >&2; exit 130' INT
trap 'echo "!! fresh-machine: terminated" >&2; exit 143' TERM

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
phase "mounts and clone" "/proc, /sys, /dev, ../shared (read-only), resolv.conf; clone of HEAD $(git -C "$PROJECT" rev-parse --short HEAD)"
if [ -n "$(git -C "$PROJECT" status --porcelain --untracked-files=no)" ]; then
    say "note: $PROJECT has uncommitted changes; the check uses the committed HEAD"
fi
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

if [ -d "$PROJECT/../shared" ]; then
    mkdir "$ROOT/root/shared"
    mount --bind "$PROJECT/../shared" "$ROOT/root/shared"
    mount -o remount,bind,ro "$ROOT/root/shared"
else
    say "note: no ../shared beside $PROJECT; the tests that need its data files are skipped"
fi

# A login's environment inside the new root, nothing inherited from this machine.
in_root() {
    chroot "$ROOT" /usr/bin/env -i HOME=/root USER=root LOGNAME=root SHELL=/bin/bash \
        PATH="$CHROOT_PATH" LANG=C.UTF-8 TERM="${TERM:-dumb}" "$@"
}
git -C "$PROJECT" bundle create --quiet "$ROOT/root/pfa-explorer.bundle" HEAD
in_root git -c advice.detachedHead=false clone -q /root/pfa-explorer.bundle "$CHROOT_PROJECT"
rm "$ROOT/root/pfa-explorer.bundle"
in_root git -C "$CHROOT_PROJECT" log --oneline -1

# --- phase: README's test command -------------------------------------------------------------
phase "test command" "$TEST_COMMAND"
run_job in_root bash -c "cd $CHROOT_PROJECT && $TEST_COMMAND" || fail "README's test command failed"

# --- phase: README's run command, offscreen, for RUN_SECONDS -----------------------------------
phase "run command (${RUN_SECONDS} s, offscreen)" "$RUN_COMMAND"
timeout --kill-after=10 "$RUN_SECONDS" \
    chroot "$ROOT" /usr/bin/env -i HOME=/root USER=root LOGNAME=root SHELL=/bin/bash \
    PATH="$CHROOT_PATH" LANG=C.UTF-8 TERM="${TERM:-dumb}" QT_QPA_PLATFORM=offscreen \
    bash -c "cd $CHROOT_PROJECT && exec $RUN_COMMAND" &
run_pid=$!
job_pid=$run_pid
milliseconds() { local t=${EPOCHREALTIME/[.,]/}; echo $((t / 1000)); }
run_start=$(milliseconds)
first_seen=""   # ms after the start when pfa-explorer was first seen running in the root
last_seen=""    # ... and last seen
while kill -0 "$run_pid" 2>/dev/null; do
    for pid in $(processes_in_root); do
        if [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "pfa-explorer" ]; then
            [ -n "$first_seen" ] || first_seen=$(($(milliseconds) - run_start))
            last_seen=$(($(milliseconds) - run_start))
        fi
    done
    sleep 0.2
done
run_status=0
wait "$run_pid" || run_status=$?
job_pid=""
if [ "$run_status" -ne 124 ]; then
    fail "the run command ended with status $run_status before the ${RUN_SECONDS} s were up"
fi
# Status 124 alone could mean the build was still going: pfa-explorer itself must have been
# running until (within a poll of) the timeout.
if [ -z "$first_seen" ] || [ "$last_seen" -lt $((RUN_SECONDS * 1000 - 1000)) ]; then
    fail "pfa-explorer was not running when the ${RUN_SECONDS} s were up (first seen: ${first_seen:-never} ms, last seen: ${last_seen:-never} ms)"
fi
say "pfa-explorer was running from ${first_seen} ms to at least ${last_seen} ms after the run command; stopped by the timeout"
phase ""
exit 0
