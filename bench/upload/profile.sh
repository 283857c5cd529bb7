#!/usr/bin/env bash
# Where an upload's time goes (issue 42): the 3000x2000 photo JPEG (bench/peers' input) POSTed
# as a 400x600 centre-cropped poster at 4 connections, under a system-wide `perf record -g`,
# beside the decode floor (`artwork-bench floor`, decoding alone) in the same run. Prints, for
# each, both recorded: images/s and the machine's CPU per image (/proc/stat over the window,
# every process); the samples by process name and library; the upload's hottest symbols; then,
# one upload at a time, the mean time of each stage (decode and frame, encode, ThumbHash, store)
# and of the whole request, from the service's own histograms.
# The service's threads are named (artwork-http-N, artwork-img-N, ...); each worker process is
# `artwork-worker`; the load generator `artwork-bench`.
# Usage: bench/upload/profile.sh [SECONDS, default 10]   FREQUENCY=2999 (samples a second)
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
trap cleanup EXIT
SECS=${1:-10}
FREQUENCY=${FREQUENCY:-2999}
need_tool perf linux-perf
build_release
make_peer_inputs
PHOTO="$INPUTS/photo.jpg"

# Busy CPU time of the whole machine so far, in milliseconds (user, nice, system, irq, softirq).
busy_ms() {
  awk -v hz="$(getconf CLK_TCK)" '/^cpu / { printf "%d\n", ($2 + $3 + $4 + $7 + $8) * 1000 / hz }' \
    /proc/stat
}
# "RATE CPU_MS_PER_IMAGE" from a load's JSON and the busy time it took.
summary() {
  python3 -c 'import json,sys; r=json.loads(sys.argv[1]); assert r.get("failures", 0) == 0, r
print("%.1f %.1f" % (r["rate"], int(sys.argv[2]) / r["requests"]))' "$1" "$2"
}

start_service ARTWORK_STORAGE="$WORK/store"
LOAD=("$BENCH" load --port "$PORT" --method POST --path '/v1/artwork?shape=poster&size=400&crop=centre'
  --content-type image/jpeg --body "$PHOTO" --concurrency 4)
"${LOAD[@]}" --seconds 3 >/dev/null  # workers warm, store made

# Runs a load (its JSON on stdout) under a system-wide recording into $WORK/NAME.data, and sets
# RATE and CPU (the machine's busy ms per image over the window). Both sides are recorded, so
# perf's own cost (a few percent) is in both.
measure() {
  local name=$1 before result
  shift
  before=$(busy_ms)
  perf record -a -g -F "$FREQUENCY" -o "$WORK/$name.data" -- sleep "$SECS" 2>"$WORK/perf.log" &
  local recording=$!
  result=$("$@" --seconds "$SECS")
  wait "$recording"
  read -r RATE CPU <<<"$(summary "$result" $(($(busy_ms) - before)))"
}
measure floor "$BENCH" floor --body "$PHOTO" --concurrency 4 --shape poster --size 400
floor_rate=$RATE floor_cpu=$CPU
measure upload "${LOAD[@]}"
upload_rate=$RATE upload_cpu=$CPU

echo "input: $(vipsheader "$PHOTO" | cut -d: -f2 | cut -d, -f1), $(stat -c %s "$PHOTO") bytes; ${SECS}s each, 4 at once"
echo
echo "| | images/s | machine CPU per image (ms) |"
echo "| --- | ---: | ---: |"
echo "| decode floor | $floor_rate | $floor_cpu |"
echo "| uploads | $upload_rate | $upload_cpu |"
echo "| uploads / floor | $(python3 -c "print('%.2f' % ($upload_rate / $floor_rate))") | over the floor: $(python3 -c "print('%.1f' % ($upload_cpu - $floor_cpu))") ms |"
echo
echo "The floor's samples by process name and library, above 1%:"
perf report -i "$WORK/floor.data" --no-children --sort comm,dso --stdio --percent-limit 1 \
  -g none 2>/dev/null | grep -E '^ +[0-9]' | sed 's/ *$//' | head -20
echo
echo "The uploads' samples by process (thread) name and library, above 0.3%:"
perf report -i "$WORK/upload.data" --no-children --sort comm,dso --stdio --percent-limit 0.3 \
  -g none 2>/dev/null | grep -E '^ +[0-9]' | sed 's/ *$//' | head -40
echo
echo "The uploads' hottest symbols, above 0.5%:"
# (libjpeg-turbo's symbols are stripped: its Huffman decoder is the run of addresses near 0x23000.)
perf report -i "$WORK/upload.data" --no-children --sort comm,dso,symbol --stdio --percent-limit 0.5 \
  -g none 2>/dev/null | grep -E '^ +[0-9]' | swift demangle --simplified \
  | sed -E 's/ +- +- *$//; s/ *$//' | cut -c1-160 | head -40

# The stages one at a time: 40 uploads at one connection, so that a stage's time is its own
# (at 4 connections it includes waiting for a core), from the service's stage histograms. Each
# asks for another width (361-400 px), so each stores a new object: the same poster again
# finds its object stored and writes nothing (as every upload after the first above does).
echo
echo "One upload at a time (40 posters 361-400 px wide, 1 connection), mean ms per stage from /metrics:"
scrape() { curl -s "http://127.0.0.1:$PORT/metrics"; }
scrape >"$WORK/metrics-before"
for size in $(seq 361 400); do
  status=$(curl -s -o /dev/null -w '%{http_code}' --data-binary @"$PHOTO" \
    -H 'Content-Type: image/jpeg' \
    "http://127.0.0.1:$PORT/v1/artwork?shape=poster&size=$size&crop=centre")
  [ "$status" = 201 ] || { echo "upload of size $size answered $status" >&2; exit 1; }
done
scrape >"$WORK/metrics-after"
python3 - "$WORK/metrics-before" "$WORK/metrics-after" <<'PY'
import re, sys
def read(path):
    values = {}
    for line in open(path):
        m = re.match(r'artwork_(stage|http_request)_duration_seconds_(sum|count)\{(\w+)="([^"]+)"\} (\S+)', line)
        if m:
            values[(m.group(1), m.group(3), m.group(4), m.group(2))] = float(m.group(5))
    return values
before, after = read(sys.argv[1]), read(sys.argv[2])
def mean(kind, label, name):
    count = after.get((kind, label, name, "count"), 0) - before.get((kind, label, name, "count"), 0)
    total = after.get((kind, label, name, "sum"), 0) - before.get((kind, label, name, "sum"), 0)
    return (1000 * total / count, int(count)) if count else (None, 0)
print("| stage | mean ms | count |")
print("| --- | ---: | ---: |")
for stage in ("decode_frame", "encode", "thumbhash", "store"):
    ms, count = mean("stage", "stage", stage)
    print(f"| {stage} | {ms:.2f} | {count} |" if ms is not None else f"| {stage} | - | 0 |")
routes = sorted({key[2] for key in after if key[0] == "http_request" and "artwork" in key[2]})
for route in routes:
    ms, count = mean("http_request", "route", route)
    if count:
        print(f"| the whole request ({route}) | {ms:.2f} | {count} |")
PY
