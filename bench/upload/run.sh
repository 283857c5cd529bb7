#!/usr/bin/env bash
# Upload throughput (issue 3): 1-2 MB JPEG photos -> 400x600 poster, POSTed to `artwork serve`
# (release, default workers = cores) versus the in-process ceiling (same work, same pool size,
# no HTTP, no storage), at each concurrency, in one run; then the service's peak RSS (VmHWM).
# Usage: bench/upload/run.sh [SECONDS per measurement, default 15]
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
trap cleanup EXIT
SECS=${1:-15}
CONCURRENCIES=${CONCURRENCIES:-"4 32"}
WORKERS=$(nproc)

build_release
make_photos
echo "photos: $(ls -l "$PHOTOS"/p?.jpg | awk '{ printf "%s ", $5 }')bytes; workers $WORKERS; ${SECS}s each"

start_service ARTWORK_STORAGE="$WORK/store" ${SERVICE_ENV:-}
echo "service pid $SERVICE_PID port $PORT: $(memory_of "$SERVICE_PID")"

declare -A CEIL HTTP
for c in $CONCURRENCIES; do
  CEIL[$c]=$("$BENCH" ceiling "${PHOTO_ARGS[@]}" --workers "$WORKERS" --concurrency "$c" \
    --seconds "$SECS" --shape poster --size 400)
  echo "ceiling c=$c: ${CEIL[$c]}"
  HTTP[$c]=$("$BENCH" load --port "$PORT" --method POST --path '/v1/artwork?shape=poster&size=400' \
    --content-type image/jpeg "${PHOTO_ARGS[@]}" --concurrency "$c" --seconds "$SECS")
  echo "http    c=$c: ${HTTP[$c]}"
  echo "service after c=$c: $(memory_of "$SERVICE_PID")"
done
HWM=$(awk '/^VmHWM/ { printf "%.1f", $2 / 1024 }' "/proc/$SERVICE_PID/status")

echo
echo "| concurrency | in-process ceiling (img/s) | HTTP service (img/s) | ratio (target >= 0.9) | HTTP p50 / p99 (ms) |"
echo "| ---: | ---: | ---: | ---: | ---: |"
for c in $CONCURRENCIES; do
  python3 - "$c" "${CEIL[$c]}" "${HTTP[$c]}" <<'PY'
import json, sys
c, ceil, http = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
assert http["failures"] == 0 and http["statuses"].startswith("201x") and "," not in http["statuses"], http
print(f"| {c} | {ceil['rate']:.1f} | {http['rate']:.1f} | {http['rate'] / ceil['rate']:.2f} "
      f"| {http['p50_ms']:.0f} / {http['p99_ms']:.0f} |")
PY
done
echo
echo "service peak RSS (VmHWM) over the run: $HWM MB (target <= 200 MB)"
stop_service
