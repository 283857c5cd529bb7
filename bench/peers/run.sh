#!/usr/bin/env bash
# Uploads against a peer (issue 11), side by side in one run, at concurrency 4, per input:
#   this service (`POST /v1/artwork`, raw body, a 400x600 poster, crop=centre and attention);
#   thumbor 7.8 from PyPI in a virtualenv (2 processes, one per port, each fed 2 of the 4
#     connections; no storage, unsafe URLs, baseline JPEG at quality 80 as this service writes,
#     its HTTP loader reading the same file from a loopback origin), `/unsafe/400x600/...` (its
#     default centre crop);
#   the decode floor: decoding alone, at the shrink-on-load framing chooses (`artwork-bench
#     floor`), on a pool of the service's size.
# Inputs (made with libvips from testimages/photo-large.jpg): a 3000x2000 JPEG photo, a
# 2000x3000 JPEG poster, a WebP and a PNG, each 1-2 MB.
# Usage: bench/peers/run.sh [SECONDS per measurement, default 10]   ROUNDS=2
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
# thumbor's --processes forks workers that outlive its tracked parent: stop them by their
# configuration file, then everything else.
trap 'pkill -f "$WORK/thumbor.conf" || true; cleanup' EXIT
SECS=${1:-10}
ROUNDS=${ROUNDS:-2}
build_release
need_tool vips libvips-tools

make_peer_inputs
for f in "$INPUTS"/*; do echo "input $(basename "$f"): $(vipsheader "$f" | cut -d: -f2 | cut -d, -f1), $(stat -c %s "$f") bytes"; done

VENV="$ROOT/bench/out/thumbor-venv"
if [ ! -x "$VENV/bin/thumbor" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "thumbor==7.8.0"
fi

ORIGIN_PORT=$(free_port)
python3 -m http.server "$ORIGIN_PORT" --bind 127.0.0.1 --directory "$INPUTS" >"$WORK/origin.log" 2>&1 &
track $!
wait_http "http://127.0.0.1:$ORIGIN_PORT/photo.jpg"

cat >"$WORK/thumbor.conf" <<CONF
LOADER = 'thumbor.loaders.http_loader'
STORAGE = 'thumbor.storages.no_storage'
RESULT_STORAGE = None
ALLOW_UNSAFE_URL = True
QUALITY = 80
PROGRESSIVE_JPEG = False
CONF
# Two thumbor processes, each on its own port and fed by its own half of the clients. One
# thumbor with `--processes 2` shares one listening socket, and keep-alive connections stick to
# whichever process accepted them: with 4 connections, 3 or 4 often landed on one process, and
# its rate on the same input came out at 23 or at 40 img/s from one round to the next.
THUMBOR_PORTS=()
for instance in 1 2; do
  port=$(free_port)
  "$VENV/bin/thumbor" -i 127.0.0.1 -p "$port" -c "$WORK/thumbor.conf" --processes 1 -l warning \
    >"$WORK/thumbor-$instance.log" 2>&1 &
  track $!
  wait_http "http://127.0.0.1:$port/healthcheck"
  THUMBOR_PORTS+=("$port")
done

start_service ARTWORK_STORAGE="$WORK/store"

# The rate of one artwork-bench report; a failed or refused request fails the run.
rate() {
  python3 -c 'import json,sys; r=json.loads(sys.argv[1]); assert r.get("failures", 0) == 0, r; print("%.2f" % r["rate"])' "$1"
}
declare -A R
for round in $(seq "$ROUNDS"); do
  for f in "$INPUTS"/*; do
    name=$(basename "$f")
    type=image/jpeg; case "$name" in *.webp) type=image/webp;; *.png) type=image/png;; esac
    R[floor,$name,$round]=$(rate "$("$BENCH" floor --body "$f" --concurrency 4 --seconds "$SECS" --shape poster --size 400)")
    for crop in centre attention; do
      R[$crop,$name,$round]=$(rate "$("$BENCH" load --port "$PORT" --method POST \
        --path "/v1/artwork?shape=poster&size=400&crop=$crop" --content-type "$type" --body "$f" \
        --concurrency 4 --seconds "$SECS")")
    done
    # Two clients of 2 connections each, one per thumbor process, at once: their rates add up.
    loads=()
    for index in 0 1; do
      "$BENCH" load --port "${THUMBOR_PORTS[$index]}" --method GET \
        --path "/unsafe/400x600/127.0.0.1:$ORIGIN_PORT/$name" --concurrency 2 \
        --seconds "$SECS" >"$WORK/thumbor-load-$index.json" &
      loads+=($!)
    done
    wait "${loads[@]}"
    R[thumbor,$name,$round]=$(python3 -c 'import sys; print("%.2f" % sum(float(x) for x in sys.argv[1:]))' \
      "$(rate "$(cat "$WORK/thumbor-load-0.json")")" "$(rate "$(cat "$WORK/thumbor-load-1.json")")")
    echo "round $round $name: floor ${R[floor,$name,$round]} centre ${R[centre,$name,$round]} attention ${R[attention,$name,$round]} thumbor ${R[thumbor,$name,$round]}"
  done
done

echo
echo "| input | decode floor (img/s) | thumbor centre (img/s) | ours centre (img/s) | ours attention (img/s) | centre / thumbor (>= 1.6) | centre / floor (>= 0.65) | attention / thumbor (>= 1.3) |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for f in "$INPUTS"/*; do
  name=$(basename "$f")
  python3 - "$name" "$ROUNDS" \
    "$(for r in $(seq "$ROUNDS"); do echo -n "${R[floor,$name,$r]} "; done)" \
    "$(for r in $(seq "$ROUNDS"); do echo -n "${R[thumbor,$name,$r]} "; done)" \
    "$(for r in $(seq "$ROUNDS"); do echo -n "${R[centre,$name,$r]} "; done)" \
    "$(for r in $(seq "$ROUNDS"); do echo -n "${R[attention,$name,$r]} "; done)" <<'PY'
import sys
name = sys.argv[1]
mean = lambda text: sum(map(float, text.split())) / len(text.split())
floor, thumbor, centre, attention = (mean(x) for x in sys.argv[3:7])
print(f"| {name} | {floor:.1f} | {thumbor:.1f} | {centre:.1f} | {attention:.1f} "
      f"| {centre / thumbor:.2f} | {centre / floor:.2f} | {attention / thumbor:.2f} |")
PY
done
