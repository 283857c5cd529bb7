#!/usr/bin/env bash
# Cached URL latency (issue 4): a loopback origin (python3 -m http.server) serves a photo; the
# service (ARTWORK_PRIVATE_SOURCES=127.0.0.1) renders it once on a warm-up POST /v1/artwork
# {"url"}; then identical requests are sent at concurrency 32 and their latency measured.
# Usage: bench/cache/run.sh [REQUESTS, default 5000]
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
trap cleanup EXIT
REQUESTS=${1:-5000}
CONCURRENCY=${CONCURRENCY:-32}

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

RESULT=$("$BENCH" load --port "$PORT" --method POST --path /v1/artwork \
  --content-type application/json --body-text "$BODY" --concurrency "$CONCURRENCY" \
  --max-requests "$REQUESTS" --seconds 120)
echo "load: $RESULT"
ORIGIN_HITS_AFTER=$(grep -c 'GET /p0.jpg' "$WORK/origin.log" || true)
echo "origin GETs during the load: $((ORIGIN_HITS_AFTER - ORIGIN_HITS_BEFORE))"
python3 - "$RESULT" "$CONCURRENCY" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
assert r["failures"] == 0 and r["statuses"].startswith("201x") and "," not in r["statuses"], r
print()
print("| concurrency | requests | req/s | p50 (ms) | p90 (ms) | p99 (ms) | max (ms) | p99 / target 5 ms |")
print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
print(f"| {sys.argv[2]} | {r['requests']} | {r['rate']:.0f} | {r['p50_ms']:.2f} | {r['p90_ms']:.2f} "
      f"| {r['p99_ms']:.2f} | {r['max_ms']:.2f} | {r['p99_ms'] / 5:.2f} |")
PY
stop_service
