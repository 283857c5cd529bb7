#!/usr/bin/env bash
# Overload (issue 9): uploads of 1.5-2 MB photos (-> 400x600 posters) at 2x, 8x and 16x the
# worker count, each against a fresh `artwork serve` (release), in one run. For each level:
# goodput (201 answers per second), the answers seen (only 201 and 503 are allowed), the
# service's peak RSS (VmHWM) and the p99 of a /healthz probe (one connection, 50 probes a
# second) running alongside the uploads.
# Run once with the default queue (ARTWORK_QUEUE=64, which holds 16x on this machine) and once
# with ARTWORK_QUEUE=2, so that 8x and 16x are refused 503 from their heads; the clients wait a
# 503's Retry-After before their next upload, as a relay should (RETRY_AFTER=0: retry at once).
# Usage: bench/overload/run.sh [SECONDS per level, default 20]
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
for queue in $QUEUES; do
  for factor in $FACTORS; do
    c=$((factor * WORKERS))
    start_service ARTWORK_STORAGE="$WORK/store-$queue-$factor" ARTWORK_QUEUE="$queue" \
      ARTWORK_WORKERS="$WORKERS"
    "$BENCH" load --port "$PORT" --method GET --path /healthz --concurrency 1 \
      --pause-ms 20 --seconds "$SECS" >"$WORK/health.json" &
    probe=$!
    UPLOAD[$queue,$factor]=$("$BENCH" load --port "$PORT" --method POST \
      --path '/v1/artwork?shape=poster&size=400' --content-type image/jpeg "${PHOTO_ARGS[@]}" \
      --concurrency "$c" --seconds "$SECS" --retry-after "$RETRY_AFTER")
    wait "$probe"
    HEALTH[$queue,$factor]=$(cat "$WORK/health.json")
    HWM[$queue,$factor]=$(awk '/^VmHWM/ { printf "%.1f", $2 / 1024 }' "/proc/$SERVICE_PID/status")
    echo "queue=$queue c=$c: ${UPLOAD[$queue,$factor]} healthz: ${HEALTH[$queue,$factor]}"
    stop_service
  done
done

for queue in $QUEUES; do
  echo
  echo "ARTWORK_QUEUE=$queue"
  echo
  echo "| concurrency | answers | goodput (201/s) | vs 2x | peak RSS (MB) | /healthz p50 / p99 (ms) |"
  echo "| ---: | --- | ---: | ---: | ---: | ---: |"
  base=""
  for factor in $FACTORS; do
    line=$(python3 - "$((factor * WORKERS)) ($factor x)" "${UPLOAD[$queue,$factor]}" \
      "${HEALTH[$queue,$factor]}" "${HWM[$queue,$factor]}" "$base" <<'PY'
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
