#!/usr/bin/env bash
# S3 storage (issue 5), against SeaweedFS on loopback (started as scripts/seaweedfs installs it):
#  1. upload throughput (1-2 MB photos -> 400x600 poster) with ARTWORK_STORAGE=s3://... versus
#     the filesystem backend, both services running side by side, measured one after the other;
#  2. GET of one hosted image through the service (streamed from S3) versus GETs of the same
#     object straight from SeaweedFS, SigV4-signed (the signed headers are replayed: SeaweedFS
#     verifies the signature on every request, as it does for the service's own requests).
# Usage: bench/s3/run.sh [SECONDS per upload measurement, default 15] [GET requests per phase,
# default 5000]; GET phases alternate service / direct / direct-range, ROUNDS (3) times.
#   COMPARE_WITH=/path/to/other/artwork: the same measurements, in the same run, on another
#   build of the service (its own services, the same SeaweedFS), one after the other.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
source "$(dirname "$0")/../lib/seaweedfs.sh"
SECS=${1:-15}
GETS=${2:-5000}
UPLOAD_CONCURRENCY=${UPLOAD_CONCURRENCY:-8}
GET_CONCURRENCIES=${GET_CONCURRENCIES:-"4 32"}
ROUNDS=${ROUNDS:-3}

build_release
make_photos
start_seaweedfs

GET_ROWS=()
UPLOADS=()
BUILDS=("$ARTWORK" ${COMPARE_WITH:-})
for BUILD in "${!BUILDS[@]}"; do
  ARTWORK=${BUILDS[$BUILD]}
  echo "build $BUILD: $ARTWORK"
  start_service ARTWORK_STORAGE="$WORK/store-$BUILD"
  FS_PORT=$PORT FS_PID=$SERVICE_PID
  # shellcheck disable=SC2046 # the words of s3_environment, one variable each
  start_service $(s3_environment "art$BUILD")
  S3_PORT=$PORT S3_PID=$SERVICE_PID

  upload() {
    "$BENCH" load --port "$1" --method POST --path '/v1/artwork?shape=poster&size=400' \
      --content-type image/jpeg "${PHOTO_ARGS[@]}" --concurrency "$UPLOAD_CONCURRENCY" \
      --seconds "$SECS"
  }
  UP_FS=$(upload "$FS_PORT")
  echo "upload fs: $UP_FS"
  UP_S3=$(upload "$S3_PORT")
  echo "upload s3: $UP_S3"

  # One hosted image, and its object in the bucket.
  LOCATION=$(curl -s -D - -o /dev/null -H 'Content-Type: image/jpeg' \
    --data-binary "@$PHOTOS/p0.jpg" "http://127.0.0.1:$S3_PORT/v1/artwork?shape=poster" |
    tr -d '\r' | awk 'tolower($1) == "location:" { print $2 }')
  IMAGE_PATH=/v1/images/${LOCATION##*/}
  OBJECT_PATH=/$BUCKET/art$BUILD/objects/${LOCATION##*/}
  sign() { # the signed request headers curl sends for a GET of the object, one per line
    s3curl -v -o "$WORK/direct.bin" "$@" "http://127.0.0.1:$S3P$OBJECT_PATH" 2>&1 | tr -d '\r' |
      grep -i -E '^> (authorization|x-amz-date|x-amz-content-sha256|range):' | sed 's/^> //'
  }
  header_args() { # --header arguments for the load generator from sign's output
    HEADER_ARGS=()
    while IFS= read -r line; do HEADER_ARGS+=(--header "$line"); done <<<"$1"
  }
  SIGNED_PLAIN=$(sign)
  SIGNED_RANGE=$(sign -H "Range: bytes=0-262143")
  curl -s -o "$WORK/hosted.bin" "http://127.0.0.1:$S3_PORT$IMAGE_PATH"
  cmp "$WORK/direct.bin" "$WORK/hosted.bin"
  echo "object $OBJECT_PATH: $(stat -c %s "$WORK/direct.bin") bytes, same bytes through the service"

  # Per concurrency: through the service, direct plain GET, direct GET with the service's Range.
  # Each line: JSON of the load, then the CPU ms the service and SeaweedFS used during it.
  get_phase() { # NAME PORT PATH CONCURRENCY [header args...]
    local name=$1 port=$2 path=$3 c=$4
    shift 4
    local s0 w0 result
    s0=$(cpu_ms "$S3_PID") w0=$(cpu_ms "$WEED_PID")
    result=$("$BENCH" load --port "$port" --path "$path" "$@" --concurrency "$c" \
      --max-requests "$GETS" --seconds 120)
    GET_ROWS+=("$BUILD|$name|$c|$result|$(($(cpu_ms "$S3_PID") - s0))|$(($(cpu_ms "$WEED_PID") - w0))")
    echo "get $name c=$c: $result"
  }
  for c in $GET_CONCURRENCIES; do
    for round in $(seq "$ROUNDS"); do # alternate, so drifting load from elsewhere hits all three
      if [ -n "${PERF_OUT:-}" ]; then # optional profile of the service during its GETs
        perf record -F 999 -g -o "$PERF_OUT.c$c.r$round" -p "$S3_PID" >/dev/null 2>&1 &
        PERF_PID=$!
        track $PERF_PID
      fi
      get_phase service "$S3_PORT" "$IMAGE_PATH" "$c"
      if [ -n "${PERF_OUT:-}" ]; then kill -INT "$PERF_PID"; wait "$PERF_PID" || true; fi
      header_args "$SIGNED_PLAIN"
      get_phase direct "$S3P" "$OBJECT_PATH" "$c" "${HEADER_ARGS[@]}"
      header_args "$SIGNED_RANGE"
      get_phase direct-range "$S3P" "$OBJECT_PATH" "$c" "${HEADER_ARGS[@]}"
    done
  done
  echo "service memory: fs $(memory_of "$FS_PID"); s3 $(memory_of "$S3_PID")"
  UPLOADS+=("$UP_FS" "$UP_S3")
  kill -TERM "$FS_PID" "$S3_PID" 2>/dev/null || true
  wait "$FS_PID" "$S3_PID" 2>/dev/null || true
done

python3 - "$UPLOAD_CONCURRENCY" "${#BUILDS[@]}" "${UPLOADS[@]}" "${GET_ROWS[@]}" <<'PY'
import json, sys
builds = int(sys.argv[2])
uploads = [json.loads(u) for u in sys.argv[3:3 + 2 * builds]]
all_rows = [r.split("|") for r in sys.argv[3 + 2 * builds:]]
labels = {"service": "through the service (S3 backend)", "direct": "direct from SeaweedFS, signed",
          "direct-range": "direct, signed, with the service's Range header"}
med = lambda xs: sorted(xs)[len(xs) // 2]
def ok(r, code):
    assert r["failures"] == 0 and r["statuses"].startswith(code + "x") and "," not in r["statuses"], r
for build in range(builds):
    fs, s3 = uploads[2 * build], uploads[2 * build + 1]
    rows = [r[1:] for r in all_rows if r[0] == str(build)]
    ok(fs, "201"); ok(s3, "201")
    print()
    print(f"build {build}")
    print()
    print(f"| uploads (concurrency {sys.argv[1]}) | img/s | p50 / p99 (ms) |")
    print("| --- | ---: | ---: |")
    print(f"| filesystem backend | {fs['rate']:.1f} | {fs['p50_ms']:.0f} / {fs['p99_ms']:.0f} |")
    print(f"| S3 backend (SeaweedFS) | {s3['rate']:.1f} | {s3['p50_ms']:.0f} / {s3['p99_ms']:.0f} |")
    print(f"| **ratio S3 / filesystem** (target >= 0.9) | **{s3['rate'] / fs['rate']:.2f}** | |")
    print()
    agg = {}
    for name, c, result, scpu, wcpu in rows:
        r = json.loads(result); ok(r, "206" if name == "direct-range" else "200")
        a = agg.setdefault((name, c), {"n": 0, "s": 0.0, "scpu": 0, "wcpu": 0, "rates": [], "p50": [], "p99": []})
        a["n"] += r["requests"]; a["s"] += r["seconds"]; a["scpu"] += int(scpu); a["wcpu"] += int(wcpu)
        a["rates"].append(r["rate"]); a["p50"].append(r["p50_ms"]); a["p99"].append(r["p99_ms"])
    print("| GET one hosted image | concurrency | req/s (all rounds) | median p50 / p99 (ms) | CPU ms/req: service | CPU ms/req: SeaweedFS | service / this | per round |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for (name, c), a in agg.items():
        s = agg[("service", c)]
        rate = a["n"] / a["s"]
        svc_cpu = f"{a['scpu'] / a['n']:.2f}" if name == "service" else "-"
        rounds = ", ".join(f"{x / y:.2f}" for x, y in zip(s["rates"], a["rates"]))
        print(f"| {labels[name]} | {c} | {rate:.0f} | {med(a['p50']):.1f} / {med(a['p99']):.1f} "
              f"| {svc_cpu} | {a['wcpu'] / a['n']:.2f} | {(s['n'] / s['s']) / rate:.2f} | {rounds} |")
    print("(target: service / direct >= 0.8)")
PY
