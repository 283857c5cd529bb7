#!/usr/bin/env bash
# Loops per core (issue 30): the same build with ARTWORK_HTTP_THREADS=1 and =2 beside nginx
# (2 workers), in one run. Hosted GETs from the hot cache with wrk (one thread, keep-alive) at
# each concurrency, in alternating rounds: answers a second and each server's own CPU time per
# GET (user and kernel, from /proc/PID/stat over the run, all threads; nginx's workers summed).
# Then the fan-out (bench/fanout/fanout.py, 3 GETs each) against each loop setting.
# Usage: bench/hot/loops.sh [SECONDS per measurement, default 4]
#   CONCURRENCIES="4 32 1000"   ROUNDS=3   PHONES="1000 10000" (empty: no fan-out)
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
trap cleanup EXIT
DURATION=${1:-4}
CONCURRENCIES=${CONCURRENCIES:-"4 32 1000"}
ROUNDS=${ROUNDS:-3}
PHONES=${PHONES-"1000 10000"}
need_tool wrk wrk
ulimit -n "$(ulimit -Hn)"
build_release
make_photos
TICK=$(getconf CLK_TCK)

declare -A PORT_OF PIDS_OF PATH_OF
for loops in 1 2; do
  start_service ARTWORK_STORAGE="$WORK/store$loops" ARTWORK_MAX_CONNECTIONS_PER_CLIENT=100000 \
    ARTWORK_HTTP_THREADS=$loops
  PORT_OF[$loops]=$PORT
  PIDS_OF[$loops]=$SERVICE_PID
  PATH_OF[$loops]=$(host_poster "$PORT")
done
IMAGE_PATH=${PATH_OF[1]}
mkdir -p "$WORK/www/v1/images"
curl -s -o "$WORK/www$IMAGE_PATH" "http://127.0.0.1:${PORT_OF[1]}$IMAGE_PATH"
start_nginx 4096 "$IMAGE_PATH"
PORT_OF[nginx]=$NGINX_PORT
PATH_OF[nginx]=$IMAGE_PATH
PIDS_OF[nginx]=$(pgrep -P "$(cat "$WORK/nginx.pid")" | tr '\n' ' ')

# One wrk run against NAME at CONNECTIONS: "rate µs-per-GET".
measure() {
  local name=$1 before after out requests
  # shellcheck disable=SC2086
  before=$(cpu_ticks ${PIDS_OF[$name]})
  out=$(wrk -t1 -c"$2" -d"${DURATION}s" "http://127.0.0.1:${PORT_OF[$name]}${PATH_OF[$name]}")
  # shellcheck disable=SC2086
  after=$(cpu_ticks ${PIDS_OF[$name]})
  requests=$(awk '/requests in/ { print $1 }' <<<"$out")
  awk -v r="$requests" -v t=$((after - before)) -v hz="$TICK" -v d="$DURATION" \
    'BEGIN { printf "%d %.1f\n", r / d, t / hz / r * 1e6 }'
}

for name in 1 2 nginx; do measure "$name" 32 >/dev/null; done
echo "| connections | round | 1 loop: µs per GET (req/s) | 2 loops: µs per GET (req/s) | nginx: µs per GET (req/s) |"
echo "| ---: | ---: | --- | --- | --- |"
for c in $CONCURRENCIES; do
  for round in $(seq "$ROUNDS"); do
    line="| $c | $round |"
    for name in 1 2 nginx; do
      read -r rate cpu < <(measure "$name" "$c")
      line="$line $cpu ($rate) |"
    done
    echo "$line"
  done
done

[ -n "$PHONES" ] || exit 0
echo
echo "| phones | round | 1 loop: all have it (ms) | 2 loops: all have it (ms) | failures (1 / 2) |"
echo "| ---: | ---: | ---: | ---: | ---: |"
for n in $PHONES; do
  for round in $(seq 2); do
    declare -A FAN
    for loops in 1 2; do
      FAN[$loops]=$(python3 "$ROOT/bench/fanout/fanout.py" "${PORT_OF[$loops]}" \
        "${PATH_OF[$loops]}" "$n" 3)
      sleep 1
    done
    python3 - "$n" "$round" "${FAN[1]}" "${FAN[2]}" <<'PY'
import json, sys
n, round = sys.argv[1], sys.argv[2]
one, two = (json.loads(x) for x in sys.argv[3:5])
print(f"| {n} | {round} | {one['all_have_image_ms']} | {two['all_have_image_ms']} | "
      f"{one['failures']} / {two['failures']} |")
PY
  done
done
