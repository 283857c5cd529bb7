"""Lossless 8-bit RGBA PNGs in the Python standard library alone (zlib): writing with per-row
adaptive filters, and reading back the PNGs it writes (one IDAT, no interlace).

scripts/import-thumbhash-vectors writes the reference vectors with it; bench/thumbhash/run.sh
reads one back to raw RGBA for the benchmark's input.

Usage as a command: python3 scripts/rgba_png.py IN.png OUT.rgba   (prints WIDTH HEIGHT)
"""
import struct
import sys
import zlib


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def filtered(kind, row, above):
    out = bytearray(len(row))
    for i, x in enumerate(row):
        a = row[i - 4] if i >= 4 else 0
        b = above[i]
        c = above[i - 4] if i >= 4 else 0
        predictor = (0, a, b, (a + b) // 2, paeth(a, b, c))[kind]
        out[i] = (x - predictor) & 0xFF
    return out


def unfiltered(kind, row, above):
    out = bytearray(len(row))
    for i, x in enumerate(row):
        a = out[i - 4] if i >= 4 else 0
        b = above[i]
        c = above[i - 4] if i >= 4 else 0
        predictor = (0, a, b, (a + b) // 2, paeth(a, b, c))[kind]
        out[i] = (x + predictor) & 0xFF
    return out


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))


def png(width, height, rgba):
    stride = width * 4
    above = bytes(stride)
    raw = bytearray()
    for y in range(height):
        row = rgba[y * stride:(y + 1) * stride]
        # The usual heuristic: the filter whose output has the smallest sum of signed bytes.
        best = min(range(5), key=lambda k: sum(v if v < 128 else 256 - v
                                                for v in filtered(k, row, above)))
        raw.append(best)
        raw += filtered(best, row, above)
        above = row
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b""))


def size(data):
    """The width and height in a PNG's IHDR."""
    return struct.unpack(">II", data[16:24])


def decoded(width, data):
    """The RGBA of a PNG that `png` wrote (one IDAT, 8-bit RGBA)."""
    length = struct.unpack(">I", data[33:37])[0]
    raw = zlib.decompress(data[41:41 + length])
    stride = width * 4
    above = bytes(stride)
    out = bytearray()
    for offset in range(0, len(raw), stride + 1):
        row = unfiltered(raw[offset], raw[offset + 1:offset + 1 + stride], above)
        out += row
        above = row
    return bytes(out)



if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    with open(sys.argv[1], "rb") as f:
        data = f.read()
    width, height = size(data)
    with open(sys.argv[2], "wb") as f:
        f.write(decoded(width, data))
    print(width, height)
