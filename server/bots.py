"""Bot decisions off the event loop: in worker processes, or one thread for tests.

    runner = BotRunner(workers=2)
    action = await runner.decide(view, "normal", seed=7)   # never blocks the loop
    runner.close()

The executor is created on the first decision, so a server without bots starts no
process. Workers run at a lower priority (nice 10), so that thinking bots take only the
CPU the event loop leaves. Workers get only the seat's picklable
:class:`engine.PlayerView` (what that seat may know), the level and a seed, and build
the bot themselves. Game analyses (``get_analysis``) do not run here: they have a worker
of their own (:class:`server.gateway.analyses.AnalysisWorker`), so the bots' workers stay
free for live tables.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import multiprocessing
import os

from engine import Action, PlayerView
from engine.analysis import analysis_to_dict, analyze_record
from engine.bot import Bot

__all__ = ["BotRunner", "analyse", "choose"]

log = logging.getLogger("server")


def choose(view: PlayerView, level: str, seed: int, iterations: int | None) -> Action:
    """Run in a worker: the bot's action for ``view``."""
    return Bot(level, seed=seed, iterations=iterations).choose(view)


def analyse(record_json: str, seat: int, level: str) -> str:
    """Run in a worker: ``engine.analysis`` of ``seat`` in a record, as JSON text.

    Raises :class:`~engine.errors.EngineError` (or ``ValueError``) for a bad record.
    """
    record = json.loads(record_json)
    return json.dumps(analysis_to_dict(analyze_record(record, seat, level)))


def _lower_priority() -> None:
    """Run in each worker as it starts: bot thinking yields the CPU to the event loop."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)


def _ready() -> bool:
    """Run in a worker to start it (and import the engine) before the first decision."""
    return True


class BotRunner:
    """A lazily created executor for bot decisions."""

    def __init__(self, workers: int, iterations: int | None = None) -> None:
        self.workers = workers
        self.iterations = iterations
        self._executor: concurrent.futures.Executor | None = None
        self.broken = 0

    def _get_executor(self) -> concurrent.futures.Executor:
        if self._executor is None:
            if self.workers > 0:
                self._executor = concurrent.futures.ProcessPoolExecutor(
                    max_workers=self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_lower_priority,
                )
            else:
                self._executor = concurrent.futures.ThreadPoolExecutor(
                    max_workers=1, thread_name_prefix="spades-bot"
                )
        return self._executor

    def warm(self) -> None:
        """Start a worker now (a bot just sat down), so its first move is not late."""
        if self._executor is None and self.workers > 0:
            self._get_executor().submit(_ready)

    @property
    def uses_processes(self) -> bool:
        return isinstance(self._executor, concurrent.futures.ProcessPoolExecutor)

    async def decide(self, view: PlayerView, level: str, seed: int) -> Action:
        loop = asyncio.get_running_loop()
        executor = self._get_executor()
        try:
            return await loop.run_in_executor(executor, choose, view, level, seed, self.iterations)
        except concurrent.futures.BrokenExecutor:
            # a worker died: start a fresh pool for the next decision; if workers cannot
            # start at all (say the main module cannot be re-imported), think in a thread
            if self._executor is executor:
                self._executor = None
                executor.shutdown(wait=False, cancel_futures=True)
                self.broken += 1
                if self.broken >= 2 and self.workers > 0:
                    log.warning("bot worker processes keep failing; bots think in a thread")
                    self.workers = 0
            raise

    async def analyse(self, record_json: str, seat: int, level: str) -> str:
        """The analysis of ``seat`` in a record (see :func:`analyse`), off the event loop.

        Raises what :func:`analyse` raises, or ``concurrent.futures.BrokenExecutor``.
        """
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._get_executor(), analyse, record_json, seat, level)

    def close(self) -> None:
        """Stop the workers (decisions in flight are abandoned)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
