"""A room's timers on the event loop: the one part of a room that touches the loop.

    clock = LoopClock()
    clock.later("turn", 30.0, on_turn_timeout)     # replaces a running "turn"
    clock.task("bot", think())                     # a coroutine (a bot's decision)
    clock.dispose()                                # every timer and task of the room ends

A callback or task that fails is logged ("background task failed") and the loop goes on.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

__all__ = ["LoopClock"]

log = logging.getLogger("server")


class LoopClock:
    """:class:`server.rooms.ports.Clock` on the running event loop."""

    def __init__(self) -> None:
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._firing: str | None = None  # the timer whose callback runs now

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    def later(self, name: str, seconds: float, callback: Callable[[], None]) -> None:
        self.cancel(name)

        def fire() -> None:
            self._timers.pop(name, None)
            self._firing = name
            try:
                callback()
            except Exception:
                log.exception("background task failed")
            finally:
                self._firing = None

        self._timers[name] = asyncio.get_running_loop().call_later(seconds, fire)

    def task(self, name: str, work: Coroutine[Any, Any, None]) -> None:
        self.cancel(name)

        async def run() -> None:
            try:
                await work
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("background task failed")
            finally:
                if self._tasks.get(name) is asyncio.current_task():
                    del self._tasks[name]

        task = asyncio.get_running_loop().create_task(run())
        # a task called off before its first step never awaits ``work``: close it, or the
        # coroutine is reported "never awaited" when it is collected
        task.add_done_callback(lambda _: work.close())
        self._tasks[name] = task

    def cancel(self, name: str) -> None:
        timer = self._timers.pop(name, None)
        if timer is not None:
            timer.cancel()
        task = self._tasks.pop(name, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def running(self, name: str) -> bool:
        if name in self._timers:
            return True
        task = self._tasks.get(name)
        return task is not None and not task.done()

    def current(self, name: str) -> bool:
        if self._firing == name:
            return True
        try:
            me = asyncio.current_task()
        except RuntimeError:
            return False
        return me is not None and self._tasks.get(name) is me

    def dispose(self) -> None:
        for name in list(self._timers) + list(self._tasks):
            self.cancel(name)
