#!/usr/bin/env bash
# Heap allocations per hosted-image GET from memory (issue 11): libc's malloc, calloc, realloc
# and posix_memalign counted with perf uprobes in the running service while Python's
# http.client sends N keep-alive GETs of one poster held in the hot-image cache (with the
# header fields a browser sends), at the
# access-log level of the default (info: every request logged) and at warn.
# Then the service's CPU time per GET (perf's task-clock, without the probes, which cost a trap
# per call). COMPARE_WITH=/path/to/other/artwork measures that build too, in the same run.
# Needs root (uprobes) and perf (Debian linux-perf).
# Usage: bench/hot/allocations.sh [N GETs, default 2000]   COMPARE_WITH=... (optional)
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
trap 'perf probe -q -d "probe_libc:*" 2>/dev/null || true; cleanup' EXIT
COUNT=${1:-2000}
need_tool perf linux-perf
build_release
LIBC=$(ldd "$ARTWORK" | awk '/libc.so.6/ { print $3 }')
EVENTS=()
for function in malloc calloc realloc posix_memalign; do
  perf probe -q -x "$LIBC" --add "$function" 2>/dev/null || true
  EVENTS+=(-e "probe_libc:$function")
done
cat >"$WORK/gets.py" <<'PY'
import http.client, sys
port, path, count = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
# The fields a browser sends with an image request (long values included).
headers = {
    "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/120.0.0.0 Safari/537.36",
    "Accept": "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8",
    "Accept-Language": "en-GB,en;q=0.9",
    "Referer": "https://relay.example/activities/42",
    "Connection": "keep-alive",
}
connection = http.client.HTTPConnection("127.0.0.1", port)
for _ in range(count):
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    response.read()
    assert response.status == 200, response.status
PY
BUILDS=("$ARTWORK" ${COMPARE_WITH:-})
echo "| build | access log | GETs | allocations | per GET | service CPU per GET (us) |"
echo "| --- | --- | ---: | ---: | ---: | ---: |"
for build in "${BUILDS[@]}"; do
  for level in info warn; do
    # start_service sets warn; a later assignment wins.
    ARTWORK=$build start_service ARTWORK_STORAGE="$WORK/store-$level-${#PIDS[@]}" \
      ARTWORK_LOG_LEVEL=$level
    ANSWER=$(curl -s --data-binary @"$ROOT/testimages/coffee.jpg" -H 'Content-Type: image/jpeg' \
      "http://127.0.0.1:$PORT/v1/artwork?shape=poster&size=400")
    IMAGE_PATH=$(python3 -c 'import json,sys; u=json.loads(sys.argv[1])["image_url"]; print(u[u.index("/v1/images/"):])' "$ANSWER")
    python3 "$WORK/gets.py" "$PORT" "$IMAGE_PATH" 200  # warm: the image is in the hot cache
    total=$(perf stat -x, "${EVENTS[@]}" -p "$SERVICE_PID" -- \
      python3 "$WORK/gets.py" "$PORT" "$IMAGE_PATH" "$COUNT" 2>&1 >/dev/null \
      | awk -F, '/probe_libc/ { sum += $1 } END { print sum }')
    cpu_ms=$(perf stat -x, -e task-clock -p "$SERVICE_PID" -- \
      python3 "$WORK/gets.py" "$PORT" "$IMAGE_PATH" "$COUNT" 2>&1 >/dev/null \
      | awk -F, '/task-clock/ { print $1 }')
    python3 -c "import sys; n, t, c = int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]); print(f'| {sys.argv[1]} | {sys.argv[2]} | {n} | {t} | {t / n:.2f} | {c * 1000 / n:.1f} |')" \
      "$build" "$level" "$COUNT" "$total" "$cpu_ms"
    stop_service
  done
done
