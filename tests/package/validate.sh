#!/bin/sh
# validate.sh TOOL ARGS...: runs the validator TOOL, or says "skipped: ..." when it is not
# installed (the test's SKIP_REGULAR_EXPRESSION turns that into a skip, not a pass).
if ! command -v "$1" > /dev/null 2>&1; then
    echo "skipped: $1 is not installed (Debian package in scripts/debian-packages.txt)"
    exit 0
fi
exec "$@"
