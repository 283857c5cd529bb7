#!/usr/bin/env bash
# Two builds serving hosted GETs at the same time, each loaded by its own wrk (one thread,
# keep-alive) at the same concurrency: both meet the same moments of this shared machine, so
# their CPU per GET (user and kernel, from /proc/PID/stat over the run) compare pair by pair
# where alternating runs drift. For telling two builds apart by a few percent; beside nginx, use
# run.sh.
# Usage: COMPARE_WITH=/path/to/other/artwork bench/hot/at-once.sh [SECONDS, default 5]
#   ROUNDS=5   CONNECTIONS=32
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
trap cleanup EXIT
DURATION=${1:-5}
ROUNDS=${ROUNDS:-5}
CONNECTIONS=${CONNECTIONS:-32}
: "${COMPARE_WITH:?set COMPARE_WITH to the other build}"
need_tool wrk wrk
ulimit -n "$(ulimit -Hn)"
build_release
make_photos
TICK=$(getconf CLK_TCK)

declare -A PORT_OF PID_OF PATH_OF
for name in this other; do
  binary=$ARTWORK
  [ "$name" = this ] || binary=$COMPARE_WITH
  ARTWORK=$binary start_service ARTWORK_STORAGE="$WORK/store-$name" \
    ARTWORK_MAX_CONNECTIONS_PER_CLIENT=100000
  PORT_OF[$name]=$PORT
  PID_OF[$name]=$SERVICE_PID
  PATH_OF[$name]=$(host_poster "$PORT")
done
url() { echo "http://127.0.0.1:${PORT_OF[$1]}${PATH_OF[$1]}"; }

# Warm both at once.
# (`wait` for that wrk alone: the services are background jobs of this shell too.)
wrk -t1 -c"$CONNECTIONS" -d2s "$(url this)" >/dev/null &
warming=$!
wrk -t1 -c"$CONNECTIONS" -d2s "$(url other)" >/dev/null
wait "$warming"
echo "| round | this: µs per GET (req/s) | COMPARE_WITH: µs per GET (req/s) | ratio of CPU per GET |"
echo "| ---: | ---: | ---: | ---: |"
for round in $(seq "$ROUNDS"); do
  declare -A BEFORE AFTER
  for name in this other; do BEFORE[$name]=$(cpu_ticks "${PID_OF[$name]}"); done
  wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" "$(url this)" >"$WORK/wrk-this" &
  loading=$!
  wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" "$(url other)" >"$WORK/wrk-other"
  wait "$loading"
  for name in this other; do AFTER[$name]=$(cpu_ticks "${PID_OF[$name]}"); done
  python3 - "$round" "$TICK" "$DURATION" \
    "$(awk '/requests in/ { print $1 }' "$WORK/wrk-this")" "$((AFTER[this] - BEFORE[this]))" \
    "$(awk '/requests in/ { print $1 }' "$WORK/wrk-other")" "$((AFTER[other] - BEFORE[other]))" <<'PY'
import sys
round, tick, seconds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
requests_a, ticks_a, requests_b, ticks_b = (int(x) for x in sys.argv[4:8])
a = ticks_a / tick / requests_a * 1e6
b = ticks_b / tick / requests_b * 1e6
print(f"| {round} | {a:.1f} ({requests_a / seconds:.0f}) | {b:.1f} ({requests_b / seconds:.0f}) | {a / b:.3f} |")
PY
done
