#!/usr/bin/env bash
# A URL miss on S3 (issue 40): the latency of `POST /v1/artwork` with a URL whose image is new,
# with the service storing into SeaweedFS on loopback. Each request names a picture the service
# has not seen (N crops of a photo, served by a Python origin on 127.0.0.2), so each one is a
# result lookup, a fetch, a render and the new image's storage writes. Requests go one at a
# time (latency, not throughput); builds alternate in rounds, each with its own bucket prefix.
# Usage: bench/s3/url-miss.sh [REQUESTS per build and round, default 40]
#   COMPARE_WITH=/path/to/other/artwork: the same on another build, in the same run.
#   ARTWORK=/path/to/artwork: that build instead of this checkout's release build.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
source "$(dirname "$0")/../lib/seaweedfs.sh"
N=${1:-40}
ROUNDS=${ROUNDS:-3}

if [ -z "${ARTWORK:-}" ]; then build_release; fi
need_tool vips libvips-tools

# Distinct pictures: N crops per build and round, each of its own offset.
TOTAL=$((N * ROUNDS * 2))
mkdir -p "$WORK/origin"
for i in $(seq 0 $((TOTAL - 1))); do
  vips crop "$ROOT/testimages/photo-large.jpg" "$WORK/origin/c$i.jpg" $((i % 97)) $((i / 97)) 1200 1500
done
OP=$(free_port)
python3 -m http.server "$OP" --bind 127.0.0.2 --directory "$WORK/origin" >/dev/null 2>&1 &
track $!

start_seaweedfs

BUILDS=("$ARTWORK" ${COMPARE_WITH:-})
next=0
for round in $(seq "$ROUNDS"); do
  for b in "${!BUILDS[@]}"; do
    ARTWORK=${BUILDS[$b]}
    # shellcheck disable=SC2046 # the words of s3_environment, one variable each
    start_service $(s3_environment "b$b-r$round") ARTWORK_PRIVATE_SOURCES=127.0.0.2
    : >"$WORK/times-$b-$round"
    for i in $(seq "$N"); do
      curl -s -o "$WORK/answer.json" -w '%{http_code} %{time_total}\n' \
        -H 'Content-Type: application/json' \
        -d "{\"url\":\"http://127.0.0.2:$OP/c$next.jpg\",\"shape\":\"poster\"}" \
        "http://127.0.0.1:$PORT/v1/artwork" >>"$WORK/times-$b-$round"
      next=$((next + 1))
    done
    stop_service
    python3 - "$WORK/times-$b-$round" "$b" "$round" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
bad = [r for r in rows if r[0] != "201"]
ms = sorted(float(r[1]) * 1000 for r in rows if r[0] == "201")
p90 = ms[int(len(ms) * 0.9) - 1] if ms else float("nan")
print(f"build {sys.argv[2]} round {sys.argv[3]}: {len(ms)} created, {len(bad)} other; "
      f"median {statistics.median(ms):.1f} ms, p90 {p90:.1f} ms")
PY
  done
done
