#!/usr/bin/env bash
# Is a Huffman decoder of our own a lever for uploads (issue 42)? Times, in alternating rounds on
# one core, a table-driven entropy decoder of the usual kind (`entropy-probe.c`: every block's
# coefficients of the 3000x2000 photo JPEG, no transform, no colour) against libjpeg-turbo
# decoding the same file as the uploads do (the centre 500 columns at 3/8) and as the decode
# floor does (the whole picture at 4/8). Milliseconds per decode.
# Usage: bench/upload/entropy.sh [REPEATS per measurement, default 20]   ROUNDS=3
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
trap cleanup EXIT
REPEATS=${1:-20}
ROUNDS=${ROUNDS:-3}
need_tool gcc gcc
make_peer_inputs
gcc -O2 -Wall -Wextra -o "$WORK/entropy-probe" "$ROOT/bench/upload/entropy-probe.c" -ljpeg
PHOTO="$INPUTS/photo.jpg"
echo "input: $(stat -c %s "$PHOTO") bytes; $REPEATS decodes per measurement, pinned to one core"
echo
echo "| round | our probe: entropy decoding alone | libjpeg-turbo: 500 columns at 3/8 (the uploads') | libjpeg-turbo: the whole at 4/8 (the floor's) |"
echo "| ---: | ---: | ---: | ---: |"
for round in $(seq "$ROUNDS"); do
  row="| $round |"
  for mode in probe scaled half; do
    row="$row $(taskset -c 0 "$WORK/entropy-probe" "$PHOTO" "$REPEATS" "$mode" | awk '{ print $2 }') ms |"
  done
  echo "$row"
done
