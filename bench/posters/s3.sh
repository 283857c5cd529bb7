#!/usr/bin/env bash
# Hosted GETs over many posters on S3 storage (issue 42, item 3): N distinct posters stored
# through the service on SeaweedFS (loopback, SigV4 enforced), then GET at random over all N
# (seed SEED) from the service and straight from SeaweedFS (each object's GET signed as the
# service signs its reads, sign.py), in alternating rounds at each concurrency; then a replica's
# cold start: a second service on the same bucket, started now, GETs every poster once
# (first-pass.py), against the same pass on the service that has been answering.
# Per run: answers a second, p50/p99, non-2xx, CPU time per GET of the service and of SeaweedFS
# (all its threads), and the service's cache hits. On S3 the hot-image cache holds bodies in
# memory (ARTWORK_IMAGE_CACHE_BYTES, 32 MiB by default: about 237 of these posters).
# Usage: bench/posters/s3.sh [SECONDS per measurement, default 10]
#   N=2000  ROUNDS=2  CONCURRENCIES="32 256"  SEED=42  UPLOAD_CONNECTIONS=4  FIRST_PASS_CONNECTIONS=32
#   SERVICE_ENV="ARTWORK_IMAGE_CACHE_BYTES=..." (settings for every service)
#   COMPARE_WITH=/path/to/other/artwork (optional: another build on the same SeaweedFS, under a
#     prefix of its own, storing the same posters, measured alike in each round)
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
source "$(dirname "$0")/../lib/seaweedfs.sh"
DURATION=${1:-10}
N=${N:-2000}
ROUNDS=${ROUNDS:-2}
CONCURRENCIES=${CONCURRENCIES:-"32 256"}
SEED=${SEED:-42}
UPLOAD_CONNECTIONS=${UPLOAD_CONNECTIONS:-4}
FIRST_PASS_CONNECTIONS=${FIRST_PASS_CONNECTIONS:-32}
HERE=$(cd "$(dirname "$0")" && pwd)
need_tool wrk wrk
ulimit -n "$(ulimit -Hn)"
build_release
echo "machine: $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
echo "N=$N posters, seed $SEED, ${DURATION}s a measurement, concurrencies $CONCURRENCIES, $ROUNDS rounds${SERVICE_ENV:+; service: $SERVICE_ENV}"
start_seaweedfs
PREFIX=posters
# shellcheck disable=SC2046,SC2086 # the words of s3_environment, one variable each
start_service $(s3_environment "$PREFIX") ARTWORK_MAX_CONNECTIONS_PER_CLIENT=100000 ${SERVICE_ENV:-}
SERVICE_PORT=$PORT
PATHS=$WORK/paths.txt
echo "storing $N posters through POST /v1/artwork ($UPLOAD_CONNECTIONS connections)..."
echo "stored: $(python3 "$HERE/make_posters.py" "$SERVICE_PORT" "$N" "$SEED" "$UPLOAD_CONNECTIONS" "$PATHS")"
declare -A PORT_OF PID_OF PATHS_OF
PORT_OF[service]=$SERVICE_PORT PID_OF[service]=$SERVICE_PID PATHS_OF[service]=$PATHS
KINDS="service"
if [ -n "${COMPARE_WITH:-}" ]; then
  # shellcheck disable=SC2046,SC2086
  ARTWORK=$COMPARE_WITH start_service $(s3_environment "$PREFIX-other") \
    ARTWORK_MAX_CONNECTIONS_PER_CLIENT=100000 ${SERVICE_ENV:-}
  PORT_OF[other]=$PORT PID_OF[other]=$SERVICE_PID PATHS_OF[other]=$WORK/paths-other.txt
  echo "COMPARE_WITH stored: $(python3 "$HERE/make_posters.py" "$PORT" "$N" "$SEED" \
    "$UPLOAD_CONNECTIONS" "${PATHS_OF[other]}")"
  KINDS="service other"
  SERVICE_PID=${PID_OF[service]}
fi
python3 "$HERE/sign.py" "$PATHS" "$WORK/signed.txt" "127.0.0.1:$S3P" "$BUCKET" "$PREFIX" "$KEY" \
  "$SECRET" "$REGION"
# Both answer the same bytes (a sample of ten), the direct GET with its replayed signature.
for index in $(awk -v n="$N" 'BEGIN { for (i = 1; i <= n; i += 200) print i }'); do
  path=$(sed -n "${index}p" "$PATHS")
  IFS=$'\t' read -r target date authorization <<<"$(sed -n "${index}p" "$WORK/signed.txt")"
  a=$(curl -sf "http://127.0.0.1:$SERVICE_PORT$path" | sha256sum)
  b=$(curl -sf -H "x-amz-date: $date" -H "x-amz-content-sha256: $EMPTY_SHA" \
    -H "Authorization: $authorization" "http://127.0.0.1:$S3P$target" | sha256sum)
  [ "$a" = "$b" ] || { echo "different bytes for $path" >&2; exit 1; }
done
TICK=$(getconf CLK_TCK)

# One wrk run: "service", "other" (COMPARE_WITH's) or "direct" at CONNECTIONS; wrk's summary
# with the CPU µs per GET of the service measured (none for direct) and of SeaweedFS, and the
# service's cache hits.
run_wrk() {
  local summary before_service before_weed after_service after_weed hits_before=0 hits_after=0
  local port=${PORT_OF[$1]:-${PORT_OF[service]}} pid=${PID_OF[$1]:-${PID_OF[service]}}
  hits_before=$(curl -s "http://127.0.0.1:$port/metrics" | awk '/^artwork_image_cache_hits_total / { print $2 }')
  before_service=$(cpu_ticks "$pid")
  before_weed=$(cpu_ticks "$WEED_PID")
  if [ "$1" != direct ]; then
    summary=$(PATHS_FILE=${PATHS_OF[$1]} SEED=$SEED wrk -t1 -c"$2" -d"${DURATION}s" \
      -s "$HERE/random-paths.lua" "http://127.0.0.1:$port/" | tail -1)
  else
    summary=$(SIGNED_FILE=$WORK/signed.txt SEED=$SEED wrk -t1 -c"$2" -d"${DURATION}s" \
      -s "$HERE/signed-paths.lua" "http://127.0.0.1:$S3P/" | tail -1)
  fi
  after_service=$(cpu_ticks "$pid")
  after_weed=$(cpu_ticks "$WEED_PID")
  hits_after=$(curl -s "http://127.0.0.1:$port/metrics" | awk '/^artwork_image_cache_hits_total / { print $2 }')
  python3 -c 'import json, sys
r = json.loads(sys.argv[1])
tick, n = int(sys.argv[4]), max(1, r["requests"])
r["service_cpu_us"] = round(int(sys.argv[2]) / tick / n * 1e6, 1)
r["weed_cpu_us"] = round(int(sys.argv[3]) / tick / n * 1e6, 1)
if sys.argv[5] != "direct":
    r["hit_pct"] = round(100 * (float(sys.argv[7]) - float(sys.argv[6])) / n, 1)
print(json.dumps(r))' "$summary" "$((after_service - before_service))" \
    "$((after_weed - before_weed))" "$TICK" "$1" "$hits_before" "$hits_after"
}

for kind in $KINDS direct; do echo "warm-up: $kind $(run_wrk "$kind" 32)"; done
declare -A RESULT
for round in $(seq "$ROUNDS"); do
  for c in $CONCURRENCIES; do
    for kind in $KINDS direct; do
      RESULT[$kind,$c,$round]=$(run_wrk "$kind" "$c")
      echo "round $round c=$c $kind ${RESULT[$kind,$c,$round]}"
    done
    [ -n "${COMPARE_WITH:-}" ] || RESULT[other,$c,$round]='{"rate": 0}'
  done
done

# A replica's cold start: a second service on the same bucket, its cache empty.
WARM_PID=${PID_OF[service]}
# shellcheck disable=SC2046,SC2086
start_service $(s3_environment "$PREFIX") ARTWORK_MAX_CONNECTIONS_PER_CLIENT=100000 ${SERVICE_ENV:-}
COLD=$(python3 "$HERE/first-pass.py" "$PORT" "$PATHS" "$FIRST_PASS_CONNECTIONS")
WARM=$(python3 "$HERE/first-pass.py" "$SERVICE_PORT" "$PATHS" "$FIRST_PASS_CONNECTIONS")
echo "first pass over all $N ($FIRST_PASS_CONNECTIONS connections): new replica $COLD"
echo "the same pass on the service that has been answering: $WARM"
echo "service memory at the end: $(memory_of "$WARM_PID")"
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
echo
echo "| round | concurrency | service: req/s, p99 ms, non-2xx, CPU µs/GET service + SeaweedFS, cache hits | SeaweedFS direct: req/s, p99 ms, non-2xx, CPU µs/GET | ratio | COMPARE_WITH: as the service | its ratio |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for round in $(seq "$ROUNDS"); do
  for c in $CONCURRENCIES; do
    python3 - "$round" "$c" "${RESULT[service,$c,$round]}" "${RESULT[direct,$c,$round]}" \
      "${RESULT[other,$c,$round]}" <<'PY'
import json, sys
round, c = sys.argv[1], sys.argv[2]
s, d, o = (json.loads(x) for x in sys.argv[3:6])
def cell(r):
    return (f"{r['rate']:.0f}, {r['p99_us'] / 1000:.1f}, {r['non_2xx'] + r['failures']}, "
            f"{r['service_cpu_us']:.1f} + {r['weed_cpu_us']:.1f}, {r['hit_pct']:.0f}%")
direct = (f"{d['rate']:.0f}, {d['p99_us'] / 1000:.1f}, {d['non_2xx'] + d['failures']}, "
          f"{d['weed_cpu_us']:.1f}")
other = f"{cell(o)} | {o['rate'] / d['rate']:.2f}" if o["rate"] else "- | -"
print(f"| {round} | {c} | {cell(s)} | {direct} | {s['rate'] / d['rate']:.2f} | {other} |")
PY
  done
done
