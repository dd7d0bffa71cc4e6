#!/usr/bin/env bash
# Build-time budgets of issue 18 (dev profile): the time cargo takes to build
# perfregs-metrics with one platform's feature and with every feature, and
# perfregs-hal with every project, each from a clean build of that crate
# (build script compiled and run, crate compiled) with its dependencies
# already built. Prints one line per configuration: the median of RUNS runs.
#
#   benches/build_times/run.sh [metrics-one | metrics-all | hal-all]...
#                                   (default: all three)
#
# Environment: RUNS (default 3), CARGO_TARGET_DIR (default
# target/build_times: never the target dir of another checkout),
# ONE (the platform of metrics-one, default bdw).
# The budgets (issue 18): metrics-one <= 3 s, metrics-all <= 20 s,
# hal-all <= the time before issue 18 x (register-project pairs now / 212).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
cd "$REPO"
unset PERFREGS_REGDEFS
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$REPO/target/build_times}
RUNS=${RUNS:-3}
ONE=${ONE:-bdw}
MODES=("$@")
[ ${#MODES[@]} -eq 0 ] && MODES=(metrics-one metrics-all hal-all)

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# time_build PACKAGE ARGS... -> seconds of `cargo build` after `cargo clean -p PACKAGE`
time_build() {
    local pkg=$1
    shift
    cargo build -q -p "$pkg" "$@" # dependencies (and a first build)
    local times=()
    for _ in $(seq "$RUNS"); do
        cargo clean -q -p "$pkg"
        local a b
        a=$(date +%s.%N)
        cargo build -q -p "$pkg" "$@"
        b=$(date +%s.%N)
        times+=("$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", b - a }')")
    done
    echo "$(median "${times[@]}") (runs: ${times[*]})"
}
# perfregs-metrics follows the HAL's projects (issue 24): one platform is
# the HAL's feature of that project, every platform the HAL's defaults.
pairs=$(cargo run -q -p perfregs-cli -- check | sed -n 's/.*(\([0-9]*\) register-project pairs.*/\1/p')
echo "register-project pairs: $pairs"
for m in "${MODES[@]}"; do
    case "$m" in
        metrics-one) echo "perfregs-metrics --features perfregs-hal/$ONE: $(time_build perfregs-metrics --no-default-features --features "perfregs-hal/$ONE") s" ;;
        metrics-all) echo "perfregs-metrics (every project of the HAL): $(time_build perfregs-metrics) s" ;;
        hal-all) echo "perfregs-hal (every project): $(time_build perfregs-hal) s" ;;
        *) echo "unknown mode $m" >&2; exit 2 ;;
    esac
done
