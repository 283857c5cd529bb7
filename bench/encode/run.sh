#!/usr/bin/env bash
# Baseline against progressive JPEG (issue 11): what progressive encoding buys in bytes, and
# what it costs to encode and to decode, on posters framed from the benchmark photos and the
# peer inputs (jpeg_modes.c, built here with the system's libvips, one thread).
# Usage: bench/encode/run.sh [REPEATS per measurement, default 20]   SIZES="400 1200"
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
trap cleanup EXIT
REPEATS=${1:-20}
SIZES=${SIZES:-400 1200}
need_tool vips libvips-tools
make_photos
make_peer_inputs
gcc -O2 -o "$WORK/jpeg_modes" "$ROOT/bench/encode/jpeg_modes.c" $(pkg-config --cflags --libs vips)
inputs=("$PHOTOS"/p?.jpg "$INPUTS/photo.jpg" "$INPUTS/poster.jpg")
for size in $SIZES; do
  echo "poster width $size:"
  "$WORK/jpeg_modes" "$REPEATS" "$size" "${inputs[@]}" | tee "$WORK/modes-$size.tsv"
done
echo
echo "| poster | inputs | progressive / baseline bytes | encode CPU | full decode CPU | 1/4 decode CPU |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
for size in $SIZES; do
  python3 - "$WORK/modes-$size.tsv" "$size" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
def total(key): return sum(float(r[key]) for r in rows)
print(f"| {sys.argv[2]}x{int(sys.argv[2]) * 3 // 2} | {len(rows)} "
      f"| {total('progressive_bytes') / total('baseline_bytes'):.3f} "
      f"| {total('progressive_encode_ms') / total('baseline_encode_ms'):.2f} "
      f"| {total('progressive_decode_ms') / total('baseline_decode_ms'):.2f} "
      f"| {total('progressive_quarter_ms') / total('baseline_quarter_ms'):.2f} |")
PY
done
