"""Small /proc readers shared by the server benchmarks (Linux only)."""

from __future__ import annotations

import os

__all__ = ["cpu_seconds", "machine_busy_seconds", "net_softirqs", "rss_kib", "schedstat"]

_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time the process has used so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICKS


def rss_kib(pid: int) -> int:
    """Resident set size in KiB."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def machine_busy_seconds() -> float:
    """CPU seconds every core of the machine has spent busy so far (all but idle and
    I/O wait), summed over the cores."""
    with open("/proc/stat") as stat:
        fields = [int(value) for value in stat.readline().split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return (sum(fields[:8]) - idle) / _TICKS


def schedstat(pid: int) -> tuple[int, int]:
    """Nanoseconds the process's main thread has run, and waited runnable for a core
    (``/proc/PID/schedstat``); ``(0, 0)`` when the kernel keeps no such figures."""
    try:
        with open(f"/proc/{pid}/schedstat") as stat:
            run, wait, _ = stat.read().split()
    except (OSError, ValueError):
        return 0, 0
    return int(run), int(wait)


def net_softirqs() -> int:
    """NET_RX and NET_TX softirqs handled so far, summed over the cores (on loopback,
    every packet sent is received in one)."""
    total = 0
    with open("/proc/softirqs") as lines:
        for line in lines:
            name, *counts = line.split()
            if name in ("NET_RX:", "NET_TX:"):
                total += sum(int(count) for count in counts)
    return total
