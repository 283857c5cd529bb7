#!/usr/bin/env python3
"""Mixed traffic against a running service for a while, sampling what it holds.

Drives, at once: uploads, URL sources from a loopback origin (some repeated, some slow),
/v1/content with waits, deletes, hosted GETs, token reloads (SIGHUP) and worker kills (SIGKILL),
while a sampler reads the service's resident memory, its workers' memory, its descriptors and
threads every --interval seconds. At the end it prints the samples, the slopes (per hour, least
squares after the warm-up) and the answers by status; with --check it exits 1 when memory,
descriptors or threads grew past the bounds, or when anything answered 5xx other than 503.

Usage: soak.py --port P --origin O --pid PID --tokens FILE --minutes M [--check]
"""
import argparse
import http.client
import json
import os
import random
import signal
import statistics
import sys
import threading
import time
from collections import Counter

STOP = threading.Event()
LOCK = threading.Lock()
STATUSES = Counter()
HOSTED = []  # hosted image paths seen, newest last


def record(kind, status):
    with LOCK:
        STATUSES[f"{kind} {status}"] += 1


def request(port, method, path, body=None, headers=None, timeout=30):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        data = response.read()
        return response.status, data, dict(response.getheaders())
    finally:
        connection.close()


def remember(data):
    try:
        url = json.loads(data).get("image_url", "")
    except ValueError:
        return
    if "/v1/images/" in url:
        with LOCK:
            HOSTED.append(url[url.index("/v1/images/"):])
            del HOSTED[:-200]


def children_of(pid):
    """The service's child processes (its workers): started from any of its threads."""
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            found += [int(child) for child in open(f"/proc/{pid}/task/{task}/children").read().split()]
        except OSError:
            pass
    return found


def loop(kind, every, work):
    while not STOP.is_set():
        try:
            work()
        except (OSError, http.client.HTTPException) as error:
            record(kind, f"error {type(error).__name__}")
        STOP.wait(every)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--origin", type=int, required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--tokens", required=True, help="the service's ARTWORK_API_TOKENS_FILE")
    parser.add_argument("--minutes", type=float, default=60)
    parser.add_argument("--interval", type=float, default=10)
    parser.add_argument("--warmup", type=float, default=30, help="seconds not counted in slopes")
    parser.add_argument("--images", nargs="+", required=True)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    port, origin, pid = args.port, args.origin, args.pid
    token = "soak-token-0123456789abcdef"
    auth = {"Authorization": f"Bearer {token}"}
    images = [open(path, "rb").read() for path in args.images]

    def upload():
        body = random.choice(images)
        size = random.choice([96, 200, 400])
        status, data, _ = request(
            port, "POST", f"/v1/artwork?size={size}&shape=poster", body,
            {"Content-Type": "image/jpeg", **auth})
        record("upload", status)
        remember(data)

    def url_source():
        # 300 URLs: repeats are answered from memory, the rest fetched and framed.
        number = random.randrange(300)
        target = f"/image.jpg?soak={number}"
        if number % 10 == 0:
            target = f"/slow.jpg?soak={number}-{time.monotonic_ns()}&delay=1"
        body = json.dumps({"url": f"http://127.0.0.1:{origin}{target}", "size": 200})
        status, data, _ = request(
            port, "POST", "/v1/artwork", body, {"Content-Type": "application/json", **auth})
        record("url", status)
        remember(data)

    def content():
        number = random.randrange(300)
        document = {"image_url": f"http://127.0.0.1:{origin}/image.jpg?soak={number}",
                    "title": "soak", "progress": random.random()}
        status, _, _ = request(
            port, "POST", "/v1/content?size=200", json.dumps(document),
            {"Content-Type": "application/json", "Prefer": "wait=2", **auth})
        record("content", status)

    def delete():
        with LOCK:
            path = HOSTED.pop(0) if len(HOSTED) > 20 else None
        if path:
            status, _, _ = request(port, "DELETE", path, headers=auth)
            record("delete", status)

    def hosted_gets():
        with LOCK:
            paths = list(HOSTED[-20:])
        if not paths:
            return
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            for _ in range(50):
                connection.request("GET", random.choice(paths))
                response = connection.getresponse()
                response.read()
                record("get", 200 if response.status in (200, 404) else response.status)
        finally:
            connection.close()

    def reload_tokens():
        extra = f"rotating:{os.urandom(12).hex()}"
        temporary = args.tokens + ".new"
        with open(temporary, "w") as file:
            file.write(f"soak:{token}\n{extra}\n")
        os.replace(temporary, args.tokens)
        os.kill(pid, signal.SIGHUP)
        record("reload", "sent")

    def kill_worker():
        children = children_of(pid)
        if children:
            os.kill(random.choice(children), signal.SIGKILL)
            record("kill", "sent")

    samples = []

    def sample():
        def status_field(path, name):
            for line in open(path):
                if line.startswith(name + ":"):
                    return int(line.split()[1])
            return 0
        children = children_of(pid)
        workers = 0
        for child in children:
            try:
                workers += status_field(f"/proc/{child}/status", "VmRSS")
            except OSError:
                pass
        samples.append({
            "t": round(time.monotonic() - started, 1),
            "rss_mb": round(status_field(f"/proc/{pid}/status", "VmRSS") / 1024, 1),
            "workers_rss_mb": round(workers / 1024, 1),
            "fds": len(os.listdir(f"/proc/{pid}/fd")),
            "threads": status_field(f"/proc/{pid}/status", "Threads"),
        })
        print(json.dumps(samples[-1]), flush=True)

    started = time.monotonic()
    plan = [
        ("upload", 0.05, upload), ("upload", 0.05, upload),
        ("url", 0.02, url_source), ("url", 0.02, url_source),
        ("content", 0.2, content), ("delete", 1.0, delete),
        ("get", 0.0, hosted_gets), ("get", 0.0, hosted_gets),
        ("reload", 15.0, reload_tokens), ("kill", 20.0, kill_worker),
    ]
    threads = [threading.Thread(target=loop, args=item, daemon=True) for item in plan]
    for thread in threads:
        thread.start()
    deadline = started + args.minutes * 60
    while time.monotonic() < deadline:
        sample()
        time.sleep(min(args.interval, max(0.0, deadline - time.monotonic())))
    STOP.set()
    for thread in threads:
        thread.join(timeout=60)
    sample()

    counted = [s for s in samples if s["t"] >= args.warmup] or samples

    def slope(key):
        # Least squares, per hour.
        if len(counted) < 2:
            return 0.0
        xs = [s["t"] / 3600 for s in counted]
        ys = [s[key] for s in counted]
        mean_x, mean_y = statistics.fmean(xs), statistics.fmean(ys)
        spread = sum((x - mean_x) ** 2 for x in xs)
        return sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys)) / spread if spread else 0.0

    summary = {
        "minutes": args.minutes, "samples": len(samples),
        "slopes_per_hour": {key: round(slope(key), 2)
                            for key in ("rss_mb", "workers_rss_mb", "fds", "threads")},
        "first": counted[0], "last": counted[-1],
        "statuses": dict(sorted(STATUSES.items())),
    }
    print(json.dumps(summary, indent=1), flush=True)
    if not args.check:
        return 0
    problems = []
    grown = {key: counted[-1][key] - min(s[key] for s in counted)
             for key in ("rss_mb", "fds", "threads")}
    # Bounds for a short run: what a leak of one descriptor or a few kilobytes per request
    # would pass in minutes; the allocator and caches settle well within them.
    if grown["rss_mb"] > 40:
        problems.append(f"resident memory grew {grown['rss_mb']} MB")
    if grown["fds"] > 16:
        problems.append(f"descriptors grew by {grown['fds']}")
    if grown["threads"] > 16:
        problems.append(f"threads grew by {grown['threads']}")
    for key, count in STATUSES.items():
        status = key.split(" ", 1)[1]
        if status.isdigit() and int(status) >= 500 and int(status) != 503:
            problems.append(f"{count} answers {key}")
    for problem in problems:
        print("soak check failed: " + problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
