#!/usr/bin/env bash
# Cached URL latency (issue 4): a loopback origin (python3 -m http.server) serves a photo; the
# service (ARTWORK_PRIVATE_SOURCES=127.0.0.1) renders it once on a warm-up POST /v1/artwork
# {"url"}; then identical requests are sent at concurrency 32 and their latency measured.
# Usage: bench/cache/run.sh [REQUESTS, default 5000]
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
trap cleanup EXIT
REQUESTS=${1:-5000}
CONCURRENCIES=${CONCURRENCIES:-"4 32"}

build_release
make_photos
ORIGIN_PORT=$(free_port)
python3 -m http.server "$ORIGIN_PORT" --bind 127.0.0.1 --directory "$PHOTOS" \
  >"$WORK/origin.log" 2>&1 &
track $!
wait_http "http://127.0.0.1:$ORIGIN_PORT/p0.jpg"

start_service ARTWORK_STORAGE="$WORK/store" ARTWORK_PRIVATE_SOURCES=127.0.0.1
BODY="{\"url\": \"http://127.0.0.1:$ORIGIN_PORT/p0.jpg\", \"shape\": \"poster\"}"
echo "warm-up: $(curl -s -o /dev/null -w '%{http_code} in %{time_total}s' -H 'Content-Type: application/json' \
  --data "$BODY" "http://127.0.0.1:$PORT/v1/artwork")"
ORIGIN_HITS_BEFORE=$(grep -c 'GET /p0.jpg' "$WORK/origin.log" || true)

# Untimed: 1000 requests at concurrency 32 warm the service's threads and the allocator.
"$BENCH" load --port "$PORT" --method POST --path /v1/artwork --content-type application/json \
  --body-text "$BODY" --concurrency 32 --max-requests 1000 --seconds 60 >/dev/null
ROWS=()
for c in $CONCURRENCIES; do
  S0=$(cpu_ms "$SERVICE_PID")
  if [ -n "${PERF_OUT:-}" ]; then # optional profile of the service during the load
    perf record -F 999 -g -o "$PERF_OUT.c$c" -p "$SERVICE_PID" >/dev/null 2>&1 &
    PERF_PID=$!
    track $PERF_PID
    sleep 0.5
  fi
  RESULT=$("$BENCH" load --port "$PORT" --method POST --path /v1/artwork \
    --content-type application/json --body-text "$BODY" --concurrency "$c" \
    --max-requests "$REQUESTS" --seconds 120)
  SERVICE_CPU=$(($(cpu_ms "$SERVICE_PID") - S0))
  if [ -n "${PERF_OUT:-}" ]; then kill -INT "$PERF_PID"; wait "$PERF_PID" || true; fi
  echo "load c=$c: $RESULT; service CPU $SERVICE_CPU ms"
  ROWS+=("$c|$RESULT|$SERVICE_CPU")
done
ORIGIN_HITS_AFTER=$(grep -c 'GET /p0.jpg' "$WORK/origin.log" || true)
echo "origin GETs after the warm-up POST: $((ORIGIN_HITS_AFTER - ORIGIN_HITS_BEFORE))"
python3 - "${ROWS[@]}" <<'PY'
import json, sys
print()
print("| concurrency | requests | req/s | p50 (ms) | p90 (ms) | p99 (ms) | max (ms) | service CPU per request (us) | p99 / target 5 ms |")
print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for row in sys.argv[1:]:
    c, result, cpu = row.split("|")
    r = json.loads(result)
    assert r["failures"] == 0 and r["statuses"].startswith("201x") and "," not in r["statuses"], r
    print(f"| {c} | {r['requests']} | {r['rate']:.0f} | {r['p50_ms']:.2f} | {r['p90_ms']:.2f} "
          f"| {r['p99_ms']:.2f} | {r['max_ms']:.2f} | {int(cpu) * 1000 / r['requests']:.0f} | {r['p99_ms'] / 5:.2f} |")
PY
stop_service
