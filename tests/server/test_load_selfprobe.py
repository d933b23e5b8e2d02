"""bench/loadlib/selfprobe.py: the load generator's own figures (its CPU, its loop's
lateness, its preemptions) are taken in the window only and merged over the workers."""

from __future__ import annotations

import asyncio
import time

from bench.loadlib.selfprobe import SelfProbe, merge, preemptions


def test_the_probe_samples_the_loop_only_inside_its_window() -> None:
    async def main() -> dict[str, object]:
        start = time.monotonic() + 0.05
        probe = SelfProbe(start, start + 0.2)
        probe.start()
        await asyncio.sleep(0.12)
        busy_until = time.monotonic() + 0.03
        while time.monotonic() < busy_until:  # holds the loop: one probe is late by it
            pass
        await asyncio.sleep(0.25)  # past the window: no more probes
        figures = probe.figures()
        assert probe.cpu_end is not None
        return figures

    figures = asyncio.run(main())
    lags = figures["lags"]
    assert isinstance(lags, list)
    assert 2 <= len(lags) <= 20  # 10 ms probes over a 0.2 s window, none before or after
    assert max(lags) >= 0.015  # the 30 ms the loop was held shows
    assert isinstance(figures["cpu_s"], float) and figures["cpu_s"] > 0


def test_merge_sums_the_workers_and_reads_the_lags_in_ms() -> None:
    parts = [
        {"cpu_s": 1.0, "lags": [0.001] * 98 + [0.006, 0.030], "preempted": 4},
        {"cpu_s": 2.0, "lags": [0.002] * 100, "preempted": 1},
    ]
    merged = merge(parts, duration=10.0, actions=3000)
    assert merged["cpu_percent"] == 30.0
    assert merged["cpu_us_per_action"] == 1000.0
    assert merged["preempted"] == 5
    lag = merged["loop_lag"]
    assert lag["probes"] == 200
    assert lag["p50_ms"] == 1.0 or lag["p50_ms"] == 2.0
    assert lag["max_ms"] == 30.0
    assert lag["over_5ms"] == 2 and lag["over_20ms"] == 1


def test_preemptions_of_this_process_is_a_count_and_of_no_process_zero() -> None:
    assert preemptions() >= 0
    assert preemptions(2**22 + 12345) == 0  # no such process: nothing to read
