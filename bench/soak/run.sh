#!/usr/bin/env bash
# Soak (issue 28): an hour of mixed traffic (uploads, URL sources from a loopback origin, content
# with waits, deletes, hosted GETs, token reloads, worker kills) against one service, with its
# memory, its workers' memory, descriptors and threads sampled every 10 s; then the slopes.
# Usage: bench/soak/run.sh [MINUTES, default 60] [--check]
#   SOAK_ARTWORK=/path/to/artwork: that binary instead of a release build (CI: the debug one).
#   --check: exit 1 when memory, descriptors or threads grew, or a 5xx other than 503 was seen.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
trap cleanup EXIT
MINUTES=${1:-60}
shift || true
if [ -n "${SOAK_ARTWORK:-}" ]; then
  ARTWORK=$SOAK_ARTWORK
else
  build_release
fi

# The tests' loopback origin: /image.jpg at once, /slow.jpg after ?delay=.
mkfifo "$WORK/origin.in"
python3 "$ROOT/Tests/TestSupport/OriginFixtures/origin.py" <"$WORK/origin.in" >"$WORK/origin.ports" &
track $!
exec 7>"$WORK/origin.in"  # held open: the origin runs until this script ends
for _ in $(seq 100); do [ -s "$WORK/origin.ports" ] && break; sleep 0.1; done
ORIGIN=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["http"])' "$WORK/origin.ports")

printf 'soak:soak-token-0123456789abcdef\n' >"$WORK/tokens"
start_service ARTWORK_STORAGE="$WORK/store" ARTWORK_API_TOKENS_FILE="$WORK/tokens" \
  ARTWORK_PRIVATE_SOURCES=127.0.0.1/32 ARTWORK_SOURCE_TTL=5m
echo "service pid $SERVICE_PID port $PORT, origin $ORIGIN, $MINUTES min"
python3 "$ROOT/bench/soak/soak.py" --port "$PORT" --origin "$ORIGIN" --pid "$SERVICE_PID" \
  --tokens "$WORK/tokens" --minutes "$MINUTES" \
  --images "$ROOT/testimages/coffee.jpg" "$ROOT/testimages/photo-large.jpg" \
  "$ROOT/testimages/grey.jpg" "$@"
