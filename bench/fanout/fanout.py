#!/usr/bin/env python3
"""Fan-out load: N phones open their connections at once, as after a push with a new image_url,
and each GETs the image a few times over keep-alive. Prints one JSON line: the time until every
phone had its image whole (the first answer), the p50/p99 of that time per phone, the time until
all GETs were done, and how many answers were not 200 or cut short.

Usage: fanout.py PORT PATH CONNECTIONS GETS_EACH [HOST]
"""
import asyncio
import json
import sys
import time


async def phone(host, port, request, gets, started, firsts, failures):
    try:
        reader, writer = await asyncio.open_connection(host, port)
    except OSError as error:
        failures.append(f"connect: {error.__class__.__name__}")
        return
    try:
        for number in range(gets):
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            status = int(head.split(b" ", 2)[1])
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":", 1)[1])
            await reader.readexactly(length)
            if status != 200:
                failures.append(f"status {status}")
                return
            if number == 0:
                firsts.append(time.monotonic() - started)
    except (OSError, asyncio.IncompleteReadError, ValueError) as error:
        failures.append(f"read: {error.__class__.__name__}")
    finally:
        writer.close()


async def main():
    port, path, count, gets = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    host = sys.argv[5] if len(sys.argv) > 5 else "127.0.0.1"
    request = f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUser-Agent: fanout\r\n\r\n".encode()
    firsts, failures = [], []
    started = time.monotonic()
    await asyncio.gather(
        *(phone(host, port, request, gets, started, firsts, failures) for _ in range(count)))
    finished = time.monotonic() - started
    firsts.sort()

    def percentile(p):
        return round(firsts[min(len(firsts) - 1, int(len(firsts) * p))] * 1000, 1) if firsts else None

    print(json.dumps({
        "connections": count, "gets_each": gets, "served": len(firsts),
        "failures": len(failures), "first_failure": failures[0] if failures else None,
        "all_have_image_ms": round(firsts[-1] * 1000, 1) if firsts else None,
        "p50_ms": percentile(0.50), "p99_ms": percentile(0.99),
        "all_done_ms": round(finished * 1000, 1),
    }))


asyncio.run(main())
