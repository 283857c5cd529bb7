# Shared helpers for bench/*/run.sh (sourced, not run). Every process a script starts is
# recorded with `track PID` and stopped by `cleanup` on exit (the scripts set the trap).

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PIDS=()
WORK=$(mktemp -d /tmp/artwork-bench.XXXXXX)

track() { PIDS+=("$1"); }

# Stops every tracked process (TERM, then KILL after 5 s) and removes the scratch directory.
cleanup() {
  local pid waited
  for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do
    waited=0
    while kill -0 "$pid" 2>/dev/null && [ $waited -lt 50 ]; do sleep 0.1; waited=$((waited + 1)); done
    kill -KILL "$pid" 2>/dev/null || true
  done
  # The service's log outlives the run (a crash's backtrace is in it).
  if [ -s "$WORK/service.log" ]; then mkdir -p "$ROOT/bench/out" && cp "$WORK/service.log" "$ROOT/bench/out/last-service.log"; fi
  rm -rf "$WORK"
}

# A free loopback TCP port (the kernel's choice).
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# Waits up to 30 s for URL to answer 200.
wait_http() {
  local i
  for i in $(seq 300); do
    if [ "$(curl -s -o /dev/null -w '%{http_code}' "$1")" = 200 ]; then return 0; fi
    sleep 0.1
  done
  echo "timed out waiting for $1" >&2
  return 1
}

# Release builds of the service and the load generator.
build_release() {
  (cd "$ROOT" && swift build -c release --product artwork 2>&1 | grep -v 'prohibited flag' | tail -1 \
    && swift build -c release --product artwork-bench 2>&1 | grep -v 'prohibited flag' | tail -1)
  ARTWORK="$ROOT/.build/release/artwork"
  BENCH="$ROOT/.build/release/artwork-bench"
  # Which builds a comparison is between, so that its figures can be filed under their commits.
  echo "this build: $(describe_build "$ARTWORK")"
  if [ -n "${COMPARE_WITH:-}" ]; then echo "COMPARE_WITH: $(describe_build "$COMPARE_WITH")"; fi
}

# "PATH (commit C)" for a binary: the commit of the git work tree it lies in ("+changes" when
# tracked files differ from it), or "commit unknown" for one outside any (a copy).
describe_build() {
  local dir commit
  dir=$(dirname "$1")
  if commit=$(git -C "$dir" rev-parse --short HEAD 2>/dev/null); then
    git -C "$dir" diff --quiet HEAD 2>/dev/null || commit="$commit+changes"
    echo "$1 (commit $commit)"
  else
    echo "$1 (commit unknown)"
  fi
}

# Installs Debian package PACKAGE when COMMAND is missing (benchmarks need a few tools the
# tests do not: vips, wrk, nginx).
need_tool() {
  command -v "$1" >/dev/null && return 0
  local sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$2" >/dev/null \
    || { $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$2" >/dev/null; }
}

# 1-2 MB JPEG photos derived deterministically from testimages/photo-large.jpg (libvips).
make_photos() {
  need_tool vips libvips-tools
  PHOTOS="$ROOT/bench/out/photos"
  mkdir -p "$PHOTOS"
  local src="$ROOT/testimages/photo-large.jpg"
  [ -s "$PHOTOS/p0.jpg" ] || vips copy "$src" "$PHOTOS/p0.jpg[Q=95]"
  [ -s "$PHOTOS/p1.jpg" ] || vips flip "$src" "$PHOTOS/p1.jpg[Q=96]" horizontal
  [ -s "$PHOTOS/p2.jpg" ] || vips flip "$src" "$PHOTOS/p2.jpg[Q=96]" vertical
  [ -s "$PHOTOS/p3.jpg" ] || vips rot "$src" "$PHOTOS/p3.jpg[Q=97]" d180
  [ -s "$PHOTOS/p4.jpg" ] || vips rot "$src" "$PHOTOS/p4.jpg[Q=98]" d90
  PHOTO_ARGS=()
  local f
  for f in "$PHOTOS"/p?.jpg; do PHOTO_ARGS+=(--body "$f"); done
}

# Starts `artwork serve` on a free port with extra VAR=value arguments; sets SERVICE_PID, PORT.
# A port found free can be taken before the service binds it (as the ephemeral source port of
# another connection: a soak in CI once waited 30 s for a service that had exited at once), so
# a service that exits before it answers is started again on another port, three times at most.
start_service() {
  local attempt i
  for attempt in 1 2 3; do
    PORT=$(free_port)
    env ARTWORK_LISTEN="127.0.0.1:$PORT" ARTWORK_PUBLIC_URL="http://127.0.0.1:$PORT" \
      ARTWORK_LOG_LEVEL=warn "$@" "$ARTWORK" serve 2>>"$WORK/service.log" &
    SERVICE_PID=$!
    track "$SERVICE_PID"
    for i in $(seq 300); do
      if [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/healthz")" = 200 ]
      then return 0; fi
      kill -0 "$SERVICE_PID" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$SERVICE_PID" 2>/dev/null; then
      echo "timed out waiting for the service on port $PORT" >&2
      return 1
    fi
    echo "the service exited before it answered (attempt $attempt): $(tail -c 300 "$WORK/service.log")" >&2
  done
  return 1
}

# Stops the service started last and waits for it.
stop_service() {
  kill -TERM "$SERVICE_PID" 2>/dev/null || true
  wait "$SERVICE_PID" 2>/dev/null || true
}

# Prints VmRSS of PID in MB, one decimal.
rss_mb() { awk '/^VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }

# Prints VmHWM and VmRSS of PID in MB.
memory_of() {
  awk '/^VmHWM|^VmRSS/ { printf "%s %.1f MB  ", $1, $2 / 1024 } END { print "" }' "/proc/$1/status"
}

# JSON field NAME of the one-line JSON object in $2.
field() { python3 -c 'import json,sys; print(json.loads(sys.argv[2])[sys.argv[1]])' "$1" "$2"; }

# CPU time (user + system) PID has used so far, in milliseconds.
cpu_ms() {
  awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%d\n", ($12 + $13) * 1000 / hz }' \
    "/proc/$1/stat"
}

# The peer-comparison inputs in $INPUTS (bench/out/peer-inputs, made once with libvips from
# testimages/photo-large.jpg): a 3000x2000 JPEG photo, a 2000x3000 JPEG poster, a WebP and a PNG.
make_peer_inputs() {
  need_tool vips libvips-tools
  INPUTS="$ROOT/bench/out/peer-inputs"
  mkdir -p "$INPUTS"
  src="$ROOT/testimages/photo-large.jpg"
  if [ ! -s "$INPUTS/photo.png" ]; then
    vips resize "$src" "$WORK/big.v" 1.5
    vips crop "$WORK/big.v" "$INPUTS/photo.jpg[Q=95]" 0 300 3000 2000
    vips rot "$src" "$WORK/rot.v" d90
    vips resize "$WORK/rot.v" "$WORK/tall.v" 1.721
    vips crop "$WORK/tall.v" "$INPUTS/poster.jpg[Q=95]" 0 200 2000 3000
    vips crop "$WORK/big.v" "$INPUTS/photo.webp[Q=97]" 0 300 3000 2000
    vips resize "$src" "$WORK/small.v" 0.5
    vips copy "$WORK/small.v" "$INPUTS/photo.png[compression=9]"
  fi
}

# Uploads $PHOTOS/p0.jpg to the service on port $1 as a 400-wide poster; prints the hosted path
# (/v1/images/...). Needs make_photos.
host_poster() {
  local answer
  answer=$(curl -s --data-binary @"$PHOTOS/p0.jpg" -H 'Content-Type: image/jpeg' \
    "http://127.0.0.1:$1/v1/artwork?shape=poster&size=400")
  python3 -c 'import json,sys; u=json.loads(sys.argv[1])["image_url"]; print(u[u.index("/v1/images/"):])' "$answer"
}

# Starts nginx (Debian) serving $WORK/www with sendfile and the hosted images' cache header, as
# the service's peer in the GET benchmarks, allowed CONNECTIONS ($1) per worker; sets
# NGINX_PORT and waits until it answers PATH ($2).
start_nginx() {
  need_tool nginx nginx
  NGINX_PORT=$(free_port)
  # nginx workers run as nobody: let them read the scratch directory.
  chmod -R a+rX "$WORK"
  cat >"$WORK/nginx.conf" <<CONF
worker_processes auto;
worker_rlimit_nofile $(ulimit -n);
daemon off;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log;
events { worker_connections $1; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  types { image/jpeg jpg; }
  server {
    listen 127.0.0.1:$NGINX_PORT backlog=4096;
    root $WORK/www;
    add_header Cache-Control "public, max-age=31536000, immutable";
  }
}
CONF
  nginx -c "$WORK/nginx.conf" -p "$WORK" &
  track $!
  wait_http "http://127.0.0.1:$NGINX_PORT$2"
}

# The CPU time (clock ticks, user and kernel) of PIDS so far, all threads.
cpu_ticks() {
  local pid total=0
  for pid in "$@"; do total=$((total + $(awk '{ print $14 + $15 }' "/proc/$pid/stat"))); done
  echo "$total"
}
