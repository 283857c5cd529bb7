#!/usr/bin/env python3
"""Encodes/decodes per second for a Python ThumbHash implementation on one RGBA image.

Usage: bench.py {rs|python} INPUT.rgba WIDTH HEIGHT SECONDS
  rs      PyPI thumbhash-rs (Rust via PyO3): thumbhash.rgba_to_thumb_hash(w, h, bytes) -> bytes,
          thumbhash.thumb_hash_to_rgba(bytes) -> (w, h, bytes)
  python  PyPI thumbhash-python (pure Python): thumbhash.encode.rgba_to_thumbhash(w, h, seq)
          -> bytes, thumbhash.decode.thumbhash_to_rgba(bytes) -> (w, h, list)
Both packages install a module named `thumbhash`, so each runs from its own virtualenv.
Prints one JSON object like thumbhash-bench does (fastest-batch rates plus means).
"""
import base64
import hashlib
import json
import sys
import time


def rate(seconds, body):
    """Calls per second: (fastest ~50 ms batch, mean over all batches), as thumbhash-bench."""
    for _ in range(3):  # warm-up
        body()
    batch = 1
    while True:
        start = time.perf_counter()
        for _ in range(batch):
            body()
        if time.perf_counter() - start >= 0.05:
            break
        batch *= 2
    best, calls = 0.0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        batch_start = time.perf_counter()
        for _ in range(batch):
            body()
        best = max(best, batch / (time.perf_counter() - batch_start))
        calls += batch
    return best, calls / (time.perf_counter() - start)


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
    encode_best, encode_mean = rate(seconds, encode)
    decode_best, decode_mean = rate(seconds, decode)
    result = {
        "impl": impl,
        "encode_per_s": round(encode_best, 1),
        "decode_per_s": round(decode_best, 1),
        "encode_mean_per_s": round(encode_mean, 1),
        "decode_mean_per_s": round(decode_mean, 1),
        "hash": base64.b64encode(hash_bytes).decode(),
        "decoded_sha256": hashlib.sha256(bytes(decoded)).hexdigest(),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
