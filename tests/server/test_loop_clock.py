"""A room's clock (server/rooms/clock.py): a task called off before its first step leaves
no coroutine behind that was never awaited (Python warns of one when it is collected)."""

from __future__ import annotations

import asyncio
import gc
import warnings

from server.rooms.clock import LoopClock


def run_task(call_off: bool) -> tuple[list[str], list[str]]:
    """Give a clock one task, called off at once or not; what the work did, and the
    "never awaited" warnings seen once the loop is gone and collected."""
    ran: list[str] = []

    async def work() -> None:
        ran.append("ran")

    async def main() -> None:
        clock = LoopClock()
        clock.task("bot", work())
        if call_off:
            clock.cancel("bot")  # before the loop gave the task its first step
        await asyncio.sleep(0)
        await asyncio.sleep(0)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        asyncio.run(main())
        gc.collect()
    return ran, [str(w.message) for w in caught if "never awaited" in str(w.message)]


def test_a_task_called_off_before_it_starts_leaves_no_unawaited_coroutine() -> None:
    assert run_task(call_off=True) == ([], [])


def test_a_task_left_alone_runs_its_work() -> None:
    assert run_task(call_off=False) == (["ran"], [])
