#!/usr/bin/env bash
# `perfregs top` keeps flat memory: it runs on the emulated TGL stream at the
# smallest period (exponent 0) in plain mode for DURATION seconds (default
# 3600), its RSS (VmRSS of /proc/PID/status) sampled every EVERY seconds;
# prints the first, last and largest sample and fails when the last exceeds
# the first by more than MAX_GROWTH_KB (default 2048 KiB).
#
#   benches/top_memory/run.sh [DURATION_S] [EVERY_S]
#
# The binary: $PERFREGS, else target/debug/perfregs (built by this script
# with cargo build -p perfregs-cli when missing; $CARGO_TARGET_DIR honoured).
# The first sample is taken after a warm-up of EVERY seconds, so that the
# allocations of the start (the stream, the set, the view) are in it.
set -euo pipefail
cd "$(dirname "$0")/../.."

duration=${1:-3600}
every=${2:-10}
max_growth_kb=${MAX_GROWTH_KB:-2048}
target=${CARGO_TARGET_DIR:-target}
bin=${PERFREGS:-$target/debug/perfregs}
if [ ! -x "$bin" ]; then
  cargo build -q -p perfregs-cli --bin perfregs
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$bin" top --emulate tgl --metric-set RenderBasic --exponent 0 \
  --refresh 100ms --duration "${duration}s" >"$log" 2>&1 &
pid=$!

rss() { awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null || true; }

first="" last="" max=0 n=0
sleep "$every"
while kill -0 "$pid" 2>/dev/null; do
  r=$(rss)
  [ -n "$r" ] || break
  [ -n "$first" ] || first=$r
  last=$r
  [ "$r" -gt "$max" ] && max=$r
  n=$((n + 1))
  echo "t=$((n * every))s VmRSS=${r} kB"
  sleep "$every"
done
status=0
wait "$pid" || status=$?
if [ "$status" != 0 ]; then
  echo "perfregs top failed (exit $status):" >&2
  tail -5 "$log" >&2
  exit 1
fi
if [ -z "$first" ]; then
  echo "no sample taken: give a DURATION longer than EVERY ($every s)" >&2
  exit 1
fi
lines=$(wc -l <"$log")
echo "samples: $n every ${every}s; VmRSS first ${first} kB, last ${last} kB, max ${max} kB; ${lines} output lines"
echo "last line: $(tail -1 "$log" | cut -c1-160)"
growth=$((last - first))
if [ "$growth" -gt "$max_growth_kb" ]; then
  echo "FAIL: RSS grew by ${growth} kB (bound ${max_growth_kb} kB)" >&2
  exit 1
fi
echo "ok: RSS grew by ${growth} kB (bound ${max_growth_kb} kB)"
