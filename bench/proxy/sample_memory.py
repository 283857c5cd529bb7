#!/usr/bin/env python3
"""Samples a process's resident memory, and the memory cgroup it runs in when given one, every
0.1 s until SIGTERM or the process is gone. Then prints one JSON object, in MB: the process's
first, last and peak resident memory, the cgroup's last and peak usage and its counters (v2:
memory.events; v1: failcnt and oom_kill), and after how many seconds the process was gone.

Usage: sample_memory.py PID [CGROUP_DIR]
"""
import json
import os
import signal
import sys
import time

pid, cgroup = int(sys.argv[1]), (sys.argv[2] if len(sys.argv) > 2 else None)
V2 = cgroup is not None and os.path.exists(f"{cgroup}/memory.current")
stop = False


def halt(*_):
    global stop
    stop = True


def read(path):
    try:
        with open(path) as file:
            return file.read()
    except OSError:
        return None


def in_cgroup(name):
    return read(f"{cgroup}/{name}")


def mb(kib):
    return round(kib / 1024)


def resident():
    """VmRSS and VmHWM in kB, or None once the process is gone (or a zombie)."""
    lines = (read(f"/proc/{pid}/status") or "").splitlines()
    fields = dict(line.split(":", 1) for line in lines)
    if not fields or fields["State"].split()[0] == "Z":
        return None
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])


def counters():
    """The cgroup's counters, and its own peak in bytes (v1 always, v2 from Linux 5.19)."""
    if V2:
        events = dict(line.split() for line in in_cgroup("memory.events").splitlines())
        peak = int(in_cgroup("memory.peak") or 0)
        return {key: int(value) for key, value in events.items()}, peak
    oom = dict(line.split() for line in in_cgroup("memory.oom_control").splitlines())
    return ({"failcnt": int(in_cgroup("memory.failcnt")), "oom_kill": int(oom.get("oom_kill", 0))},
            int(in_cgroup("memory.max_usage_in_bytes")))


signal.signal(signal.SIGTERM, halt)
started, samples, usage, gone = time.monotonic(), [], [], None
while not stop:
    sample = resident()
    if sample is None:
        gone = round(time.monotonic() - started, 1)
        break
    samples.append(sample)
    if cgroup:
        usage.append(int(in_cgroup("memory.current" if V2 else "memory.usage_in_bytes")))
    time.sleep(0.1)
if not samples:
    sys.exit(f"process {pid} was gone before the first sample")
# The last VmHWM is the kernel's own peak, which no sampling misses.
result = {"rss_first_mb": mb(samples[0][0]), "rss_last_mb": mb(samples[-1][0]),
          "rss_peak_mb": mb(samples[-1][1]), "gone_after_s": gone}
if cgroup:
    events, peak = counters()
    result.update(cgroup_last_mb=mb(usage[-1] / 1024), cgroup_events=events,
                  cgroup_peak_mb=mb(max(peak, *usage) / 1024))
print(json.dumps(result))
