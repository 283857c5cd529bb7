#!/usr/bin/env python3
"""Rebuilds the hostile fixtures in this folder from the ordinary test images (see README.md).

Needs python3, a C compiler, libjpeg's headers (libjpeg62-turbo-dev), libvips' `vips`
(libvips-tools 8.14) and cjpeg (libjpeg-turbo-progs). The outputs are committed; CI never runs
this. Usage: python3 testimages/hostile/make.py
"""
import os
import struct
import subprocess
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
IMAGES = os.path.dirname(HERE)


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as out:
        out.write(data)


def read(name):
    with open(os.path.join(IMAGES, name), "rb") as source:
        return source.read()


def scan_start(jpeg):
    """Offset of the entropy-coded data: just past the first SOS segment."""
    offset = 2
    while offset < len(jpeg):
        marker = jpeg[offset + 1]
        length = struct.unpack(">H", jpeg[offset + 2:offset + 4])[0]
        if marker == 0xDA:
            return offset + 2 + length
        offset += 2 + length
    raise ValueError("no SOS")


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


# JPEGs of components in no colour space (2 is the one that killed the service; 3 and 4 are
# neither YCbCr nor CMYK; libjpeg-turbo writes at most 4).
with tempfile.TemporaryDirectory() as work:
    tool = os.path.join(work, "components")
    subprocess.run(["cc", "-O1", "-o", tool, os.path.join(HERE, "components.c"), "-ljpeg"],
                   check=True)
    for count, size in ((2, (300, 200)), (3, (300, 200)), (4, (300, 200))):
        subprocess.run([tool, str(count), str(size[0]), str(size[1]),
                        os.path.join(HERE, f"components-{count}.jpg")], check=True)

# Damaged JPEGs: what libjpeg fills with grey when left to itself.
photo = read("coffee.jpg")
start = scan_start(photo)
body = photo[:-2]  # without its EOI
for percent in (40, 80):
    cut = len(body) * percent // 100
    write(f"cut-{percent}-with-eoi.jpg", body[:cut] + b"\xff\xd9")
middle = start + (len(body) - start) // 2
write("middle-cut.jpg", photo[:middle] + photo[middle + 2048:])
flipped = bytearray(photo)
# Eight bytes in the middle of the scan, inverted (no 0xFF made, so no marker appears).
for position in range(middle, middle + 8):
    flipped[position] = (~flipped[position] & 0xFF) if flipped[position] != 0x00 else 0x11
write("flipped-scan.jpg", bytes(flipped))
# The same damage in a JPEG with an ICC profile (rocket.jpg), which libvips decodes.
rocket = read("rocket.jpg")
rocket_start = scan_start(rocket)
rocket_body = rocket[:-2]
write("icc-cut-with-eoi.jpg", rocket_body[:len(rocket_body) * 60 // 100] + b"\xff\xd9")
rocket_middle = rocket_start + (len(rocket_body) - rocket_start) // 2
inverted = bytearray(rocket)
for position in range(rocket_middle, rocket_middle + 8):
    inverted[position] = (~inverted[position] & 0xFF) if inverted[position] != 0x00 else 0x11
write("icc-flipped-scan.jpg", bytes(inverted))
# Stray bytes before the scan's marker (libjpeg warns, the picture is whole): must frame.
offset = 2
while photo[offset + 1] != 0xDA:
    offset += 2 + struct.unpack(">H", photo[offset + 2:offset + 4])[0]
write("stray-before-scan.jpg", photo[:offset] + b"\x00\x00\x00\x00" + photo[offset:])

# A PNG of 10x10 pixels carrying 19 zTXt chunks that each inflate to 100 MB.
pixels = b"".join(b"\x00" + bytes([x * 20, 100, 200 - x * 20] * 10) for x in range(10))
ihdr = png_chunk(b"IHDR", struct.pack(">IIBBBBB", 10, 10, 8, 2, 0, 0, 0))
idat = png_chunk(b"IDAT", zlib.compress(pixels))
bomb = zlib.compress(b"\x00" * 100_000_000, 9)
text = b"".join(png_chunk(b"zTXt", b"Comment%d\x00\x00" % i + bomb) for i in range(19))
write("ztxt-bomb.png", b"\x89PNG\r\n\x1a\n" + ihdr + text + idat + png_chunk(b"IEND", b""))
# The same pixels with an ICC profile that inflates to 64 MB.
profile = png_chunk(b"iCCP", b"bomb\x00\x00" + zlib.compress(b"\x00" * 64_000_000, 9))
write("iccp-bomb.png", b"\x89PNG\r\n\x1a\n" + ihdr + profile + idat + png_chunk(b"IEND", b""))
# A PNG cut in its pixel data with IEND appended.
chelsea = read("chelsea.png")
write("png-cut-with-iend.png", chelsea[:len(chelsea) // 2] + png_chunk(b"IEND", b""))
# A large, flat PNG: 8000x5000 pixels (40 MP, the default limit) in a few kilobytes; framing it
# as a poster decodes the whole picture (120 MB), past a small worker memory limit.
row = b"\x00" + bytes((x * 255 // 8000) for x in range(8000)) * 3
large = zlib.compress(row * 5000, 9)
write("large-flat.png", b"\x89PNG\r\n\x1a\n"
      + png_chunk(b"IHDR", struct.pack(">IIBBBBB", 8000, 5000, 8, 2, 0, 0, 0))
      + png_chunk(b"IDAT", large) + png_chunk(b"IEND", b""))
# A 30000x30000 black 1-bit PNG of 110 kB: under a raised ARTWORK_MAX_PIXELS, work that runs
# past any short deadline.
black = b"\x00" + b"\x00" * (30000 // 8)
write("bomb-30k.png", b"\x89PNG\r\n\x1a\n"
      + png_chunk(b"IHDR", struct.pack(">IIBBBBB", 30000, 30000, 1, 0, 0, 0, 0))
      + png_chunk(b"IDAT", zlib.compress(black * 30000, 9)) + png_chunk(b"IEND", b""))
# A WebP and a GIF cut short.
lossy = read("lossy.webp")
write("webp-cut.webp", lossy[:len(lossy) * 6 // 10])
gif = read("animated.gif")
write("gif-cut.gif", gif[:len(gif) // 2] + b"\x3b")

# Strips of extreme aspect ratios, each side at its format's largest (GIF and PNG 65535, JPEG
# 65500, WebP 16383): a grey ramp along the length, black to white, with a red band over its
# second and third eighths (where an attention crop goes; the middle is grey). One PNG has alpha
# 160 everywhere (real transparency: the libvips thumbnail path).
def strip(name, width, height, alpha=None):
    length = max(width, height)

    def colour(i):
        if length // 8 <= i < 3 * length // 8:
            return (220, 30, 30)
        grey = i * 255 // (length - 1)
        return (grey, grey, grey)

    bands = 3 if alpha is None else 4
    pixels = bytearray()
    for y in range(height):
        for x in range(width):
            pixels += bytes(colour(x if width >= height else y))
            if alpha is not None:
                pixels.append(alpha)
    with tempfile.TemporaryDirectory() as work:
        data, raw = os.path.join(work, "strip.raw"), os.path.join(work, "strip.v")
        with open(data, "wb") as out:
            out.write(pixels)
        subprocess.run(["vips", "rawload", data, raw, str(width), str(height), str(bands)],
                       check=True)
        options = {".jpg": "[Q=90,strip]", ".webp": "[Q=90,strip]", ".png": "[strip]",
                   ".gif": "[dither=0]"}[os.path.splitext(name)[1]]
        subprocess.run(["vips", "copy", raw, os.path.join(HERE, name) + options], check=True)


for name, width, height in (("strip-65535x1.gif", 65535, 1), ("strip-1x65535.gif", 1, 65535),
                            ("strip-20000x10.gif", 20000, 10),
                            ("strip-65535x1.png", 65535, 1), ("strip-1x65535.png", 1, 65535),
                            ("strip-20000x10.png", 20000, 10),
                            ("strip-65500x1.jpg", 65500, 1), ("strip-1x65500.jpg", 1, 65500),
                            ("strip-20000x10.jpg", 20000, 10),
                            ("strip-16383x1.webp", 16383, 1), ("strip-1x16383.webp", 1, 16383),
                            ("strip-16383x10.webp", 16383, 10)):
    strip(name, width, height)
strip("strip-20000x10-alpha.png", 20000, 10, alpha=160)

# Variants the decoders read, which the header checks must let pass: an arithmetic-coded JPEG
# (libjpeg-turbo-progs' cjpeg), an animated WebP (animated.gif's three frames) and a 10-bit HEIC.
with tempfile.TemporaryDirectory() as work:
    ppm = os.path.join(work, "chelsea.ppm")
    subprocess.run(["vips", "copy", os.path.join(IMAGES, "chelsea.png"), ppm], check=True)
    with open(os.path.join(HERE, "arithmetic.jpg"), "wb") as out:
        subprocess.run(["cjpeg", "-arithmetic", "-quality", "80", ppm], stdout=out, check=True)
subprocess.run(["vips", "copy", os.path.join(IMAGES, "animated.gif") + "[n=-1]",
                os.path.join(HERE, "animated.webp") + "[lossless,strip]"], check=True)
subprocess.run(["vips", "copy", os.path.join(IMAGES, "chelsea.png"),
                os.path.join(HERE, "10-bit.heic") + "[bitdepth=10,Q=50,strip]"], check=True)
