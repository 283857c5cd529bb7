#!/usr/bin/env bash
# Fan-out past the connection limit (issue 30): more phones than ARTWORK_MAX_CONNECTIONS arrive
# over a second, as a push reaches them, and each keeps its connection open, idle, once it has
# its image, as phones do. The phones that have their image must give their slots to the ones
# still arriving. Counts the phones that got their image and those refused or cut, the service
# (and COMPARE_WITH, another build) against nginx with the same number of connections (2 workers,
# each half of it; nginx closes idle kept-alive connections when it runs out), alternating.
# Usage: bench/fanout/past-limit.sh   LIMIT=1000 PHONES=3000 SPREAD_MS=1000 GETS_EACH=3 ROUNDS=2
#   COMPARE_WITH=/path/to/other/artwork (optional)
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
trap cleanup EXIT
LIMIT=${LIMIT:-1000}
PHONES=${PHONES:-3000}
GETS_EACH=${GETS_EACH:-3}
ROUNDS=${ROUNDS:-2}
export SPREAD_MS=${SPREAD_MS:-1000} HOLD=1
ulimit -n "$(ulimit -Hn)"
build_release
make_photos

# Phones come from many addresses, which one loopback address stands for here.
start_service ARTWORK_STORAGE="$WORK/store" ARTWORK_MAX_CONNECTIONS_PER_CLIENT=100000 \
  ARTWORK_MAX_CONNECTIONS="$LIMIT"
PORTS=("artwork:$PORT")
IMAGE_PATH=$(host_poster "$PORT")
PATHS=("$IMAGE_PATH")
if [ -n "${COMPARE_WITH:-}" ]; then
  ARTWORK=$COMPARE_WITH start_service ARTWORK_STORAGE="$WORK/store-other" \
    ARTWORK_MAX_CONNECTIONS_PER_CLIENT=100000 ARTWORK_MAX_CONNECTIONS="$LIMIT"
  PORTS+=("compared:$PORT")
  PATHS+=("$(host_poster "$PORT")")
fi
mkdir -p "$WORK/www/v1/images"
curl -s -o "$WORK/www$IMAGE_PATH" "http://127.0.0.1:${PORTS[0]#*:}$IMAGE_PATH"
start_nginx $((LIMIT / 2)) "$IMAGE_PATH"
PORTS+=("nginx:$NGINX_PORT")
PATHS+=("$IMAGE_PATH")
echo "limit $LIMIT connections, $PHONES phones over $SPREAD_MS ms, $GETS_EACH GETs each"

for round in $(seq "$ROUNDS"); do
  for index in "${!PORTS[@]}"; do
    name=${PORTS[$index]%%:*}
    port=${PORTS[$index]#*:}
    result=$(python3 "$ROOT/bench/fanout/fanout.py" "$port" "${PATHS[$index]}" "$PHONES" "$GETS_EACH")
    echo "round $round $name $result"
    # Held connections close as the client ends; let the servers count them gone.
    sleep 2
  done
done
