#!/usr/bin/env bash
# Where a hosted GET's time goes (issue 42): `GET /v1/images/{id}.jpg` of a 400x600 poster at
# CONNECTIONS (wrk, one thread, keep-alive) while `perf record -g` samples the service alone.
# Prints requests a second, the service's samples by library, its hottest user-space symbols,
# and the share of each part of a GET that holds samples beneath it (a frame anywhere in the
# stack). LOG_LEVEL is the service's (the other benches run at `warn`, as nginx runs without an
# access log; `info`, the default, writes the access line). With COMPARE_WITH, the other build is
# profiled the same way right after, on the same poster.
# Usage: bench/hot/profile.sh [SECONDS, default 6]
#   CONNECTIONS=32   LOG_LEVEL=warn   COMPARE_WITH=/path/to/other/artwork   FREQUENCY=2999
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
trap cleanup EXIT
DURATION=${1:-6}
CONNECTIONS=${CONNECTIONS:-32}
LOG_LEVEL=${LOG_LEVEL:-warn}
FREQUENCY=${FREQUENCY:-2999}
need_tool wrk wrk
need_tool perf linux-perf
ulimit -n "$(ulimit -Hn)"
build_release
make_photos

# The parts of a GET, each a pattern matched against the demangled frames of a sample's stack.
PARTS='the head parsed and checked=ConnectionMachine\.headArrived
the route and its handler (the answer made)=ConnectionMachine\.messageArrived
the exchange finished (the access line among it)=ConnectionMachine\.finishExchange
the access line=Logger\.(log|write)
the head sent (sendmsg)=__libc_sendmsg
the body sent (sendfile)=\bsendfile\b
the request read (recv)=__libc_recv
waiting for the next (epoll_wait)=\bepoll_wait\b'

profile() {
  local name=$1 binary=$2 url
  ARTWORK=$binary start_service ARTWORK_STORAGE="$WORK/store-$name" \
    ARTWORK_MAX_CONNECTIONS_PER_CLIENT=100000 ARTWORK_LOG_LEVEL="$LOG_LEVEL"
  url="http://127.0.0.1:$PORT$(host_poster "$PORT")"
  wrk -t1 -c"$CONNECTIONS" -d2s "$url" >/dev/null
  perf record -g -F "$FREQUENCY" -p "$SERVICE_PID" -o "$WORK/$name.data" \
    -- sleep "$((DURATION + 1))" 2>"$WORK/perf.log" &
  local recording=$!
  sleep 0.5
  wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" "$url" >"$WORK/wrk-$name"
  wait "$recording"
  stop_service
  echo "## $name ($binary), $CONNECTIONS connections, log level $LOG_LEVEL:" \
    "$(awk '/Requests\/sec/ { printf "%.0f", $2 }' "$WORK/wrk-$name") req/s"
  echo
  echo "Samples by library, above 0.5%:"
  perf report -i "$WORK/$name.data" --no-children --sort dso --stdio -g none \
    --percent-limit 0.5 2>/dev/null | grep -E '^ +[0-9]' | sed 's/ *$//'
  echo
  echo "Hottest user-space symbols, above 0.4%:"
  perf report -i "$WORK/$name.data" --no-children --sort dso,symbol --stdio -g none \
    --percent-limit 0.4 2>/dev/null | grep -E '^ +[0-9]' | grep -v kernel.kallsyms \
    | swift demangle --simplified | sed -E 's/ *$//' | cut -c1-150 | head -25
  echo
  echo "| part of a GET | share of the service's samples |"
  echo "| --- | ---: |"
  perf script -i "$WORK/$name.data" -F ip,sym 2>/dev/null | swift demangle --simplified \
    | python3 -c '
import re, sys
parts = [line.split("=", 1) for line in sys.argv[1].splitlines()]
stacks = [s for s in sys.stdin.read().split("\n\n") if s.strip()]
for label, pattern in parts:
    hits = sum(1 for s in stacks if re.search(pattern, s))
    print("| %s | %.1f%% |" % (label, 100.0 * hits / max(1, len(stacks))))
' "$PARTS"
  echo
}

profile this "$ARTWORK"
if [ -n "${COMPARE_WITH:-}" ]; then profile other "$COMPARE_WITH"; fi
