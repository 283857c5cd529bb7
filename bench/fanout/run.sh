#!/usr/bin/env bash
# Fan-out (issue 30): after a push with a new image_url, every phone that shows the activity opens
# a connection within the same second and loads the one image. N connections are opened at once
# (bench/fanout/fanout.py, Python asyncio), each GETs the image GETS_EACH times over keep-alive;
# the same against nginx (Debian) serving the same file with sendfile, in alternating rounds.
# The image is new to both: the service serves it from its hot cache once stored, nginx from the
# page cache. The client is one Python process on the same 2 cores, the same for both servers.
# Usage: bench/fanout/run.sh   CONNECTIONS="1000 10000" GETS_EACH=3 ROUNDS=3
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
trap cleanup EXIT
CONNECTIONS=${CONNECTIONS:-"1000 10000"}
GETS_EACH=${GETS_EACH:-3}
ROUNDS=${ROUNDS:-3}
# Every phone holds a descriptor in the client and one in the server.
ulimit -n "$(ulimit -Hn)"
LIMIT=$(ulimit -n)
build_release
make_photos

# The service sizes its connection limit from the descriptors (ARTWORK_MAX_CONNECTIONS unset);
# phones come from many addresses, which one loopback address stands for here.
start_service ARTWORK_STORAGE="$WORK/store" ARTWORK_MAX_CONNECTIONS_PER_CLIENT=100000
SERVICE_PORT=$PORT
IMAGE_PATH=$(host_poster "$SERVICE_PORT")
mkdir -p "$WORK/www/v1/images"
curl -s -o "$WORK/www$IMAGE_PATH" "http://127.0.0.1:$SERVICE_PORT$IMAGE_PATH"
echo "image: $IMAGE_PATH, $(stat -c %s "$WORK/www$IMAGE_PATH") bytes; descriptors: $LIMIT"

start_nginx "$LIMIT" "$IMAGE_PATH"

fanout() { python3 "$ROOT/bench/fanout/fanout.py" "$1" "$IMAGE_PATH" "$2" "$GETS_EACH"; }
fanout "$SERVICE_PORT" 100 >/dev/null
fanout "$NGINX_PORT" 100 >/dev/null
declare -A RESULT
for round in $(seq "$ROUNDS"); do
  for n in $CONNECTIONS; do
    RESULT[artwork,$n,$round]=$(fanout "$SERVICE_PORT" "$n")
    sleep 1
    RESULT[nginx,$n,$round]=$(fanout "$NGINX_PORT" "$n")
    sleep 1
    echo "round $round n=$n artwork ${RESULT[artwork,$n,$round]}"
    echo "round $round n=$n nginx   ${RESULT[nginx,$n,$round]}"
  done
done
echo "service after the rounds: $(memory_of "$SERVICE_PID")"
echo
echo "| round | connections | artwork: all have it (ms) | p50 | p99 | nginx: all have it (ms) | p50 | p99 | ratio (nginx/artwork) | failures |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for round in $(seq "$ROUNDS"); do
  for n in $CONNECTIONS; do
    python3 - "$round" "$n" "${RESULT[artwork,$n,$round]}" "${RESULT[nginx,$n,$round]}" <<'PY'
import json, sys
round, n = sys.argv[1], sys.argv[2]
a, g = (json.loads(x) for x in sys.argv[3:5])
ratio = g["all_have_image_ms"] / a["all_have_image_ms"] if a["all_have_image_ms"] else 0
print(f"| {round} | {n} | {a['all_have_image_ms']} | {a['p50_ms']} | {a['p99_ms']} | "
      f"{g['all_have_image_ms']} | {g['p50_ms']} | {g['p99_ms']} | {ratio:.2f} | "
      f"{a['failures']} / {g['failures']} |")
PY
  done
done
