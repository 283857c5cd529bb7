#!/usr/bin/env bash
# What the service keeps resident after bursts of uploads (issue 42): each build started alone,
# idle, then BURSTS bursts of 32 uploads at once (the photo JPEG of bench/peers to a poster,
# 4 s each), and the service's RSS (VmRSS, the workers not counted) when each burst ends and 1
# and 2 s after. Freed bodies are kept for the next ones and trimmed once a second
# (`ProcessMemory`, `HeapKeeper`): what stays is what the trim cannot reach.
# Usage: bench/upload/bursts.sh   COMPARE_WITH=/path/to/other/artwork (optional)   BURSTS=3
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
trap cleanup EXIT
BURSTS=${BURSTS:-3}
build_release
make_peer_inputs

echo "| build | idle (MB) | burst | at its end (MB) | 1 s after | 2 s after |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
for binary in "$ARTWORK" ${COMPARE_WITH:-}; do
  ARTWORK=$binary start_service ARTWORK_STORAGE="$WORK/store-$(basename "$binary")-$RANDOM"
  idle=$(rss_mb "$SERVICE_PID")
  for burst in $(seq "$BURSTS"); do
    "$BENCH" load --port "$PORT" --method POST --path '/v1/artwork?shape=poster&size=400' \
      --content-type image/jpeg --body "$INPUTS/photo.jpg" --concurrency 32 --seconds 4 >/dev/null
    at_end=$(rss_mb "$SERVICE_PID")
    sleep 1
    one=$(rss_mb "$SERVICE_PID")
    sleep 1
    echo "| $binary | $idle | $burst | $at_end | $one | $(rss_mb "$SERVICE_PID") |"
  done
  stop_service
done
