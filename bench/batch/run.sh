#!/usr/bin/env bash
# Batch CLI against the service (issue 14): 200 distinct 1-2 MB JPEG photos to 400x600 posters,
# once through `artwork process --jobs N` (one process, every input) and once through
# `POST /v1/artwork` at concurrency 4 (release builds, default workers = cores), in one run.
# Usage: bench/batch/run.sh [COUNT, default 200]
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
trap cleanup EXIT
COUNT=${1:-200}
JOBS=$(nproc)

build_release
need_tool vips libvips-tools
# Distinct photos: crops of the test photo at COUNT offsets (each its own bytes and output).
BATCH="$ROOT/bench/out/batch-photos"
mkdir -p "$BATCH"
src="$ROOT/testimages/photo-large.jpg"
for i in $(seq 0 $((COUNT - 1))); do
  f="$BATCH/b$i.jpg"
  [ -s "$f" ] || vips crop "$src" "$f[Q=97]" $((i % 20 * 10)) $((i / 20 * 10)) 1800 1544
done
ARGS=()
for i in $(seq 0 $((COUNT - 1))); do ARGS+=(--body "$BATCH/b$i.jpg"); done
echo "photos: $COUNT, $(du -sm "$BATCH" | cut -f1) MB; jobs $JOBS"

# Alternating rounds, so that load from other processes on this shared machine falls on both.
ROUNDS=${ROUNDS:-2}
CLI=(); HTTP=()
for round in $(seq "$ROUNDS"); do
  # 1. The CLI, every input in one process.
  rm -rf "$WORK/cli-out" "$WORK/cli.jsonl"
  start=$(date +%s.%N)
  "$ARTWORK" process "$BATCH" --shape poster --size 400 --jobs "$JOBS" --out "$WORK/cli-out" \
    --jsonl "$WORK/cli.jsonl" --progress never 2>"$WORK/cli.err"
  end=$(date +%s.%N)
  ok=$(grep -c '"ok":true' "$WORK/cli.jsonl")
  [ "$ok" = "$COUNT" ] || { echo "CLI: $ok of $COUNT ok" >&2; cat "$WORK/cli.err" >&2; exit 1; }
  CLI+=("$(python3 -c "print(f'{$COUNT / ($end - $start):.2f}')")")
  echo "round $round cli:  ${CLI[-1]} img/s"

  # 2. The service, the same photos, each once, at concurrency 4, on fresh storage.
  start_service ARTWORK_STORAGE="$WORK/store-$round"
  HTTP+=("$("$BENCH" load --port "$PORT" --method POST --path '/v1/artwork?shape=poster&size=400' \
    --content-type image/jpeg "${ARGS[@]}" --concurrency 4 --max-requests "$COUNT" --seconds 600)")
  stop_service
  echo "round $round http: ${HTTP[-1]}"
done

python3 - "${CLI[*]}" "${HTTP[@]}" <<'PY'
import json, sys
clis = [float(x) for x in sys.argv[1].split()]
https = [json.loads(x) for x in sys.argv[2:]]
for http in https:
    assert http["failures"] == 0 and http["statuses"].startswith("201x") and "," not in http["statuses"], http
print()
print("| round | `artwork process --jobs N` (img/s) | `POST /v1/artwork`, concurrency 4 (img/s) | ratio (target >= 0.95) |")
print("| ---: | ---: | ---: | ---: |")
for i, (cli, http) in enumerate(zip(clis, https), 1):
    print(f"| {i} | {cli:.2f} | {http['rate']:.2f} | {cli / http['rate']:.2f} |")
print(f"| all | {sum(clis) / len(clis):.2f} | {sum(h['rate'] for h in https) / len(https):.2f} "
      f"| {sum(clis) / sum(h['rate'] for h in https):.2f} |")
PY
