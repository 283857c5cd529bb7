#!/usr/bin/env bash
# Hosted GETs spread over many posters (issue 42, item 3: "many posters as fast as one"):
# N distinct 400x600 posters (about 140 KB each, noise made from a seed by make_posters.py) are
# stored through the service's own `POST /v1/artwork` on filesystem storage; then wrk (one
# thread, keep-alive, random-paths.lua) GETs their `/v1/images/<id>.jpg` at random over all N,
# with a fixed seed, from the service and from nginx (Debian, sendfile, 2 workers) serving the
# very same stored files (hard links to the storage directory's objects, same inodes, same page
# cache), in alternating rounds at each concurrency. Per run: answers a second, p50/p99,
# non-2xx, each server's own CPU time per GET (/proc/PID/stat, all threads; nginx's workers
# summed) and, for the service, the share of GETs its hot-image cache answered (/metrics).
# Usage: bench/posters/run.sh [SECONDS per measurement, default 10]
#   N=2000  ROUNDS=2  CONCURRENCIES="32 256"  SEED=42  UPLOAD_CONNECTIONS=4
#   SERVICE_ENV="ARTWORK_IMAGE_CACHE_BYTES=536870912" (settings for the service, and for
#     COMPARE_WITH's; byte counts are plain numbers)
#   COMPARE_WITH=/path/to/other/artwork (optional: stores the same N posters, measured alike)
# wrk's connections all come from 127.0.0.1 and stand for as many phones: the per-client limit is
# raised out of the way, the total one is the service's default (as in bench/hot/run.sh).
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
trap cleanup EXIT
DURATION=${1:-10}
N=${N:-2000}
ROUNDS=${ROUNDS:-2}
CONCURRENCIES=${CONCURRENCIES:-"32 256"}
SEED=${SEED:-42}
UPLOAD_CONNECTIONS=${UPLOAD_CONNECTIONS:-4}
HERE=$(cd "$(dirname "$0")" && pwd)
need_tool wrk wrk
ulimit -n "$(ulimit -Hn)"
build_release
echo "machine: $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
echo "N=$N posters, seed $SEED, ${DURATION}s a measurement, concurrencies $CONCURRENCIES, $ROUNDS rounds${SERVICE_ENV:+; service: $SERVICE_ENV}"

declare -A PIDS_OF PATHS_OF
# shellcheck disable=SC2086
start_service ARTWORK_STORAGE="$WORK/store" ARTWORK_MAX_CONNECTIONS_PER_CLIENT=100000 ${SERVICE_ENV:-}
SERVICE_PORT=$PORT
PIDS_OF[$SERVICE_PORT]=$SERVICE_PID
PATHS_OF[$SERVICE_PORT]=$WORK/paths-artwork.txt
echo "storing $N posters through POST /v1/artwork ($UPLOAD_CONNECTIONS connections)..."
echo "stored: $(python3 "$HERE/make_posters.py" "$SERVICE_PORT" "$N" "$SEED" "$UPLOAD_CONNECTIONS" \
  "${PATHS_OF[$SERVICE_PORT]}")"
OTHER_PORT=""
if [ -n "${COMPARE_WITH:-}" ]; then
  # shellcheck disable=SC2086
  ARTWORK=$COMPARE_WITH start_service ARTWORK_STORAGE="$WORK/store-other" \
    ARTWORK_MAX_CONNECTIONS_PER_CLIENT=100000 ${SERVICE_ENV:-}
  OTHER_PORT=$PORT
  PIDS_OF[$OTHER_PORT]=$SERVICE_PID
  # Another build may frame or encode differently: its posters have their own names.
  PATHS_OF[$OTHER_PORT]=$WORK/paths-other.txt
  echo "COMPARE_WITH stored: $(python3 "$HERE/make_posters.py" "$OTHER_PORT" "$N" "$SEED" \
    "$UPLOAD_CONNECTIONS" "${PATHS_OF[$OTHER_PORT]}")"
fi

# nginx's root holds each stored object under its URL path: a hard link to the storage
# directory's own file (objects/ab/cd/<id>.jpg, Sources/Storage/FileSystemStorage.swift).
python3 - "$WORK/store" "$WORK/www" "${PATHS_OF[$SERVICE_PORT]}" <<'PY'
import os, sys
store, www, paths = sys.argv[1:4]
os.makedirs(f"{www}/v1/images")
for path in open(paths).read().split():
    name = path.rsplit("/", 1)[1]
    os.link(f"{store}/objects/{name[:2]}/{name[2:4]}/{name}", www + path)
PY
FIRST_PATH=$(head -1 "${PATHS_OF[$SERVICE_PORT]}")
start_nginx 4096 "$FIRST_PATH"
PIDS_OF[$NGINX_PORT]=$(pgrep -P "$(cat "$WORK/nginx.pid")" | tr '\n' ' ')
PATHS_OF[$NGINX_PORT]=${PATHS_OF[$SERVICE_PORT]}
echo "nginx workers: ${PIDS_OF[$NGINX_PORT]}"
# Both answer the same bytes (a sample of ten).
for path in $(awk 'NR % 200 == 1' "${PATHS_OF[$SERVICE_PORT]}"); do
  a=$(curl -sf "http://127.0.0.1:$SERVICE_PORT$path" | sha256sum)
  b=$(curl -sf "http://127.0.0.1:$NGINX_PORT$path" | sha256sum)
  [ "$a" = "$b" ] || { echo "different bytes for $path" >&2; exit 1; }
done
TICK=$(getconf CLK_TCK)

# The hot-image cache's counters: "hits misses entries bytes".
cache_counts() {
  curl -s "http://127.0.0.1:$1/metrics" | awk '
    /^artwork_image_cache_hits_total / { h = $2 } /^artwork_image_cache_misses_total / { m = $2 }
    /^artwork_image_cache_entries / { e = $2 } /^artwork_image_cache_bytes / { b = $2 }
    END { printf "%d %d %d %d\n", h, m, e, b }'
}
# One wrk run against PORT at CONNECTIONS: wrk's summary with the server's CPU µs per GET, the
# load average after it and, for a service, its cache's share of the GETs.
run_wrk() {
  local before after summary counts_before="0 0 0 0" counts_after="0 0 0 0"
  [ "$1" = "$NGINX_PORT" ] || counts_before=$(cache_counts "$1")
  # shellcheck disable=SC2086
  before=$(cpu_ticks ${PIDS_OF[$1]})
  summary=$(PATHS_FILE=${PATHS_OF[$1]} SEED=$SEED wrk -t1 -c"$2" -d"${DURATION}s" \
    -s "$HERE/random-paths.lua" "http://127.0.0.1:$1/" | tail -1)
  # shellcheck disable=SC2086
  after=$(cpu_ticks ${PIDS_OF[$1]})
  [ "$1" = "$NGINX_PORT" ] || counts_after=$(cache_counts "$1")
  python3 -c 'import json, sys
r = json.loads(sys.argv[1])
r["cpu_us"] = round((int(sys.argv[2]) / int(sys.argv[3])) / max(1, r["requests"]) * 1e6, 1)
h0, m0, _, _ = map(int, sys.argv[4].split()); h1, m1, e, b = map(int, sys.argv[5].split())
if h1 + m1 > h0 + m0:
    r["hit_pct"] = round(100 * (h1 - h0) / (h1 - h0 + m1 - m0), 1)
    r["cached"] = e
r["load"] = float(open("/proc/loadavg").read().split()[0])
print(json.dumps(r))' "$summary" "$((after - before))" "$TICK" "$counts_before" "$counts_after"
}

# Warm all: the services' hot-image caches, both allocators (the files are in the page cache,
# just written).
echo "warm-up: artwork $(run_wrk "$SERVICE_PORT" 32)"
echo "warm-up: nginx $(run_wrk "$NGINX_PORT" 32)"
[ -z "$OTHER_PORT" ] || echo "warm-up: COMPARE_WITH $(run_wrk "$OTHER_PORT" 32)"
declare -A RESULT
for round in $(seq "$ROUNDS"); do
  for c in $CONCURRENCIES; do
    RESULT[artwork,$c,$round]=$(run_wrk "$SERVICE_PORT" "$c")
    RESULT[nginx,$c,$round]=$(run_wrk "$NGINX_PORT" "$c")
    RESULT[other,$c,$round]='{"rate": 0}'
    [ -z "$OTHER_PORT" ] || RESULT[other,$c,$round]=$(run_wrk "$OTHER_PORT" "$c")
    echo "round $round c=$c artwork ${RESULT[artwork,$c,$round]}"
    echo "round $round c=$c nginx ${RESULT[nginx,$c,$round]}"
    [ -z "$OTHER_PORT" ] || echo "round $round c=$c other ${RESULT[other,$c,$round]}"
  done
done
read -r _ _ entries bytes <<<"$(cache_counts "$SERVICE_PORT")"
echo "service's hot-image cache at the end: $entries posters, $bytes bytes; $(memory_of "$SERVICE_PID")"
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
echo
echo "| round | concurrency | artwork: req/s, p99 ms, non-2xx, CPU µs/GET, cache hits | nginx: req/s, p99 ms, non-2xx, CPU µs/GET | ratio | COMPARE_WITH: req/s, p99 ms, non-2xx, CPU µs/GET, cache hits | its ratio |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for round in $(seq "$ROUNDS"); do
  for c in $CONCURRENCIES; do
    python3 - "$round" "$c" "${RESULT[artwork,$c,$round]}" "${RESULT[nginx,$c,$round]}" \
      "${RESULT[other,$c,$round]}" <<'PY'
import json, sys
round, c = sys.argv[1], sys.argv[2]
a, n, o = (json.loads(x) for x in sys.argv[3:6])
def cell(r):
    text = f"{r['rate']:.0f}, {r['p99_us'] / 1000:.1f}, {r['non_2xx'] + r['failures']}, {r['cpu_us']:.1f}"
    return text + (f", {r['hit_pct']:.0f}%" if "hit_pct" in r else "")
other = f"{cell(o)} | {o['rate'] / n['rate']:.2f}" if o["rate"] else "- | -"
print(f"| {round} | {c} | {cell(a)} | {cell(n)} | {a['rate'] / n['rate']:.2f} | {other} |")
PY
  done
done
echo
echo "non-2xx counts wrk's non-2xx answers and its socket errors together (the JSON lines split them)"
