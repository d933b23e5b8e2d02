"""How busy the load generator itself was in the measured window: its CPU time and how
late its own event loop ran, so that a latency figure can be read against the client's
share of it (our clients get about three frames an action, the echo's one).

    probe = SelfProbe(start_at, stop_at)        # in a worker's running loop
    probe.start()
    ...                                         # the worker's clients run
    out["client"] = probe.figures()             # after stop_at
    merged = merge([out1["client"], ...], actions)   # bench/load.py, over the workers

``figures()`` gives ``cpu_s`` (this process's CPU time in the window), ``lags`` (how
late each 10 ms probe of the loop started, in seconds) and ``preempted`` (how many times
the kernel took the CPU from it while it could run: :func:`preemptions`). Nothing here
raises.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Final

__all__ = ["PROBE_EVERY", "SelfProbe", "merge", "preemptions"]

PROBE_EVERY: Final = 0.01
"""Seconds between the probes of the loop (the server's probe uses the same)."""


def preemptions(pid: int | str = "self") -> int:
    """How many times the kernel has taken the CPU from process ``pid``'s main thread
    while it could still run (``nonvoluntary_ctxt_switches``; Linux; 0 elsewhere): on
    a machine with more runnable work than cores, each is a wait for a core."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("nonvoluntary_ctxt_switches:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


class SelfProbe:
    """CPU time and loop lateness of this process between ``start_at`` and ``stop_at``
    (``time.monotonic`` times)."""

    def __init__(self, start_at: float, stop_at: float) -> None:
        self.start_at, self.stop_at = start_at, stop_at
        self.lags: list[float] = []
        self.cpu_start: float | None = None
        self.cpu_end: float | None = None
        self.preempted = [0, 0]
        self._due = 0.0

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        delay = max(0.0, self.start_at - time.monotonic())
        loop.call_later(delay, self._begin)

    def _begin(self) -> None:
        self.cpu_start = time.process_time()
        self.preempted[0] = preemptions()
        self._due = time.monotonic() + PROBE_EVERY
        asyncio.get_running_loop().call_later(PROBE_EVERY, self._tick)

    def _tick(self) -> None:
        now = time.monotonic()
        if now >= self.stop_at:
            self.cpu_end = time.process_time()
            self.preempted[1] = preemptions()
            return
        self.lags.append(max(0.0, now - self._due))
        self._due = now + PROBE_EVERY
        asyncio.get_running_loop().call_later(PROBE_EVERY, self._tick)

    def figures(self) -> dict[str, Any]:
        end = self.cpu_end if self.cpu_end is not None else time.process_time()
        cpu = end - self.cpu_start if self.cpu_start is not None else 0.0
        preempted = max(0, self.preempted[1] - self.preempted[0])
        return {"cpu_s": cpu, "lags": self.lags, "preempted": preempted}


def merge(parts: list[dict[str, Any]], duration: float, actions: int) -> dict[str, Any]:
    """The workers' figures as one: CPU percent of a core (summed over the workers), CPU
    microseconds per action, the loop lateness of all probes (p50/p99/max in ms, probes
    over 5 and 20 ms) and the workers' preemptions in the window."""
    cpu = sum(p["cpu_s"] for p in parts)
    lags = sorted(x * 1000 for p in parts for x in p["lags"])

    def at(fraction: float) -> float:
        return round(lags[min(len(lags) - 1, int(fraction * len(lags)))], 3) if lags else 0.0

    return {
        "cpu_percent": round(100 * cpu / max(duration, 1e-9), 1),
        "cpu_us_per_action": round(1e6 * cpu / max(1, actions), 1),
        "preempted": sum(p.get("preempted", 0) for p in parts),
        "loop_lag": {
            "probes": len(lags),
            "p50_ms": at(0.5),
            "p99_ms": at(0.99),
            "max_ms": round(lags[-1], 3) if lags else 0.0,
            "over_5ms": sum(1 for x in lags if x > 5),
            "over_20ms": sum(1 for x in lags if x > 20),
        },
    }
