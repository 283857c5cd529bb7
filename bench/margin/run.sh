#!/usr/bin/env bash
# The SSIM a DCT-scaled JPEG decode keeps at each margin over the output (issue 11): at 1/2, 1/4
# and 1/8 through Pillow's `draft` (dct_margin.py), and at every M/8 through libjpeg-turbo as the
# service decodes (eighths_margin.py, with scaled_decode.c): why framing keeps 1.3x to spare
# (FrameGeometry.shrinkMarginTenths), and 1.5x at 2/8 and 1/8 (coarseScaleMarginTenths).
# Usage: bench/margin/run.sh [JPEG, default testimages/photo-large.jpg]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PYTHON=$("$ROOT/scripts/quality")
SOURCE=${1:-$ROOT/testimages/photo-large.jpg}
SCRATCH=$(mktemp -d)
trap 'rm -rf "$SCRATCH"' EXIT
"$PYTHON" "$ROOT/bench/margin/dct_margin.py" "$SOURCE"
echo
cc -O2 -o "$SCRATCH/scaled_decode" "$ROOT/bench/margin/scaled_decode.c" -ljpeg
"$PYTHON" "$ROOT/bench/margin/eighths_margin.py" "$SCRATCH/scaled_decode" "$SOURCE" "$SCRATCH"
