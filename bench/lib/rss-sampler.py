#!/usr/bin/env python3
"""Samples the resident memory of a process and all its descendants (a service and its worker
processes) every INTERVAL seconds until it is stopped (SIGTERM or SIGINT), then prints one JSON
object: the peak of the simultaneous total, the sum of each process's own peak (VmHWM, an upper
bound: peaks at different moments), and how many processes were seen.

Usage: rss-sampler.py PID [INTERVAL]
"""
import json
import os
import signal
import sys
import time

root = int(sys.argv[1])
interval = float(sys.argv[2]) if len(sys.argv) > 2 else 0.05
stop = False


def halt(*_):
    global stop
    stop = True


signal.signal(signal.SIGTERM, halt)
signal.signal(signal.SIGINT, halt)


def status(pid):
    try:
        with open(f"/proc/{pid}/status") as file:
            return dict(line.split(":", 1) for line in file if ":" in line)
    except OSError:
        return None


def tree():
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = status(int(entry))
            if fields:
                children.setdefault(int(fields["PPid"]), []).append(int(entry))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def kib(fields, name):
    return int(fields.get(name, "0 kB").split()[0]) if fields else 0


peak_total, peaks, seen = 0, {}, set()
while not stop:
    total = 0
    for pid in tree():
        fields = status(pid)
        if not fields:
            continue
        seen.add(pid)
        total += kib(fields, "VmRSS")
        peaks[pid] = max(peaks.get(pid, 0), kib(fields, "VmHWM"))
    peak_total = max(peak_total, total)
    time.sleep(interval)
print(json.dumps({"peak_total_mb": round(peak_total / 1024, 1),
                  "sum_of_peaks_mb": round(sum(peaks.values()) / 1024, 1),
                  "processes": len(seen)}))
