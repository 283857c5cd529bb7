#!/usr/bin/env python3
"""Stores N distinct 400x600 posters through the service's own `POST /v1/artwork` and writes the
hosted path of each (`/v1/images/<id>.jpg`, one a line, in poster order) to OUT.

Each source is a 400x600 PNG of colour noise made in memory from the seed and the poster's
number alone (Python's `random.Random`, no other package): the same seed gives the same sources,
so the same stored JPEGs and the same ids, run after run. The noise's amplitude (AMPLITUDE, 0-1)
sets the stored size: 0.85 gives about 140 KB a poster at the service's defaults. Uploads run on
CONNECTIONS keep-alive connections at once; a 503 or 429 (queue full, rate) is retried after a
pause. Prints one JSON line: posters stored, stored bytes (mean, min, max), seconds.

Usage: make_posters.py PORT N SEED CONNECTIONS OUT [AMPLITUDE]
"""
import http.client
import json
import random
import struct
import sys
import threading
import time
import zlib

WIDTH, HEIGHT = 400, 600


def png(width, height, rgb):
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    row = width * 3
    raw = b"".join(b"\x00" + rgb[y * row:(y + 1) * row] for y in range(height))
    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 1)) + chunk(b"IEND", b""))


def source(seed, number, amplitude):
    """Poster NUMBER's source: noise around a level of its own, every channel independent."""
    rng = random.Random(seed * 1_000_003 + number)
    level = rng.randrange(70, 186)
    table = bytes(max(0, min(255, round(level + (b - 128) * amplitude))) for b in range(256))
    return png(WIDTH, HEIGHT, rng.randbytes(WIDTH * HEIGHT * 3).translate(table))


def main():
    port, count, seed, connections, out = (int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]),
                                           int(sys.argv[4]), sys.argv[5])
    amplitude = float(sys.argv[6]) if len(sys.argv) > 6 else 0.85
    paths = [None] * count
    stored = [0] * count
    next_number = iter(range(count))
    lock = threading.Lock()
    failures = []

    def uploader():
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        while True:
            with lock:
                number = next(next_number, None)
            if number is None or failures:
                return
            body = source(seed, number, amplitude)
            for attempt in range(60):
                try:
                    connection.request("POST", "/v1/artwork?shape=poster&size=400&crop=centre",
                                       body=body, headers={"Content-Type": "image/png"})
                    answer = connection.getresponse()
                    text = answer.read()
                except (OSError, http.client.HTTPException):
                    connection.close()
                    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
                    time.sleep(0.5)
                    continue
                if answer.status in (429, 503):
                    time.sleep(float(answer.getheader("Retry-After") or 1) / 4 + 0.05)
                    continue
                break
            if answer.status != 201:
                failures.append(f"poster {number}: {answer.status} {text[:200]!r}")
                return
            reply = json.loads(text)
            if (reply["width"], reply["height"], reply["format"]) != (WIDTH, HEIGHT, "jpeg"):
                failures.append(f"poster {number}: unexpected {reply}")
                return
            url = reply["image_url"]
            paths[number] = url[url.index("/v1/images/"):]
            stored[number] = reply["bytes"]

    started = time.monotonic()
    threads = [threading.Thread(target=uploader) for _ in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        sys.exit("uploads failed: " + "; ".join(failures[:3]))
    if len(set(paths)) != count:
        sys.exit(f"only {len(set(paths))} distinct posters among {count}")
    with open(out, "w") as file:
        file.write("".join(path + "\n" for path in paths))
    print(json.dumps({"posters": count, "mean_bytes": round(sum(stored) / count),
                      "min_bytes": min(stored), "max_bytes": max(stored),
                      "total_bytes": sum(stored),
                      "seconds": round(time.monotonic() - started, 1)}))


if __name__ == "__main__":
    main()
