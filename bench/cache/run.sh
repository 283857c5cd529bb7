#!/usr/bin/env bash
# Cached URL latency (issue 4): a loopback origin (python3 -m http.server) serves a photo; the
# service (ARTWORK_PRIVATE_SOURCES=127.0.0.1) renders it once on a warm-up POST /v1/artwork
# {"url"}; then identical requests are sent for SECONDS at each concurrency by two closed-loop
# load generators, one after the other against the same service:
#   wrk           one thread multiplexing every connection with epoll (Debian package `wrk`);
#   artwork-bench one blocking thread per connection (ours; it also checks every status is 201).
# Usage: bench/cache/run.sh [SECONDS per measurement, default 10]
#   CONCURRENCIES="4 32" (default)   LOG_LEVEL=warn (default; `info` writes an access line per
#   request to a file)   PERF_OUT=/tmp/perf (optional: a CPU profile of the service per phase)
#   COMPARE_WITH=/path/to/other/artwork (optional: the same measurements, in the same run, on
#   another build of the service, e.g. one built from an earlier commit)
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
trap cleanup EXIT
DURATION=${1:-10}
CONCURRENCIES=${CONCURRENCIES:-"4 32"}
LOG_LEVEL=${LOG_LEVEL:-warn}

command -v wrk >/dev/null || { apt-get install -y wrk >/dev/null 2>&1 || true; }
command -v wrk >/dev/null || { echo "wrk is needed: apt-get install wrk" >&2; exit 1; }
build_release
make_photos
ORIGIN_PORT=$(free_port)
python3 -m http.server "$ORIGIN_PORT" --bind 127.0.0.1 --directory "$PHOTOS" \
  >"$WORK/origin.log" 2>&1 &
track $!
wait_http "http://127.0.0.1:$ORIGIN_PORT/p0.jpg"

BODY="{\"url\": \"http://127.0.0.1:$ORIGIN_PORT/p0.jpg\", \"shape\": \"poster\"}"

# wrk: the request, and a summary as one JSON line (latencies in microseconds).
cat >"$WORK/post.lua" <<LUA
wrk.method = "POST"
wrk.body = '$BODY'
wrk.headers["Content-Type"] = "application/json"
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"requests": %d, "seconds": %.4f, "failures": %d, "non_2xx": %d, "p50_us": %d, "p90_us": %d, "p99_us": %d, "max_us": %d}\n',
    summary.requests, summary.duration / 1e6, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end
LUA

# Runs "$@" while measuring the service's CPU time (and profiling it when PERF_OUT is set).
measure() {
  local name=$1
  shift
  local perf_pid=""
  S0=$(cpu_ms "$SERVICE_PID")
  if [ -n "${PERF_OUT:-}" ]; then
    perf record -F 999 -g -o "$PERF_OUT.$name" -p "$SERVICE_PID" >/dev/null 2>&1 &
    perf_pid=$!
    track "$perf_pid"
    sleep 0.5
  fi
  RESULT=$("$@")
  SERVICE_CPU=$(($(cpu_ms "$SERVICE_PID") - S0))
  if [ -n "$perf_pid" ]; then kill -INT "$perf_pid"; wait "$perf_pid" || true; fi
}

ROWS=()
BUILD=0
for binary in "$ARTWORK" ${COMPARE_WITH:-}; do
  BUILD=$((BUILD + 1))
  echo "build $BUILD: $binary"
  ARTWORK=$binary start_service ARTWORK_STORAGE="$WORK/store$BUILD" \
    ARTWORK_PRIVATE_SOURCES=127.0.0.1 ARTWORK_LOG_LEVEL="$LOG_LEVEL"
  LINES_BEFORE=$(grep -c '"request"' "$WORK/service.log" || true)
  echo "warm-up: $(curl -s -o /dev/null -w '%{http_code} in %{time_total}s' -H 'Content-Type: application/json' \
    --data "$BODY" "http://127.0.0.1:$PORT/v1/artwork")"
  ORIGIN_HITS_BEFORE=$(grep -c 'GET /p0.jpg' "$WORK/origin.log" || true)
  # Untimed: both generators warm the service's threads, the allocator and their connections.
  wrk -t1 -c32 -d2s -s "$WORK/post.lua" "http://127.0.0.1:$PORT/v1/artwork" >/dev/null
  "$BENCH" load --port "$PORT" --method POST --path /v1/artwork --content-type application/json \
    --body-text "$BODY" --concurrency 32 --max-requests 1000 --seconds 60 >/dev/null
  for c in $CONCURRENCIES; do
    measure "b$BUILD.wrk.c$c" wrk -t1 -c"$c" -d"${DURATION}s" -s "$WORK/post.lua" \
      "http://127.0.0.1:$PORT/v1/artwork"
    RESULT=$(echo "$RESULT" | tail -1)
    echo "wrk c=$c: $RESULT; service CPU $SERVICE_CPU ms"
    ROWS+=("$BUILD|wrk|$c|$RESULT|$SERVICE_CPU")
    measure "b$BUILD.artwork-bench.c$c" "$BENCH" load --port "$PORT" --method POST \
      --path /v1/artwork --content-type application/json --body-text "$BODY" --concurrency "$c" \
      --max-requests 100000000 --seconds "$DURATION"
    echo "artwork-bench c=$c: $RESULT; service CPU $SERVICE_CPU ms"
    ROWS+=("$BUILD|artwork-bench|$c|$RESULT|$SERVICE_CPU")
  done
  ORIGIN_HITS_AFTER=$(grep -c 'GET /p0.jpg' "$WORK/origin.log" || true)
  echo "origin GETs after the warm-up POST: $((ORIGIN_HITS_AFTER - ORIGIN_HITS_BEFORE))"
  echo "log level $LOG_LEVEL; access lines written: $(($(grep -c '"request"' "$WORK/service.log" || true) - LINES_BEFORE))"
  stop_service
done
python3 - "${ROWS[@]}" <<'PY'
import json, sys
print()
print("| build | generator | concurrency | requests | req/s | p50 (ms) | p90 (ms) | p99 (ms) | max (ms) | service CPU per request (us) | p99 / target 5 ms |")
print("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for row in sys.argv[1:]:
    build, generator, c, result, cpu = row.split("|")
    r = json.loads(result)
    if generator == "wrk":
        assert r["failures"] == 0 and r["non_2xx"] == 0, r
        ms = {k: r[k + "_us"] / 1000 for k in ("p50", "p90", "p99", "max")}
        rate = r["requests"] / r["seconds"]
    else:
        assert r["failures"] == 0 and r["statuses"].startswith("201x") and "," not in r["statuses"], r
        ms = {k: r[k + "_ms"] for k in ("p50", "p90", "p99", "max")}
        rate = r["rate"]
    print(f"| {build} | {generator} | {c} | {r['requests']} | {rate:.0f} | {ms['p50']:.2f} | {ms['p90']:.2f} "
          f"| {ms['p99']:.2f} | {ms['max']:.2f} | {int(cpu) * 1000 / r['requests']:.0f} | {ms['p99'] / 5:.2f} |")
PY
