"""Loop lag: how late the event loop starts a callback that was due, measured all the time.

    lag = LoopLag(metrics.loop_lagged, gc_observe=metrics.gc_paused)
    background.spawn(lag.run())     # probes until cancelled; GC pauses timed meanwhile
    lag.worst                       # the largest lag seen so far (seconds)
    pauses = GcPauses(observe)      # observe(generation, seconds) per collection
    pauses.stop()                   # the callback removed

A probe sleeps ``interval`` seconds and, when it wakes, reports how much later than due
it woke. One loop turn that holds the thread (a long callback, a collection of the
garbage, a blocking system call) shows as one late probe, so the histogram of these lags
is the tail every connection of the node sees added to its own work. The probe costs one
timer every ``interval`` (100 a second by default): nothing next to the work it watches.
:class:`GcPauses` times each collection of the garbage collector (``gc.callbacks``),
the one stall a sampling profiler cannot name. Nothing here raises.
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Callable
from typing import Any

__all__ = ["GC_THRESHOLDS", "GcPauses", "LoopLag", "settle_gc"]

GC_THRESHOLDS = (300, 1, 10_000)
"""The collector's thresholds once serving. A pass's cost is the young objects it walks
(about 0.4 us each), and under load nearly all of them are alive (each connection's
waiting read, the games' new moves). The first threshold counts allocations minus
deallocations, and with every turn's garbage freed by reference counting (no cycles:
tests/server/test_commit_garbage.py) the young list at a pass holds about ten objects
per count: (2,000, 2, 5,000) then meant young passes of 6 ms and middle ones of 24 ms at
1,000 actions/s on the benchmark machine, 300 means about 0.5 ms and 2 ms. One young pass
makes a middle one (the survivors of two young passes, so it stays short), and 10,000
middle passes a full one, about as rare as before: the full pass walks every
connection's objects and is the one long stall left."""


class LoopLag:
    """A periodic probe of the running loop's lateness (see the module)."""

    def __init__(
        self,
        observe: Callable[[float], None],
        interval: float = 0.01,
        gc_observe: Callable[[int, float], None] | None = None,
    ) -> None:
        """``observe`` gets each probe's lag in seconds (never negative); ``gc_observe``,
        if given, each collection's pause while :meth:`run` runs (see :class:`GcPauses`)."""
        self.observe = observe
        self.gc_observe = gc_observe
        self.interval = interval
        self.worst = 0.0
        self.probes = 0

    async def run(self) -> None:
        """Probe until cancelled."""
        loop = asyncio.get_running_loop()
        clock, interval = loop.time, self.interval
        pauses = GcPauses(self.gc_observe) if self.gc_observe is not None else None
        try:
            while True:
                due = clock() + interval
                await asyncio.sleep(interval)
                # the loop wakes a timer up to its clock resolution early: never below zero
                lag = max(0.0, clock() - due)
                self.probes += 1
                if lag > self.worst:
                    self.worst = lag
                self.observe(lag)
        finally:
            if pauses is not None:
                pauses.stop()


class GcPauses:
    """Times every collection of the garbage collector while it is installed."""

    def __init__(self, observe: Callable[[int, float], None]) -> None:
        """``observe(generation, seconds)`` after each collection; installed at once."""
        self.observe = observe
        self._started = 0.0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        elif self._started:
            self.observe(int(info.get("generation", 0)), time.perf_counter() - self._started)

    def stop(self) -> None:
        """Remove the callback (a no-op the second time)."""
        if self._callback in gc.callbacks:
            gc.callbacks.remove(self._callback)


def settle_gc(thresholds: tuple[int, int, int] = GC_THRESHOLDS) -> None:
    """After start-up: collect once, move every object alive now (modules, loaded tables)
    out of the collector's view for good (``gc.freeze``), and set ``thresholds``."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*thresholds)
