"""Loop lag: a probe that tells how late the event loop starts what is due."""

from __future__ import annotations

import asyncio
import gc
import time

from server import RunningServer
from server.ops.looplag import GcPauses, LoopLag
from tests.server.helpers import run
from tests.server.test_ops_metrics import scrape, value


def test_a_loop_held_for_50_ms_shows_a_probe_at_least_40_ms_late() -> None:
    async def main() -> tuple[list[float], float]:
        seen: list[float] = []
        lag = LoopLag(seen.append, interval=0.001)
        task = asyncio.get_running_loop().create_task(lag.run())
        while lag.probes < 3:
            await asyncio.sleep(0.001)
        time.sleep(0.05)  # the stall the probe must see
        probes = lag.probes
        while lag.probes == probes:
            await asyncio.sleep(0.001)
        task.cancel()
        return seen, lag.worst

    seen, worst = asyncio.run(main())
    assert all(lag >= 0.0 for lag in seen)
    assert max(seen) >= 0.04
    assert worst == max(seen)


def test_the_metrics_page_carries_the_loop_lag_histogram() -> None:
    async def test(server: RunningServer) -> None:
        await asyncio.sleep(0.1)  # ten probes of 10 ms at least
        samples = await scrape(server)
        count = value(samples, "spades_loop_lag_seconds_count")
        assert count >= 1
        assert value(samples, "spades_loop_lag_seconds_bucket", le="+Inf") == count
        gc.collect(2)
        samples = await scrape(server)
        assert value(samples, "spades_gc_pause_seconds_count", generation="2") >= 1

    run(test, metrics_port=0)


def test_a_forced_collection_is_timed_by_generation_and_the_callback_goes_at_stop() -> None:
    seen: list[tuple[int, float]] = []
    pauses = GcPauses(lambda generation, seconds: seen.append((generation, seconds)))
    gc.collect(2)
    pauses.stop()
    pauses.stop()  # twice is harmless
    assert (2, seen[-1][1]) == seen[-1] and seen[-1][1] >= 0.0
    count = len(seen)
    gc.collect(2)
    assert len(seen) == count
