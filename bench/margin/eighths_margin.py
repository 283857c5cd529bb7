"""How sharp libjpeg-turbo's DCT scaling at M/8 is (issue 11): for centre-cropped outputs of
several sizes, the SSIM against the linear-light reference (full decode, Lanczos in linear
light) of the same crop made from a decode at each M/8 (`scaled_decode`, built by run.sh), with
the margin each leaves over the output. Why `FrameGeometry.jpegEighths` keeps 1.3x from 3/8 up
and 1.5x at 2/8 and 1/8.

  eighths_margin.py SCALED_DECODE JPEG SCRATCH_DIR   (run with the quality venv: run.sh)"""

import os
import subprocess
import sys

from PIL import Image

sys.path.insert(0, os.path.dirname(__file__))
from dct_margin import centre_box, linear_resize  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "Tests", "ImagingTests", "Fixtures"))
from framing_quality import ssim  # noqa: E402


def main(tool, source, scratch):
    full = Image.open(source).convert("RGB")
    width, height = full.size
    decoded = {}
    for eighths in range(1, 9):
        path = os.path.join(scratch, f"scaled-{eighths}.ppm")
        subprocess.run([tool, source, str(eighths), path], check=True)
        decoded[eighths] = Image.open(path).convert("RGB")
    print("| output | scale | margin | SSIM |\n| --- | ---: | ---: | ---: |")
    for out_w, out_h in [(400, 600), (300, 450), (200, 300), (400, 400), (300, 300)]:
        box, crop_w = centre_box(width, height, out_w, out_h)
        reference = linear_resize(full, box, (out_w, out_h))
        for eighths, image in decoded.items():
            scale = image.size[0] / width
            margin = crop_w * scale / out_w
            if margin < 1 or margin > 2.6:
                continue
            framed = linear_resize(image, tuple(v * scale for v in box), (out_w, out_h))
            print(f"| {out_w}x{out_h} | {eighths}/8 | {margin:.2f} "
                  f"| {ssim(framed, reference):.4f} |")


if __name__ == "__main__":
    main(*sys.argv[1:4])
