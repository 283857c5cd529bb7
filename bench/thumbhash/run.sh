#!/usr/bin/env bash
# ThumbHash speed, side by side, in one run on the same input:
#   ThumbHashCodec (Swift, release build)  vs  PyPI thumbhash-rs (Rust via PyO3)
#   vs  PyPI thumbhash-python (pure Python).
# Input: the 100x100 photo 0409_photo_astronaut_100x100 from the public ThumbHash vectors
# (Tests/ThumbHashCodecTests/Vectors, turned back into raw RGBA under bench/out/; override with
# INPUT=file.rgba W=.. H=..).
# Each implementation encodes that image, then decodes the hash, repeatedly for SECONDS each, in
# batches of about 50 ms; the table shows the fastest batch (like timeit's minimum: load from
# other processes only slows a batch) and the ratios line also compares the means.
# The two Python packages both install a module named `thumbhash`, so each gets its own venv
# under bench/out/ (gitignored). Usage: bench/thumbhash/run.sh [SECONDS]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$root/bench/out"
seconds="${1:-3}"
mkdir -p "$out"
if [ -z "${INPUT:-}" ]; then
  INPUT="$out/0409_photo_astronaut_100x100.rgba"
  python3 "$root/scripts/rgba_png.py" \
    "$root/Tests/ThumbHashCodecTests/Vectors/png/0409_photo_astronaut_100x100.png" "$INPUT" >/dev/null
fi
input="$INPUT"
width="${W:-100}"
height="${H:-100}"

for impl in rs python; do
  venv="$out/venv-$impl"
  if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "thumbhash-$impl" >&2
  fi
done

cd "$root"
swift build -c release --product thumbhash-bench >&2
swift_json="$(swift run -c release thumbhash-bench --input "$input" --width "$width" \
  --height "$height" --seconds "$seconds" --dump-decoded "$out/swift-decoded.rgba")"
rs_json="$("$out/venv-rs/bin/python" "$here/bench.py" rs "$input" "$width" "$height" "$seconds")"
py_json="$("$out/venv-python/bin/python" "$here/bench.py" python "$input" "$width" "$height" \
  "$(python3 -c "print(min(float('$seconds'), 3))")")"

python3 - "$swift_json" "$rs_json" "$py_json" "$out/swift-decoded.rgba" <<'PY'
import hashlib, json, sys
swift, rs, py = (json.loads(a) for a in sys.argv[1:4])
with open(sys.argv[4], "rb") as f:
    swift["decoded_sha256"] = hashlib.sha256(f.read()).hexdigest()
print(f"{'implementation':<28}{'encodes/s':>12}{'decodes/s':>12}  same hash  same pixels")
for name, r in (("ThumbHashCodec (Swift)", swift), ("thumbhash-rs (Rust/PyO3)", rs),
                ("thumbhash-python (pure)", py)):
    print(f"{name:<28}{r['encode_per_s']:>12.1f}{r['decode_per_s']:>12.1f}"
          f"  {str(r['hash'] == swift['hash']):<9}  {r['decoded_sha256'] == swift['decoded_sha256']}")
print(f"Swift / Rust:   encode {swift['encode_per_s'] / rs['encode_per_s']:.1f}x, "
      f"decode {swift['decode_per_s'] / rs['decode_per_s']:.1f}x   (fastest batches)")
print(f"                encode {swift['encode_mean_per_s'] / rs['encode_mean_per_s']:.1f}x, "
      f"decode {swift['decode_mean_per_s'] / rs['decode_mean_per_s']:.1f}x   (means)")
print(f"Swift / Python: encode {swift['encode_per_s'] / py['encode_per_s']:.0f}x, "
      f"decode {swift['decode_per_s'] / py['decode_per_s']:.0f}x")
PY
