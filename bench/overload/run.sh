#!/usr/bin/env bash
# Overload (issue 9): uploads of 1.5-2 MB photos (-> 400x600 posters) at 2x, 8x and 16x the
# worker count, each against a fresh `artwork serve` (release), in one run. For each level:
# goodput (201 answers per second), the answers seen (only 201 and 503 are allowed), the
# service's peak RSS (VmHWM) and the p99 of a /healthz probe (one connection, 50 probes a
# second) running alongside the uploads.
# Run once with a queue that holds 16x (ARTWORK_QUEUE=64; the default, 16, refuses part of 16x) and once
# with ARTWORK_QUEUE=2, so that 8x and 16x are refused 503 from their heads; the clients wait a
# 503's Retry-After before their next upload, as a relay should (RETRY_AFTER=0: retry at once).
# Usage: bench/overload/run.sh [SECONDS per level, default 20]
#   COMPARE_WITH=/path/to/other/artwork: the same levels, in the same run, on another build
#   (e.g. one built from an earlier commit); QUEUES, FACTORS, RETRY_AFTER as below.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
trap cleanup EXIT
SECS=${1:-20}
WORKERS=$(nproc)
QUEUES=${QUEUES:-"64 2"}
FACTORS=${FACTORS:-"2 8 16"}
RETRY_AFTER=${RETRY_AFTER:-1}

build_release
make_photos
echo "photos: $(ls -l "$PHOTOS"/p?.jpg | awk '{ printf "%s ", $5 }')bytes; workers $WORKERS; ${SECS}s per level"

declare -A UPLOAD HEALTH HWM
BUILDS=("$ARTWORK" ${COMPARE_WITH:-})
for build in "${!BUILDS[@]}"; do
for queue in $QUEUES; do
  for factor in $FACTORS; do
    c=$((factor * WORKERS))
    ARTWORK=${BUILDS[$build]} start_service ARTWORK_STORAGE="$WORK/store-$build-$queue-$factor" \
      ARTWORK_QUEUE="$queue" ARTWORK_WORKERS="$WORKERS"
    "$BENCH" load --port "$PORT" --method GET --path /healthz --concurrency 1 \
      --pause-ms 20 --seconds "$SECS" >"$WORK/health.json" &
    probe=$!
    key=$build,$queue,$factor
    UPLOAD[$key]=$("$BENCH" load --port "$PORT" --method POST \
      --path '/v1/artwork?shape=poster&size=400' --content-type image/jpeg "${PHOTO_ARGS[@]}" \
      --concurrency "$c" --seconds "$SECS" --retry-after "$RETRY_AFTER" 2>>"$WORK/bench.log")
    wait "$probe"
    HEALTH[$key]=$(cat "$WORK/health.json")
    # A build that crashes under the load (libmicrohttpd aborted at 16x) is reported as such.
    HWM[$key]=$(awk '/^VmHWM/ { printf "%.1f", $2 / 1024 }' "/proc/$SERVICE_PID/status" 2>/dev/null \
      || echo "crashed")
    echo "build $build queue=$queue c=$c: ${UPLOAD[$key]} healthz: ${HEALTH[$key]}"
    stop_service
  done
done
done

for build in "${!BUILDS[@]}"; do
for queue in $QUEUES; do
  echo
  echo "build $build (${BUILDS[$build]}), ARTWORK_QUEUE=$queue, clients wait Retry-After: $RETRY_AFTER"
  echo
  echo "| concurrency | answers | goodput (201/s) | vs 2x | peak RSS (MB) | /healthz p50 / p99 (ms) |"
  echo "| ---: | --- | ---: | ---: | ---: | ---: |"
  base=""
  for factor in $FACTORS; do
    key=$build,$queue,$factor
    line=$(python3 - "$((factor * WORKERS)) ($factor x)" "${UPLOAD[$key]}" \
      "${HEALTH[$key]}" "${HWM[$key]}" "$base" <<'PY'
import json, sys
label, upload, health, hwm, base = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3]), sys.argv[4], sys.argv[5]
counts = dict(item.split("x") for item in upload["statuses"].split(",") if item)
good = int(counts.get("201", 0)) / upload["seconds"]
ratio = f"{good / float(base):.2f}" if base else "1.00"
answers = ", ".join(f"{k} x{v}" for k, v in sorted(counts.items()))
if upload["failures"]:
    answers += f", {upload['failures']} network errors"
print(f"{good}||| {label} | {answers} | {good:.1f} | {ratio} | {hwm} | {health['p50_ms']:.1f} / {health['p99_ms']:.1f} |")
PY
    )
    [ -n "$base" ] || base=${line%%||*}
    echo "${line#*||}"
  done
done
done
