#!/usr/bin/env bash
# Memory per idle keep-alive connection (issue 30): the service's resident memory with N
# connections held open after one GET each, less its memory before they came, divided by N.
# Usage: bench/fanout/idle.sh [N, default 10000]
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
trap cleanup EXIT
N=${1:-10000}
ulimit -n "$(ulimit -Hn)"
build_release
make_photos
start_service ARTWORK_STORAGE="$WORK/store" ARTWORK_MAX_CONNECTIONS_PER_CLIENT=100000 \
  ARTWORK_IDLE_TIMEOUT=600s
IMAGE_PATH=$(host_poster "$PORT")
# Warm: the hot cache and each loop's buffers.
python3 "$ROOT/bench/fanout/fanout.py" "$PORT" "$IMAGE_PATH" 200 2 >/dev/null
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$SERVICE_PID/status"; }
before=$(rss)
mkfifo "$WORK/go"
python3 "$ROOT/bench/fanout/idle.py" "$PORT" "$IMAGE_PATH" "$N" <"$WORK/go" >"$WORK/idle.out" &
holder=$!
exec 3>"$WORK/go"
until grep -q held "$WORK/idle.out" 2>/dev/null; do sleep 0.5; done
sleep 2
held=$(rss)
echo done >&3
exec 3>&-
wait "$holder"
python3 - "$N" "$before" "$held" <<'PY'
import sys
n, before, held = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
print(f"{n} idle keep-alive connections: RSS {before / 1024:.1f} MB before, {held / 1024:.1f} MB "
      f"held, {(held - before) * 1024 / n:.0f} bytes each")
PY
