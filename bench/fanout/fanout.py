#!/usr/bin/env python3
"""Fan-out load: N phones open their connections at once, as after a push with a new image_url,
and each GETs the image a few times over keep-alive. Prints one JSON line: the time until every
phone had its image whole (the first answer), the p50/p99 of that time per phone, the time until
all GETs were done, and how many answers were not 200 or cut short.

Usage: fanout.py PORT PATH CONNECTIONS GETS_EACH [HOST]
  SPREAD_MS=1000   phones arrive evenly over that time instead of at once (a push reaches phones
                   over a second or so); p50/p99 then count from each phone's own start
  HOLD=1           a phone that has its image keeps its connection open, idle, until every phone
                   is done, as a phone keeps it alive (without: it closes at once)
"""
import os
import asyncio
import json
import sys
import time


async def phone(host, port, request, gets, origin, firsts, failures, delay, hold, ended):
    # At once: from the common start, as before; spread: from the phone's own.
    started = origin
    if delay:
        await asyncio.sleep(delay)
        started = time.monotonic()
    try:
        reader, writer = await asyncio.open_connection(host, port)
    except OSError as error:
        failures.append(f"connect: {error.__class__.__name__}")
        ended.append(1)
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
                ended.append(1)
                return
            if number == 0:
                now = time.monotonic()
                firsts.append((now - started, now - origin))
        ended.append(1)
        if hold is not None:
            await hold.wait()
    except (OSError, asyncio.IncompleteReadError, ValueError) as error:
        failures.append(f"read: {error.__class__.__name__}")
        ended.append(1)
    finally:
        writer.close()


async def main():
    port, path, count, gets = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    host = sys.argv[5] if len(sys.argv) > 5 else "127.0.0.1"
    request = f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUser-Agent: fanout\r\n\r\n".encode()
    spread = float(os.environ.get("SPREAD_MS", "0")) / 1000
    hold = asyncio.Event() if os.environ.get("HOLD") == "1" else None
    firsts, failures, ended = [], [], []
    started = time.monotonic()
    phones = [
        asyncio.create_task(phone(host, port, request, gets, started, firsts, failures,
                                  spread * index / count, hold, ended))
        for index in range(count)]
    # Done once each phone has its answers or failed; held connections close after.
    while len(ended) < count:
        await asyncio.sleep(0.01)
    finished = time.monotonic() - started
    if hold is not None:
        hold.set()
    await asyncio.gather(*phones)
    # Each phone's wait from its own start; "all have it" from the first phone's start.
    waits = sorted(wait for wait, _ in firsts)
    last = max((at for _, at in firsts), default=None)

    def percentile(p):
        return round(waits[min(len(waits) - 1, int(len(waits) * p))] * 1000, 1) if waits else None

    print(json.dumps({
        "connections": count, "gets_each": gets, "served": len(firsts),
        "failures": len(failures), "first_failure": failures[0] if failures else None,
        "all_have_image_ms": round(last * 1000, 1) if last is not None else None,
        "p50_ms": percentile(0.50), "p99_ms": percentile(0.99),
        "all_done_ms": round(finished * 1000, 1),
    }))


asyncio.run(main())
