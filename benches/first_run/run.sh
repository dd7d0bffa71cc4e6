#!/usr/bin/env bash
# The first run of a new user (issue 26, item 8): the README's two set-up
# commands from a fresh clone with an empty target dir, each timed.
#
#   benches/first_run/run.sh [REPO]      (default: this checkout's HEAD)
#
# Clones REPO (committed state only) into a temporary folder beside a copy
# of ../shared's link, then times, one after the other:
#   1. cargo run --example oa_sample   (the main job; target <= 90 s)
#   2. cargo test --workspace          (the tests; target <= 5 min)
# Prints one line per command with its wall time and exit code, and the
# sizes of what each built (target dir). The clone is removed at the end
# (KEEP=1 keeps it). Run it on a quiet machine: it uses every core.
set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=${1:-$(cd "$HERE/../.." && pwd)}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/perfregs-first-run.XXXXXX")
cleanup() { [ "${KEEP:-0}" = 1 ] || rm -rf "$WORK"; }
trap cleanup EXIT
# The descriptions' sources beside the clone, as CI has them.
if [ -e "$REPO/../shared" ]; then ln -s "$(cd "$REPO/../shared" && pwd)" "$WORK/shared"; fi
git clone -q "$REPO" "$WORK/main" || { echo "cannot clone $REPO" >&2; exit 2; }
cd "$WORK/main" || exit 2
unset CARGO_TARGET_DIR PERFREGS_REGDEFS
echo "fresh clone of $(git log --oneline -1) in $WORK/main; $(nproc) cores; $(cargo --version)"
timed() {
    local what=$1
    shift
    local a b rc
    a=$(date +%s.%N)
    "$@" >"$WORK/$what.log" 2>&1
    rc=$?
    b=$(date +%s.%N)
    printf '%-40s %7.1f s  exit %d  (target dir %s; log %s)\n' "$*" \
        "$(awk -v a="$a" -v b="$b" 'BEGIN { print b - a }')" "$rc" \
        "$(du -sh target 2>/dev/null | cut -f1)" "$WORK/$what.log"
}
timed example cargo run --example oa_sample
timed tests cargo test --workspace
# The tests should reuse what the main job built: a crates.io crate compiled
# by both commands (before the tests start running: the compile-fail test
# builds its own copies in a target dir of its own) means their features or profiles differ (Cargo.toml's
# build-override and the pinned syn features say why that matters).
again=$(grep -h '^ *Compiling ' "$WORK/example.log" | grep -v '(/' | awk '{ print $2, $3 }' | sort -u |
    comm -12 - <(sed '/^ *Running /q' "$WORK/tests.log" | grep -h '^ *Compiling ' | grep -v '(/' | awk '{ print $2, $3 }' | sort -u))
if [ -n "$again" ]; then
    echo "compiled by both commands (the tests did not reuse the main job's build): $(echo "$again" | awk '{ print $1 }' | tr '\n' ' ')"
else
    echo "the tests reused every crates.io crate the main job built"
fi
