#!/usr/bin/env bash
# Uploads through worker processes (issue 20): 1-2 MB JPEG photos -> 400x600 poster, POSTed to
# `artwork serve` (release, default workers = cores), this build ("this") against COMPARE_WITH
# ("other"; for issue 20, the build before image work moved to workers, the in-process build) in
# the same run, in alternating rounds; at each concurrency: images/s, median and p99 latency; and,
# at the highest concurrency, the peak resident memory of the service and all its worker
# processes together (sampled every 50 ms) and the sum of their own peaks.
# Usage: COMPARE_WITH=/path/to/other/artwork bench/workers/run.sh [SECONDS per run, default 15]
#   ROUNDS (default 2), CONCURRENCIES (default "4 32").
# Both builds run with ARTWORK_QUEUE=64 (de9b267's default; later builds default to 16 and
# answer 503 past 18 uploads at once): a like-for-like queue, so every upload is a 201 and
# the rates compare the same work. SERVICE_ENV adds settings to both.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
trap cleanup EXIT
SECS=${1:-15}
ROUNDS=${ROUNDS:-2}
CONCURRENCIES=${CONCURRENCIES:-"4 32"}
: "${COMPARE_WITH:?set COMPARE_WITH to the artwork binary to compare with}"

build_release
make_photos
echo "photos: $(ls -l "$PHOTOS"/p?.jpg | awk '{ printf "%s ", $5 }')bytes; workers $(nproc); ${SECS}s per run, $ROUNDS rounds"
BUILDS=("$ARTWORK" "$COMPARE_WITH")
RESULTS="$WORK/results.jsonl"
: >"$RESULTS"
for round in $(seq "$ROUNDS"); do
  # The order alternates (0 1, 1 0, ...): a build that always ran first would always meet the
  # machine in the same state.
  order="0 1"
  [ $((round % 2)) = 1 ] || order="1 0"
  for build in $order; do
    ARTWORK=${BUILDS[$build]} start_service ARTWORK_STORAGE="$WORK/store-$build-$round" ARTWORK_QUEUE=64 \
      ${SERVICE_ENV:-}
    "$ROOT/bench/lib/rss-sampler.py" "$SERVICE_PID" 0.05 >"$WORK/rss.json" &
    SAMPLER=$!
    for c in $CONCURRENCIES; do
      cpu_before=$("$ROOT/bench/lib/tree-cpu.py" "$SERVICE_PID")
      result=$("$BENCH" load --port "$PORT" --method POST \
        --path '/v1/artwork?shape=poster&size=400' --content-type image/jpeg "${PHOTO_ARGS[@]}" \
        --concurrency "$c" --seconds "$SECS")
      cpu=$(python3 -c "print(round($("$ROOT/bench/lib/tree-cpu.py" "$SERVICE_PID") - $cpu_before, 2))")
      echo "round $round build $build c=$c: cpu ${cpu}s $result"
      echo "{\"round\": $round, \"build\": $build, \"c\": $c, \"cpu\": $cpu, \"load\": $result}" >>"$RESULTS"
    done
    kill -TERM "$SAMPLER"
    wait "$SAMPLER" || true
    echo "round $round build $build memory: $(cat "$WORK/rss.json")"
    echo "{\"round\": $round, \"build\": $build, \"memory\": $(cat "$WORK/rss.json")}" >>"$RESULTS"
    stop_service
  done
done

python3 - "$RESULTS" <<'PY'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
loads = [r for r in rows if "load" in r]
for r in loads:
    assert r["load"]["failures"] == 0 and r["load"]["statuses"] == f"201x{r['load']['requests']}", r
print()
# "this" is this tree's build; "other" is COMPARE_WITH (the in-process build, for issue 20).
print("| concurrency | this (img/s) | other (img/s) | ratio | p50 this / other (ms) | p99 this / other (ms) | CPU per image, this / other (ms) |")
print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for c in sorted({r["c"] for r in loads}):
    def pick(build, key):
        return [r["load"][key] for r in loads if r["c"] == c and r["build"] == build]
    rate = [statistics.mean(pick(b, "rate")) for b in (0, 1)]
    p50 = [statistics.median(pick(b, "p50_ms")) for b in (0, 1)]
    p99 = [statistics.median(pick(b, "p99_ms")) for b in (0, 1)]
    # CPU seconds of the service and its workers over the run, per image answered.
    cpu = [1000 * sum(r["cpu"] for r in loads if r["c"] == c and r["build"] == b)
           / sum(pick(b, "requests")) for b in (0, 1)]
    print(f"| {c} | {rate[0]:.1f} | {rate[1]:.1f} | {rate[0] / rate[1]:.2f} | {p50[0]:.0f} / {p50[1]:.0f} | {p99[0]:.0f} / {p99[1]:.0f} | {cpu[0]:.1f} / {cpu[1]:.1f} |")
print()
print("| build | peak RSS, all processes at once (MB) | sum of each process's peak (MB) | processes |")
print("| --- | ---: | ---: | ---: |")
for b, name in ((0, "this"), (1, "other")):
    mem = [r["memory"] for r in rows if "memory" in r and r["build"] == b]
    print(f"| {name} | {max(m['peak_total_mb'] for m in mem)} | {max(m['sum_of_peaks_mb'] for m in mem)} | {max(m['processes'] for m in mem)} |")
PY
