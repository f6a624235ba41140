# Shared by scripts/run.sh and scripts/test.sh: package check, configure, build.
# shellcheck shell=bash

PFA_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PFA_BUILD=${PFA_BUILD_DIR:-$PFA_ROOT/build}

# Installs the Debian packages listed in scripts/debian-packages.txt that are missing:
# directly with apt-get when running as root, otherwise prints the exact sudo line and stops.
pfa_ensure_packages() {
    local wanted missing=()
    wanted=$(grep -v '^\s*#' "$PFA_ROOT/scripts/debian-packages.txt" | grep -v '^\s*$')
    for package in $wanted; do
        if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$package")
        fi
    done
    if [ ${#missing[@]} -eq 0 ]; then
        return 0
    fi
    if [ "$(id -u)" -eq 0 ]; then
        echo "Installing missing packages: ${missing[*]}"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -q
        apt-get install -y -q --no-install-recommends "${missing[@]}"
    else
        echo "PFA Explorer needs these Debian packages, which are not installed:" >&2
        echo "    sudo apt-get install -y ${missing[*]}" >&2
        echo "Run that line, then run this script again." >&2
        exit 1
    fi
}

# New build folders use Ninja when it is installed (it is in debian-packages.txt): unlike
# Makefiles it compiles a target's files while the libraries it links are still being built,
# which keeps both cores busy to the end (a cold build about 20 s faster on 2 cores). An existing
# folder keeps its generator (CMake reads CMAKE_GENERATOR only for a new one).
pfa_use_ninja() {
    if [ -z "${CMAKE_GENERATOR:-}" ] && command -v ninja >/dev/null; then
        export CMAKE_GENERATOR=Ninja
    fi
}

# Configures a Release build in $PFA_BUILD and builds it with all cores.
pfa_build() {
    pfa_use_ninja
    cmake -S "$PFA_ROOT" -B "$PFA_BUILD" -DCMAKE_BUILD_TYPE=Release "$@"
    cmake --build "$PFA_BUILD" --parallel "$(nproc)"
}
