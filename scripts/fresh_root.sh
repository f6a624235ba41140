# Shared by the release checks scripts/check-fresh-machine.sh and scripts/check-deb-install.sh:
# a brand-new minimal Debian 12 root under /var/tmp, commands run inside it with a login's clean
# environment, timed phases, and a clean-up that stops the root's processes, unmounts and
# deletes it on any exit (also after a failure or Ctrl+C).
# shellcheck shell=bash
#
# The sourcing script sets FRESH_NAME (the prefix of its messages) and FRESH_PASSED (its success
# line), calls fresh_namespace "$script" "$@" first, then fresh_work, fresh_debootstrap and
# fresh_mounts, and runs commands with in_root and run_job.
#
# Environment: PFA_DEBIAN_MIRROR (default http://deb.debian.org/debian),
#              PFA_FRESH_CACHE (tarball folder, default /var/tmp/pfa-fresh-machine).

SUITE=bookworm
MIRROR=${PFA_DEBIAN_MIRROR:-http://deb.debian.org/debian}
CACHE=${PFA_FRESH_CACHE:-/var/tmp/pfa-fresh-machine}
CHROOT_PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

say() { echo "== $FRESH_NAME: $*"; }
fail() { echo "!! $FRESH_NAME: $*" >&2; exit 1; }

# fresh_namespace SCRIPT ARGS...: needs root; runs SCRIPT again in a private mount namespace, so
# that no mount made here is seen by, or propagates to, the rest of the machine, and they all
# vanish with its last process even if the check is killed outright.
fresh_namespace() {
    if [ "$(id -u)" -ne 0 ]; then
        echo "$(basename "$1") needs root (debootstrap, chroot, mounts): sudo bash $1" >&2
        exit 2
    fi
    if [ -z "${PFA_FRESH_NAMESPACE:-}" ]; then
        exec env PFA_FRESH_NAMESPACE=1 unshare --mount --propagation private bash "$@"
    fi
}

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
    echo "== $FRESH_NAME: timings"
    local i
    for i in "${!phase_names[@]}"; do
        printf '   %-40s %5d s\n' "${phase_names[$i]}" "${phase_seconds[$i]}"
    done
    printf '   %-40s %5d s\n' "total" "$SECONDS"
}

# --- the new root and its clean-up ------------------------------------------------------------
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
    local status=$? pids point waited=0
    # A second Ctrl+C or TERM must not cut the clean-up short: that would leave the root's
    # processes running and the root in place.
    trap - EXIT
    trap '' INT TERM
    set +e
    phase "clean-up" "stop processes, unmount, delete the root"
    if [ -n "$job_pid" ]; then
        kill -TERM "$job_pid" 2>/dev/null
        # The step may have a clean-up of its own to finish (apt, a nested check).
        while kill -0 "$job_pid" 2>/dev/null && [ "$waited" -lt 600 ]; do
            sleep 1
            waited=$((waited + 1))
        done
    fi
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
        echo "!! $FRESH_NAME: still mounted, $WORK left in place: $(mounts_under_work | tr '\n' ' ')" >&2
        status=1
    else
        rm -rf --one-file-system "$WORK"
    fi
    phase ""
    print_timings
    if [ "$status" -eq 0 ]; then
        say "PASSED: $FRESH_PASSED"
    else
        echo "!! $FRESH_NAME: FAILED (exit status $status)" >&2
    fi
    exit "$status"
}

# fresh_work: the temporary folder $WORK holding the root $ROOT, deleted by the clean-up.
fresh_work() {
    WORK=$(mktemp -d /var/tmp/pfa-fresh-root.XXXXXX)
    ROOT=$WORK/root
    mkdir "$ROOT"
    trap cleanup EXIT
    trap 'echo "!! $FRESH_NAME: interrupted" >&2; exit 130' INT
    trap 'echo "!! $FRESH_NAME: terminated" >&2; exit 143' TERM
}

# fresh_debootstrap: Debian 12 minbase plus git in $ROOT. The base system is downloaded once into
# a tarball under $CACHE and unpacked from there afterwards.
fresh_debootstrap() {
    if ! command -v debootstrap > /dev/null 2>&1; then
        phase "install debootstrap" "on this machine"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends debootstrap ||
            { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
                  --no-install-recommends debootstrap; }
    fi
    local tarball debootstrap
    tarball=$CACHE/$SUITE-minbase-git-$(dpkg --print-architecture).tgz
    debootstrap=(debootstrap --variant=minbase --include=git)
    if [ ! -s "$tarball" ]; then
        phase "download base system (first run only)" "$SUITE minbase + git into $tarball"
        mkdir -p "$CACHE"
        run_job "${debootstrap[@]}" --make-tarball="$WORK/base.tgz" "$SUITE" "$WORK/make-tarball" "$MIRROR"
        mv "$WORK/base.tgz" "$tarball"
        rm -rf --one-file-system "$WORK/make-tarball"
    fi
    phase "install fresh root (debootstrap)" "$SUITE minbase + git from $tarball into $ROOT"
    run_job "${debootstrap[@]}" --unpack-tarball="$tarball" "$SUITE" "$ROOT" "$MIRROR"
}

# fresh_mounts: /proc, /sys, /dev, /dev/pts, /dev/shm and name resolution inside $ROOT, and no
# service started by a package.
fresh_mounts() {
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
}

# A login's environment inside the new root, nothing inherited from this machine.
in_root() {
    chroot "$ROOT" /usr/bin/env -i HOME=/root USER=root LOGNAME=root SHELL=/bin/bash \
        PATH="$CHROOT_PATH" LANG=C.UTF-8 TERM="${TERM:-dumb}" "$@"
}

# run_offscreen SECONDS PROGRAM COMMAND: runs COMMAND (a bash command line) in the root with Qt's
# offscreen platform, stops it after SECONDS, and fails unless PROGRAM (a process name) was
# running in the root until then: an earlier exit or a crash fails.
run_offscreen() {
    local seconds=$1 program=$2 command=$3 run_pid run_start first_seen="" last_seen="" run_status=0
    timeout --kill-after=10 "$seconds" \
        chroot "$ROOT" /usr/bin/env -i HOME=/root USER=root LOGNAME=root SHELL=/bin/bash \
        PATH="$CHROOT_PATH" LANG=C.UTF-8 TERM="${TERM:-dumb}" QT_QPA_PLATFORM=offscreen \
        bash -c "$command" &
    run_pid=$!
    job_pid=$run_pid
    milliseconds() { local t=${EPOCHREALTIME/[.,]/}; echo $((t / 1000)); }
    run_start=$(milliseconds)
    while kill -0 "$run_pid" 2>/dev/null; do
        for pid in $(processes_in_root); do
            if [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$program" ]; then
                [ -n "$first_seen" ] || first_seen=$(($(milliseconds) - run_start))
                last_seen=$(($(milliseconds) - run_start))
            fi
        done
        sleep 0.2
    done
    wait "$run_pid" || run_status=$?
    job_pid=""
    if [ "$run_status" -ne 124 ]; then
        fail "'$command' ended with status $run_status before the $seconds s were up"
    fi
    # Status 124 alone could mean a build was still going: the program itself must have been
    # running until (within a poll of) the timeout.
    if [ -z "$first_seen" ] || [ "$last_seen" -lt $((seconds * 1000 - 1000)) ]; then
        fail "$program was not running when the $seconds s were up (first seen: ${first_seen:-never} ms, last seen: ${last_seen:-never} ms)"
    fi
    say "$program was running from ${first_seen} ms to at least ${last_seen} ms after the start; stopped by the timeout"
}
