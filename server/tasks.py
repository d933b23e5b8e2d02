"""Background work that lives as long as the server: started, logged if it fails, and
all cancelled at the end.

    tasks = Background()
    tasks.spawn(watch_something())     # an exception is logged ("background task failed")
    tasks.cancel()                     # at close
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable

__all__ = ["Background"]

log = logging.getLogger("server")


class Background:
    """The server's background tasks (a room's timers are its own clock's)."""

    def __init__(self) -> None:
        self.tasks: set[asyncio.Task[None]] = set()

    def spawn(self, coro: Awaitable[None]) -> asyncio.Task[None]:
        async def run() -> None:
            try:
                await coro
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("background task failed")

        task = asyncio.get_running_loop().create_task(run())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    def cancel(self) -> None:
        for task in list(self.tasks):
            task.cancel()
