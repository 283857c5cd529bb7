#!/usr/bin/env bash
# Rebuilds every file in testimages/ from the scikit-image sample photographs.
# Needs: libvips-tools (vips 8.14), imagemagick (6.9), libimage-exiftool-perl, python3, pip.
# Usage: bash testimages/make.sh   (from the repository root; writes into testimages/)
# The outputs are committed; CI never runs this script.
set -euo pipefail
out="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
IM=/usr/bin/convert
# No date chunks in PNGs, so that a rebuild gives identical files.
PNGOPT=(-define png:exclude-chunk=date,time)

# The photographs: scikit-image 0.26.0's wheel ships them in skimage/data (see README.md for origins).
pip3 download --quiet --no-deps --only-binary=:all: scikit-image==0.26.0
unzip -q -o scikit_image-0.26.0-*.whl 'skimage/data/*'
d=skimage/data

# --- Real photographs -------------------------------------------------------------------------
vips copy $d/coffee.png "$out/coffee.jpg[Q=90,strip]"  # 600x400 baseline JPEG
cp $d/chelsea.png "$out/chelsea.png"                      # 451x300 RGB PNG
cp $d/rocket.jpg "$out/rocket.jpg"                        # 640x427 JPEG as published
# 1-2 MB photo (also the benchmark input): Hubble eXtreme Deep Field, upscaled 2x with lanczos3.
vips resize $d/hubble_deep_field.jpg hubble2x.v 2 --kernel lanczos3
vips copy hubble2x.v "$out/photo-large.jpg[Q=95,strip]"
# Progressive JPEG.
vips copy $d/chelsea.png "$out/progressive.jpg[Q=85,interlace,strip]"

# --- EXIF orientations 1..8 -------------------------------------------------------------------
# The upright picture is 300x200 (landscape) in four solid quadrants:
#   top-left red, top-right green, bottom-left blue, bottom-right white.
# Each file stores the pixels transformed so that applying its orientation tag gives the upright
# picture back (stored = inverse of the tag's display transform).
$IM -size 150x100 xc:'#ff0000' -size 150x100 xc:'#00ff00' +append top.png
$IM -size 150x100 xc:'#0000ff' -size 150x100 xc:'#ffffff' +append bottom.png
$IM top.png bottom.png -append upright.png
inverse=(none "" "-flop" "-rotate 180" "-flip" "-transpose" "-rotate 270" "-transverse" "-rotate 90")
for o in 1 2 3 4 5 6 7 8; do
  # shellcheck disable=SC2086
  $IM upright.png ${inverse[$o]} -quality 92 "orientation-$o.jpg"
  exiftool -q -overwrite_original -n -Orientation=$o "orientation-$o.jpg"
  cp "orientation-$o.jpg" "$out/"
done

# --- Colour spaces and depths -----------------------------------------------------------------
# CMYK JPEG with its ICC profile (libvips' built-in CMYK profile), and the same pixels without it.
vips icc_export $d/coffee.png "$out/cmyk-icc.jpg[Q=90]" --output-profile cmyk
vips copy "$out/cmyk-icc.jpg" "$out/cmyk-noicc.jpg[Q=90,strip]"
# 16-bit RGBA PNG: chelsea at 16 bits per sample; left half opaque, right half fully transparent.
$IM $d/chelsea.png -depth 16 \( -size 226x300 xc:white -size 225x300 xc:black +append \) \
  -alpha off -compose CopyOpacity -composite -depth 16 "${PNGOPT[@]}" "PNG64:$out/rgba16.png"
# RGBA PNG whose alpha is 255 everywhere: must come out as JPEG.
vips bandjoin_const $d/chelsea.png "$out/opaque-alpha.png" 255
# Grey JPEG (camera man) and grey+alpha PNG (top half opaque, bottom half alpha 0).
vips copy $d/camera.png "$out/grey.jpg[Q=90,strip]"
$IM $d/camera.png \( -size 512x256 xc:white -size 512x256 xc:black -append \) \
  -alpha off -compose CopyOpacity -composite -define png:color-type=4 "${PNGOPT[@]}" "$out/grey-alpha.png"
# Palette PNG with transparency: an orange disc on a transparent background.
$IM -size 200x200 xc:none -fill '#ff8000' -draw 'circle 100,100 100,20' "${PNGOPT[@]}" "PNG8:$out/palette-transparent.png"

# --- Other containers -------------------------------------------------------------------------
# Animated GIF: red first frame, then green and blue frames.
$IM -delay 20 -size 120x80 xc:'#ff0000' xc:'#00ff00' xc:'#0000ff' -loop 0 "$out/animated.gif"
vips copy $d/coffee.png "$out/lossy.webp[Q=80,strip]"
# Lossless WebP with alpha: chelsea inside an opaque disc, fully transparent corners.
$IM $d/chelsea.png \( -size 451x300 xc:black -fill white -draw 'circle 225,150 225,10' \) \
  -alpha off -compose CopyOpacity -composite disc.png
vips copy disc.png "$out/lossless-alpha.webp[lossless,strip]"
vips copy $d/chelsea.png "$out/photo.heic[Q=60,compression=hevc,strip]"
vips copy $d/chelsea.png "$out/photo.avif[Q=60,compression=av1,strip]"

# --- Hostile and broken inputs ----------------------------------------------------------------
python3 - "$out" <<'EOF'
import random, struct, sys, zlib
out = sys.argv[1]

def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

def png(path, width, height, bit_depth, colour_type, idat):
    ihdr = struct.pack(">IIBBBBB", width, height, bit_depth, colour_type, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b""))

# Pixel bomb: a valid 50000x50000 1-bit grey PNG, all black, streamed through zlib (2.5 Gpixel).
w = h = 50000
row = b"\x00" * (1 + w // 8)
z = zlib.compressobj(9)
parts = [z.compress(row * 1000) for _ in range(h // 1000)]
parts.append(z.flush())
png(f"{out}/bomb.png", w, h, 1, 0, b"".join(parts))

# A header that lies: IHDR says 3000x2000 RGB, the IDAT holds ten rows.
png(f"{out}/lying-header.png", 3000, 2000, 8, 2, zlib.compress((b"\x00" + b"\x80" * 9000) * 10))

# 7x5 RGBA, every pixel known: (x*40, y*60, 255-x*30, alpha) with alpha = 255, 128 or 0 by (x+y)%3.
rows = b""
for y in range(5):
    rows += b"\x00" + b"".join(bytes((x * 40, y * 60, 255 - x * 30, (255, 128, 0)[(x + y) % 3])) for x in range(7))
png(f"{out}/tiny-rgba.png", 7, 5, 8, 6, zlib.compress(rows))

# Worst case for the size budget: 400x600 RGBA of uniform noise, alpha noisy too.
rnd = random.Random(42)
rows = b"".join(b"\x00" + bytes(rnd.getrandbits(8) for _ in range(400 * 4)) for _ in range(600))
png(f"{out}/noise-alpha.png", 400, 600, 8, 6, zlib.compress(rows, 9))
EOF
# Truncated JPEG: the first 40% of coffee.jpg.
size=$(stat -c %s "$out/coffee.jpg")
head -c $((size * 4 / 10)) "$out/coffee.jpg" >"$out/truncated.jpg"
: >"$out/empty.jpg"
printf '<!doctype html>\n<html><head><title>Not an image</title></head><body><img src="x.jpg"></body></html>\n' >"$out/page.html"
printf '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect width="100" height="100" fill="#f00"/></svg>\n' >"$out/drawing.svg"
echo "done: $(du -sh "$out" | cut -f1) in $out"
