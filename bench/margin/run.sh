#!/usr/bin/env bash
# The SSIM a DCT-scaled JPEG decode keeps at each margin over the output (issue 11): why framing
# keeps 1.3x to spare (FrameGeometry.shrinkMarginTenths).
# Usage: bench/margin/run.sh [JPEG, default testimages/photo-large.jpg]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PYTHON=$("$ROOT/scripts/quality")
"$PYTHON" "$ROOT/bench/margin/dct_margin.py" "${1:-$ROOT/testimages/photo-large.jpg}"
