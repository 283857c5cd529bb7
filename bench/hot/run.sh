#!/usr/bin/env bash
# Hosted-image GETs from memory (issue 11): `GET /v1/images/{id}.jpg` of a 400x600 poster held in
# the service's hot-image cache, against nginx (Debian) serving the same file from its page
# cache, with wrk (one thread, keep-alive) at each concurrency, in alternating rounds: answers a
# second, p99, and each server's own CPU time per GET (user and kernel, from /proc/PID/stat over
# the run, all threads; nginx's workers summed), the steadier figure on a shared machine.
# Usage: bench/hot/run.sh [SECONDS per measurement, default 8]
#   CONCURRENCIES="32" (default; issue 30 used "4 32 1000")   ROUNDS=2
#   COMPARE_WITH=/path/to/other/artwork (optional)
# wrk's connections all come from 127.0.0.1 and stand for as many phones: the per-client limit is
# raised out of the way (phones come from many addresses), the total one is the service's default.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
trap cleanup EXIT
DURATION=${1:-8}
CONCURRENCIES=${CONCURRENCIES:-"32"}
ROUNDS=${ROUNDS:-2}
need_tool wrk wrk
ulimit -n "$(ulimit -Hn)"
build_release
make_photos

start_service ARTWORK_STORAGE="$WORK/store" ARTWORK_MAX_CONNECTIONS_PER_CLIENT=100000
SERVICE_PORT=$PORT
declare -A PIDS_OF
PIDS_OF[$SERVICE_PORT]=$SERVICE_PID
OTHER_PORT=""
if [ -n "${COMPARE_WITH:-}" ]; then
  ARTWORK=$COMPARE_WITH start_service ARTWORK_STORAGE="$WORK/store-other" \
    ARTWORK_MAX_CONNECTIONS_PER_CLIENT=100000 ARTWORK_MAX_CONNECTIONS=4096
  OTHER_PORT=$PORT
  PIDS_OF[$OTHER_PORT]=$SERVICE_PID
  # Another build may frame differently: its image has its own name.
  OTHER_PATH=$(host_poster "$OTHER_PORT")
fi
IMAGE_PATH=$(host_poster "$SERVICE_PORT")
mkdir -p "$WORK/www/v1/images"
curl -s -o "$WORK/www$IMAGE_PATH" "http://127.0.0.1:$SERVICE_PORT$IMAGE_PATH"
echo "image: $IMAGE_PATH, $(stat -c %s "$WORK/www$IMAGE_PATH") bytes"

start_nginx 4096 "$IMAGE_PATH"
PIDS_OF[$NGINX_PORT]=$(pgrep -P "$(cat "$WORK/nginx.pid")" | tr '\n' ' ')
TICK=$(getconf CLK_TCK)

# wrk's summary as one JSON line.
cat >"$WORK/report.lua" <<'LUA'
response = function(status, headers, body)
  if status ~= 200 and not shown then shown = true; io.stderr:write("first non-200: " .. status .. " " .. body:sub(1, 200) .. "\n") end
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"rate": %.1f, "requests": %d, "failures": %d, "non_2xx": %d, "p99_us": %d}\n',
    summary.requests / (summary.duration / 1e6), summary.requests,
    e.connect + e.read + e.write + e.timeout, e.status, latency:percentile(99)))
end
LUA
# One wrk run against PORT at CONNECTIONS: wrk's summary with the server's CPU µs per GET.
run_wrk() {
  local path=$IMAGE_PATH before after summary
  [ "$1" != "${OTHER_PORT:-}" ] || path=$OTHER_PATH
  # shellcheck disable=SC2086
  before=$(cpu_ticks ${PIDS_OF[$1]})
  summary=$(wrk -t1 -c"$2" -d"${DURATION}s" -s "$WORK/report.lua" "http://127.0.0.1:$1$path" | tail -1)
  # shellcheck disable=SC2086
  after=$(cpu_ticks ${PIDS_OF[$1]})
  python3 -c 'import json, sys
r = json.loads(sys.argv[1])
r["cpu_us"] = (int(sys.argv[2]) / int(sys.argv[3])) / max(1, r["requests"]) * 1e6
print(json.dumps(r))' "$summary" "$((after - before))" "$TICK"
}

# Warm both: the service's hot-image cache, nginx's page cache, both allocators.
run_wrk "$SERVICE_PORT" 32 >/dev/null
run_wrk "$NGINX_PORT" 32 >/dev/null
[ -z "$OTHER_PORT" ] || run_wrk "$OTHER_PORT" 32 >/dev/null
declare -A RESULT
for round in $(seq "$ROUNDS"); do
  for c in $CONCURRENCIES; do
    RESULT[artwork,$c,$round]=$(run_wrk "$SERVICE_PORT" "$c")
    RESULT[nginx,$c,$round]=$(run_wrk "$NGINX_PORT" "$c")
    RESULT[other,$c,$round]='{"rate": 0}'
    [ -z "$OTHER_PORT" ] || RESULT[other,$c,$round]=$(run_wrk "$OTHER_PORT" "$c")
    echo "round $round c=$c artwork ${RESULT[artwork,$c,$round]} nginx ${RESULT[nginx,$c,$round]} other ${RESULT[other,$c,$round]}"
  done
done
echo
echo "| round | concurrency | artwork: req/s, p99 ms, CPU µs/GET | nginx: req/s, p99 ms, CPU µs/GET | ratio | COMPARE_WITH: req/s, p99 ms, CPU µs/GET | its ratio |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for round in $(seq "$ROUNDS"); do
  for c in $CONCURRENCIES; do
    python3 - "$round" "$c" "${RESULT[artwork,$c,$round]}" "${RESULT[nginx,$c,$round]}" \
      "${RESULT[other,$c,$round]}" <<'PY'
import json, sys
round, c = sys.argv[1], sys.argv[2]
a, n, o = (json.loads(x) for x in sys.argv[3:6])
for r in (a, n) + ((o,) if o["rate"] else ()):
    assert r["failures"] == 0 and r["non_2xx"] == 0, r
def cell(r):
    return f"{r['rate']:.0f}, {r['p99_us'] / 1000:.1f}, {r['cpu_us']:.1f}"
other = f"{cell(o)} | {o['rate'] / n['rate']:.2f}" if o["rate"] else "- | -"
print(f"| {round} | {c} | {cell(a)} | {cell(n)} | {a['rate'] / n['rate']:.2f} | {other} |")
PY
  done
done
