#!/usr/bin/env python3
"""Prints the CPU seconds (user + system) used so far by a process and all its live descendants
(a service and its worker processes), plus what its dead, waited-for children used.

Usage: tree-cpu.py PID
"""
import os
import sys

TICK = os.sysconf("SC_CLK_TCK")


def stat(pid):
    try:
        with open(f"/proc/{pid}/stat") as file:
            # The command name may hold spaces: the fields after it start past its ')'.
            fields = file.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return int(fields[1]), sum(int(value) for value in fields[11:15])


parents = {}
ticks = {}
for entry in os.listdir("/proc"):
    if entry.isdigit():
        found = stat(int(entry))
        if found:
            parents[int(entry)], ticks[int(entry)] = found
tree = {int(sys.argv[1])}
grew = True
while grew:
    grew = False
    for pid, parent in parents.items():
        if parent in tree and pid not in tree:
            tree.add(pid)
            grew = True
print(f"{sum(ticks.get(pid, 0) for pid in tree) / TICK:.2f}")
