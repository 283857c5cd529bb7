#!/usr/bin/env python3
"""Encodes/decodes per second for a Python ThumbHash implementation on one RGBA image.

Usage: bench.py {rs|python} INPUT.rgba WIDTH HEIGHT SECONDS
  rs      PyPI thumbhash-rs (Rust via PyO3): thumbhash.rgba_to_thumb_hash(w, h, bytes) -> bytes,
          thumbhash.thumb_hash_to_rgba(bytes) -> (w, h, bytes)
  python  PyPI thumbhash-python (pure Python): thumbhash.encode.rgba_to_thumbhash(w, h, seq)
          -> bytes, thumbhash.decode.thumbhash_to_rgba(bytes) -> (w, h, list)
Both packages install a module named `thumbhash`, so each runs from its own virtualenv.
Prints one JSON object like thumbhash-bench does.
"""
import base64
import hashlib
import json
import sys
import time


def rate(seconds, body):
    for _ in range(3):  # warm-up
        body()
    calls = 0
    start = time.perf_counter()
    while True:
        body()
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return calls / elapsed


def main():
    impl, path, width, height, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
    with open(path, "rb") as f:
        rgba = f.read()
    if impl == "rs":
        import thumbhash

        encode = lambda: thumbhash.rgba_to_thumb_hash(width, height, rgba)
        hash_bytes = encode()
        decode = lambda: thumbhash.thumb_hash_to_rgba(hash_bytes)
    elif impl == "python":
        from thumbhash.decode import thumbhash_to_rgba
        from thumbhash.encode import rgba_to_thumbhash

        pixels = list(rgba)
        encode = lambda: rgba_to_thumbhash(width, height, pixels)
        hash_bytes = bytes(encode())
        decode = lambda: thumbhash_to_rgba(hash_bytes)
    else:
        sys.exit(f"unknown implementation {impl}")
    _, _, decoded = decode()
    result = {
        "impl": impl,
        "encode_per_s": round(rate(seconds, encode), 1),
        "decode_per_s": round(rate(seconds, decode), 1),
        "hash": base64.b64encode(hash_bytes).decode(),
        "decoded_sha256": hashlib.sha256(bytes(decoded)).hexdigest(),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
