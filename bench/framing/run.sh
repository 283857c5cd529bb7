#!/usr/bin/env bash
# Framing cost (issue 11): CPU seconds per 400x600 poster of 1-2 MB JPEG photos, in process
# (`artwork-bench ceiling`, one worker, no HTTP, no storage), for each crop, this build against
# COMPARE_WITH (another artwork-bench, e.g. built from an earlier commit), in alternating rounds.
# CPU time rather than wall time: this machine is shared, and another process's load stretches
# wall time far more than it changes the CPU a job needs.
# Usage: COMPARE_WITH=/path/to/old/artwork-bench bench/framing/run.sh [IMAGES per run, default 40]
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
trap cleanup EXIT
COUNT=${1:-40}
ROUNDS=${ROUNDS:-3}
build_release
make_photos
BUILDS=("$BENCH" ${COMPARE_WITH:-})
declare -A CPU
for round in $(seq "$ROUNDS"); do
  for index in "${!BUILDS[@]}"; do
    for crop in centre attention; do
      seconds=$( { /usr/bin/time -f "%U %S" "${BUILDS[$index]}" ceiling "${PHOTO_ARGS[@]}" \
        --workers 1 --concurrency 1 --seconds 600 --max-requests "$COUNT" --shape poster \
        --size 400 --crop "$crop" >/dev/null; } 2>&1 | tail -1 | awk '{ print $1 + $2 }')
      CPU[$index,$crop]="${CPU[$index,$crop]:-} $seconds"
      echo "round $round build $index $crop: $seconds s for $COUNT"
    done
  done
done
echo
echo "| build | crop | CPU ms per poster (each round) | mean | against build 0 |"
echo "| ---: | --- | --- | ---: | ---: |"
for crop in centre attention; do
  base=$(echo ${CPU[0,$crop]} | awk -v n="$COUNT" '{ s = 0; for (i = 1; i <= NF; i++) s += $i; print s / NF / n * 1000 }')
  for index in "${!BUILDS[@]}"; do
    python3 - "$index" "$crop" "$COUNT" "$base" ${CPU[$index,$crop]} <<'PY'
import sys
index, crop, count, base = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
ms = [float(x) / count * 1000 for x in sys.argv[5:]]
mean = sum(ms) / len(ms)
print(f"| {index} | {crop} | {' / '.join(f'{m:.1f}' for m in ms)} | {mean:.1f} | {mean / base:.2f}x |")
PY
  done
done
