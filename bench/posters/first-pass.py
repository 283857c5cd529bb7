#!/usr/bin/env python3
"""GETs each hosted path in PATHS once (in file order, shared among CONNECTIONS keep-alive
connections), as phones would meet a replica that has just started: every answer must be a 200
with a body. Prints one JSON line: GETs, seconds, rate, p50 and p99 in ms, non-200 answers.

Usage: first-pass.py PORT PATHS CONNECTIONS
"""
import http.client
import json
import sys
import threading
import time


def main():
    port, paths_file, connections = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    paths = open(paths_file).read().split()
    lock = threading.Lock()
    queue = list(reversed(paths))
    times, failures = [], []

    def work():
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        while True:
            with lock:
                if not queue:
                    return
                path = queue.pop()
            start = time.monotonic()
            connection.request("GET", path)
            response = connection.getresponse()
            body = response.read()
            elapsed = time.monotonic() - start
            with lock:
                times.append(elapsed)
                if response.status != 200 or not body:
                    failures.append(response.status)

    start = time.monotonic()
    threads = [threading.Thread(target=work) for _ in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.monotonic() - start
    times.sort()
    print(json.dumps({
        "gets": len(times), "seconds": round(seconds, 2), "rate": round(len(times) / seconds, 1),
        "p50_ms": round(times[len(times) // 2] * 1000, 1),
        "p99_ms": round(times[int(len(times) * 0.99)] * 1000, 1), "non_200": len(failures)}))


main()
