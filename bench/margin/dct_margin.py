"""How soft a JPEG decoded by DCT scaling is (issue 11): for centre-cropped outputs of several
sizes, the SSIM against the linear-light reference (full decode, Lanczos in linear light) of the
same crop made from a decode at 1/2, 1/4 and 1/8 (Pillow's `draft`, which is libjpeg's DCT
scaling), with the margin each leaves over the output (decoded crop width / output width).

  dct_margin.py JPEG     (run with the quality venv: bench/margin/run.sh JPEG)"""

import os
import sys

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "Tests", "ImagingTests", "Fixtures"))
from framing_quality import ssim, to_linear, to_srgb  # noqa: E402


def linear_resize(image, box, size):
    linear = to_linear(np.asarray(image, dtype=np.float64))
    planes = [np.asarray(Image.fromarray(linear[:, :, b].astype(np.float32), mode="F")
                         .resize(size, Image.LANCZOS, box=box), dtype=np.float64) for b in range(3)]
    return np.clip(np.round(to_srgb(np.stack(planes, axis=2))), 0, 255).astype(np.uint8)


def centre_box(width, height, out_w, out_h):
    """The centre crop of a width x height picture framed as out_w x out_h, and its width."""
    if width * out_h >= height * out_w:
        crop_w, crop_h = height * out_w / out_h, height
    else:
        crop_w, crop_h = width, width * out_h / out_w
    return ((width - crop_w) / 2, (height - crop_h) / 2, (width + crop_w) / 2,
            (height + crop_h) / 2), crop_w


def main(source):
    full = Image.open(source).convert("RGB")
    width, height = full.size
    print("| output | shrink | margin | SSIM |\n| --- | ---: | ---: | ---: |")
    for out_w, out_h in [(400, 600), (300, 450), (280, 420), (250, 375), (400, 400), (350, 350),
                         (300, 300)]:
        box, crop_w = centre_box(width, height, out_w, out_h)
        reference = linear_resize(full, box, (out_w, out_h))
        for shrink in (2, 4, 8):
            image = Image.open(source)
            image.draft("RGB", ((width + shrink - 1) // shrink, (height + shrink - 1) // shrink))
            image = image.convert("RGB")
            if image.size[0] != (width + shrink - 1) // shrink:
                continue
            scale = image.size[0] / width
            margin = crop_w * scale / out_w
            if margin < 1:
                continue
            framed = linear_resize(image, tuple(v * scale for v in box), (out_w, out_h))
            print(f"| {out_w}x{out_h} | 1/{shrink} | {margin:.2f} | {ssim(framed, reference):.4f} |")


if __name__ == "__main__":
    main(sys.argv[1])
