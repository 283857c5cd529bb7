#!/usr/bin/env python3
"""Holds N keep-alive connections idle after one GET each, prints "held N" and waits for a line
on standard input before closing them (bench/fanout/idle.sh measures the server meanwhile).

Usage: idle.py PORT PATH CONNECTIONS
"""
import asyncio
import sys


async def one(port, request):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request)
    head = await reader.readuntil(b"\r\n\r\n")
    length = next(int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                  if line.lower().startswith(b"content-length:"))
    await reader.readexactly(length)
    return writer


async def main():
    port, path, count = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
    writers = []
    for start in range(0, count, 500):
        writers += await asyncio.gather(*(one(port, request) for _ in range(min(500, count - start))))
    print(f"held {len(writers)}", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    for writer in writers:
        writer.close()


asyncio.run(main())
