"""Small /proc readers shared by the server benchmarks (Linux only)."""

from __future__ import annotations

import os

__all__ = [
    "cpu_seconds",
    "machine_busy_seconds",
    "net_softirqs",
    "rss_kib",
    "schedstat",
    "tcp_counters",
]

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


def tcp_counters() -> dict[str, int]:
    """The machine's TCP counters that tell a connection waited on the kernel:
    ``ListenOverflows`` (a listening queue was full: the handshake's last packet dropped,
    the client's first data sent again after some 200 ms) and ``RetransSegs``."""
    found: dict[str, int] = {}
    for path, table in (("/proc/net/netstat", "TcpExt:"), ("/proc/net/snmp", "Tcp:")):
        try:
            with open(path) as lines:
                rows = [line.split() for line in lines if line.startswith(table)]
        except OSError:
            continue
        for names, values in zip(rows[::2], rows[1::2], strict=False):
            for name, value in zip(names[1:], values[1:], strict=False):
                if name in ("ListenOverflows", "RetransSegs"):
                    found[name] = int(value)
    return found
