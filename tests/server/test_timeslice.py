"""The event loop asks Linux for a short time slice, so a wake-up takes a core shared with
busy processes at once; the bot workers go back to the default (docs/benchmarks.md,
Round 7; :mod:`server.ops.timeslice`)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

from server.bots import BotRunner
from server.ops.timeslice import DEFAULT_LOOP_SLICE_US, request_slice, slice_ns

ROOT = Path(__file__).resolve().parents[2]
T = TypeVar("T")


def in_a_thread(work: Callable[[], T]) -> T:
    """``work()`` in a thread of its own: a slice is a thread's, and the test runner's own
    thread keeps its default."""
    results: list[T] = []
    thread = threading.Thread(target=lambda: results.append(work()))
    thread.start()
    thread.join(120)
    assert results, "the thread did not finish"
    return results[0]


def test_a_thread_gets_the_slice_it_asks_for_and_the_default_back() -> None:
    def work() -> tuple[int | None, bool, int | None, bool, int | None]:
        before = slice_ns()
        taken = request_slice(200)
        during = slice_ns()
        back = request_slice(0)
        return before, taken, during, back, slice_ns()

    before, taken, during, back, after = in_a_thread(work)
    assert before is not None and before > 200_000  # the kernel's default is longer
    assert taken and during == 200_000
    assert back and after == before


def test_a_slice_below_the_kernels_shortest_gets_the_shortest() -> None:
    def work() -> tuple[bool, int | None]:
        taken = request_slice(10)
        return taken, slice_ns()

    # the kernel clamps to 100 µs .. 100 ms; what it gave is what a request can get
    assert in_a_thread(work) == (True, 100_000)


def test_a_negative_slice_is_refused_before_the_kernel_is_asked() -> None:
    with pytest.raises(ValueError, match="microseconds"):
        request_slice(-1)


def test_bot_workers_started_by_a_short_slice_loop_go_back_to_the_default() -> None:
    default = in_a_thread(slice_ns)

    def work() -> int | None:
        assert request_slice(DEFAULT_LOOP_SLICE_US)

        async def scenario() -> int | None:
            runner = BotRunner(workers=1)
            try:
                pool = runner._get_executor()
                return await pool.run(slice_ns)  # type: ignore[union-attr]
            finally:
                runner.close()

        return asyncio.run(scenario())

    assert in_a_thread(work) == default != DEFAULT_LOOP_SLICE_US * 1000


def _served_slice(*flags: str) -> int:
    """Start ``python3 -m server`` with ``flags``; the slice of its loop's thread (ns)."""
    server = subprocess.Popen(
        [sys.executable, "-m", "server", "--port", "0", "--db", ":memory:", *flags],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert server.stdout is not None
        assert "listening" in server.stdout.readline()
        sched = Path(f"/proc/{server.pid}/sched").read_text()
        field = next(line for line in sched.splitlines() if line.startswith("se.slice"))
        return int(field.split(":")[1])
    finally:
        server.terminate()
        server.wait(20)


def test_spades_serve_asks_for_the_loop_slice_and_zero_leaves_the_kernels() -> None:
    default = in_a_thread(slice_ns)
    assert _served_slice() == DEFAULT_LOOP_SLICE_US * 1000
    assert _served_slice("--loop-slice-us", "300") == 300_000
    assert _served_slice("--loop-slice-us", "0") == default

    def started_from_a_short_slice_thread() -> int:
        assert request_slice(300)  # inherited by the process it starts
        return _served_slice("--loop-slice-us", "0")

    assert in_a_thread(started_from_a_short_slice_thread) == default


def test_spades_serve_refuses_a_negative_slice_with_one_clear_line() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "server",
            "--port",
            "0",
            "--db",
            ":memory:",
            "--loop-slice-us",
            "-5",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.strip() == "spades server: --loop-slice-us must be 0 or more, not -5"
