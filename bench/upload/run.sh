#!/usr/bin/env bash
# Upload throughput (issue 3): 1-2 MB JPEG photos -> 400x600 poster, POSTed to `artwork serve`
# (release, default workers = cores) versus the in-process ceiling (same work, same pool size,
# no HTTP, no storage), at each concurrency, in one run; then the service's peak RSS (VmHWM).
# Usage: bench/upload/run.sh [SECONDS per measurement, default 15]
#   COMPARE_WITH=/path/to/other/artwork: the HTTP measurements, in the same run, on another build
#   (e.g. one built from an earlier commit), against the same ceiling.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
trap cleanup EXIT
SECS=${1:-15}
CONCURRENCIES=${CONCURRENCIES:-"4 32"}
WORKERS=$(nproc)

build_release
make_photos
echo "photos: $(ls -l "$PHOTOS"/p?.jpg | awk '{ printf "%s ", $5 }')bytes; workers $WORKERS; ${SECS}s each"

declare -A CEIL HTTP HWM
for c in $CONCURRENCIES; do
  CEIL[$c]=$("$BENCH" ceiling "${PHOTO_ARGS[@]}" --workers "$WORKERS" --concurrency "$c" \
    --seconds "$SECS" --shape poster --size 400)
  echo "ceiling c=$c: ${CEIL[$c]}"
done
BUILDS=("$ARTWORK" ${COMPARE_WITH:-})
for build in "${!BUILDS[@]}"; do
  ARTWORK=${BUILDS[$build]} start_service ARTWORK_STORAGE="$WORK/store-$build" ${SERVICE_ENV:-}
  echo "build $build (${BUILDS[$build]}): pid $SERVICE_PID port $PORT: $(memory_of "$SERVICE_PID")"
  for c in $CONCURRENCIES; do
    HTTP[$build,$c]=$("$BENCH" load --port "$PORT" --method POST \
      --path '/v1/artwork?shape=poster&size=400' --content-type image/jpeg "${PHOTO_ARGS[@]}" \
      --concurrency "$c" --seconds "$SECS")
    echo "http    c=$c: ${HTTP[$build,$c]}"
    echo "service after c=$c: $(memory_of "$SERVICE_PID")"
  done
  HWM[$build]=$(awk '/^VmHWM/ { printf "%.1f", $2 / 1024 }' "/proc/$SERVICE_PID/status")
  stop_service
done

echo
echo "| build | concurrency | in-process ceiling (img/s) | HTTP service (img/s) | ratio (target >= 0.9) | HTTP p50 / p99 (ms) | peak RSS (MB) |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for build in "${!BUILDS[@]}"; do
  for c in $CONCURRENCIES; do
    python3 - "$build" "$c" "${CEIL[$c]}" "${HTTP[$build,$c]}" "${HWM[$build]}" <<'PY'
import json, sys
build, c, ceil, http, hwm = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), json.loads(sys.argv[4]), sys.argv[5]
assert http["failures"] == 0 and http["statuses"].startswith("201x") and "," not in http["statuses"], http
print(f"| {build} | {c} | {ceil['rate']:.1f} | {http['rate']:.1f} | {http['rate'] / ceil['rate']:.2f} "
      f"| {http['p50_ms']:.0f} / {http['p99_ms']:.0f} | {hwm} |")
PY
  done
done
echo
echo "peak RSS (VmHWM) is over each build's whole run (target <= 200 MB)"
