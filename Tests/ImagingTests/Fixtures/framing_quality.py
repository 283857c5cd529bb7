"""The framing quality check: references made from the full-resolution decode in linear light,
and SSIM (scikit-image) against them.

  framing_quality.py inputs DIR
      writes the test photos (landscape and portrait JPEG, WebP, PNG, HEIC, HEIC with an
      embedded thumbnail) made from
      testimages/photo-large.jpg into DIR, and prints their names as JSON.
  framing_quality.py score SOURCE X Y W H FRAMED.png NEW.jpg OLD.jpg QUALITY
      the reference: SOURCE decoded at full size, upright, converted to linear light, the region
      (X, Y, W, H) in source pixels resized with Lanczos to FRAMED's size, back to sRGB.
      Prints SSIM of FRAMED (the framed picture before encoding) against it, and of NEW and OLD
      (the stored JPEGs of the new and of the previous framing path) against the reference
      encoded the same way (JPEG at QUALITY), so that like is compared with like."""

import io
import json
import os
import sys

import numpy as np
import pillow_heif
from PIL import Image, ImageOps
from skimage.metrics import structural_similarity

pillow_heif.register_heif_opener()


def to_linear(srgb):
    c = srgb / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def to_srgb(linear):
    c = np.clip(linear, 0.0, 1.0)
    return np.where(c <= 0.0031308, c * 12.92, 1.055 * c ** (1 / 2.4) - 0.055) * 255.0


def reference(source, box, size):
    image = ImageOps.exif_transpose(Image.open(source)).convert("RGB")
    linear = to_linear(np.asarray(image, dtype=np.float64))
    channels = []
    for band in range(3):
        plane = Image.fromarray(linear[:, :, band].astype(np.float32), mode="F")
        channels.append(np.asarray(plane.resize(size, Image.LANCZOS, box=box), dtype=np.float64))
    return np.clip(np.round(to_srgb(np.stack(channels, axis=2))), 0, 255).astype(np.uint8)


def ssim(a, b):
    return float(structural_similarity(a, b, channel_axis=2, data_range=255))


def rgb(path):
    return np.asarray(Image.open(path).convert("RGB"))


def inputs(directory):
    root = os.path.join(os.path.dirname(__file__), "..", "..", "..")
    photo = Image.open(os.path.join(root, "testimages", "photo-large.jpg")).convert("RGB")
    made = {}
    made["landscape.jpg"] = lambda p: photo.save(p, quality=95)
    made["portrait.jpg"] = lambda p: photo.rotate(90, expand=True).save(p, quality=95)
    made["photo.webp"] = lambda p: photo.save(p, quality=92)
    made["photo.png"] = lambda p: photo.resize((1000, 872), Image.LANCZOS).save(p)
    made["photo.heic"] = lambda p: photo.save(p, format="HEIF", quality=90)
    # With an embedded 1000x872 thumbnail, as cameras and phones write them.
    made["thumbnailed.heic"] = lambda p: photo.save(p, format="HEIF", quality=90, thumbnails=[1000])
    for name, write in made.items():
        write(os.path.join(directory, name))
    print(json.dumps(sorted(made)))


def score(source, x, y, w, h, framed, new, old, quality):
    ours = rgb(framed)
    size = (ours.shape[1], ours.shape[0])
    ref = reference(source, (x, y, x + w, y + h), size)
    encoded = io.BytesIO()
    Image.fromarray(ref).save(encoded, format="JPEG", quality=quality)
    ref_jpeg = np.asarray(Image.open(io.BytesIO(encoded.getvalue())).convert("RGB"))
    print(json.dumps({
        "framed": ssim(ours, ref),
        "stored_new": ssim(rgb(new), ref_jpeg),
        "stored_old": ssim(rgb(old), ref_jpeg),
    }))


if __name__ == "__main__":
    if sys.argv[1] == "inputs":
        inputs(sys.argv[2])
    else:
        a = sys.argv[2:]
        score(a[0], float(a[1]), float(a[2]), float(a[3]), float(a[4]), a[5], a[6], a[7], int(a[8]))
