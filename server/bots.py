"""Bot decisions off the event loop: in worker processes, or one thread for tests.

    runner = BotRunner(workers=2)
    action = await runner.decide(view, "normal", seed=7, share="192.0.2.1")  # off the loop
    runner.close()

The executor is created on the first decision, so a server without bots starts no
process. Workers run at a lower priority (nice 19), so that thinking bots take only the
CPU the event loop leaves. Workers get only the seat's picklable
:class:`engine.PlayerView` (what that seat may know), the level and a seed, and build
the bot themselves. Game analyses (``get_analysis``) do not run here: they have a worker
of their own (:class:`server.gateway.analyses.AnalysisWorker`), so the bots' workers stay
free for live tables.

The workers are shared fairly among addresses (``share``: the table's address share, see
:func:`server.limits.address_share`): at most one decision per worker is handed to the
executor, and when a worker frees, the waiting share that used the workers least lately
(:class:`FairTurns`) goes next. Eight addresses keeping hard bots thinking then make an
honest player's easy bot wait for one decision at most, not for a queue of theirs.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import os
import time
from collections import deque
from collections.abc import Callable

from engine import Action, PlayerView
from engine.bot import LEVEL_CONFIGS, Bot
from server.loop_pool import LoopPool
from server.ops.timeslice import request_slice, yielding

__all__ = [
    "WORKER_NICENESS",
    "BotRunner",
    "FairTurns",
    "choose",
    "effort_iterations",
    "lower_priority",
]

log = logging.getLogger("server")


def choose(view: PlayerView, level: str, seed: int, iterations: int | None) -> Action:
    """Run in a worker: the bot's action for ``view``, at ``iterations`` if given, else
    at the level's own effort (a share of it: :func:`effort_iterations`)."""
    with yielding():  # a worker on the loop's core offers it back every millisecond
        return Bot(level, seed=seed, iterations=iterations).choose(view)


def effort_iterations(level: str, effort: float) -> int | None:
    """The ``iterations`` that give ``level`` ``effort`` times its own search effort:
    ``None`` (the level's own) at effort 1 and for a level without a search (``easy``),
    else its playouts scaled, at least 1. Raises ``ValueError`` for an effort that is
    not above 0."""
    if not effort > 0.0:
        raise ValueError(f"bot effort must be above 0, not {effort!r}")
    config = LEVEL_CONFIGS.get(level)
    if effort == 1.0 or config is None:
        return None
    return max(1, round(config.playouts * effort))


WORKER_NICENESS = 19
"""The bot workers' niceness. Where the server and its workers share a core, a wake-up of
the loop must take the core from a worker that is thinking: at nice 10 a process at
normal priority waking every 2 ms beside two busy workers was 3.8 ms late at p99, at 19
0.8 to 1.1 ms, and the workers did as much work (``bench/abuse_prio.py``, see
docs/benchmarks.md, Round 6). ``SCHED_IDLE`` was as quick for the loop but gave the
workers a third of what a nice-19 job of the host beside them got."""


def lower_priority() -> None:
    """Run in each worker as it starts (the bots' and the analyses'): their thinking
    yields the CPU to the event loop (niceness :data:`WORKER_NICENESS`, whatever the
    server's own), and they go back to the kernel's default time slice (a worker
    inherits the loop's short one, see :mod:`server.ops.timeslice`; it thinks in long
    runs). Raises nothing (a system without priorities: left as it is)."""
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, 0, max(WORKER_NICENESS, os.getpriority(os.PRIO_PROCESS, 0)))
    request_slice(0)


class FairTurns:
    """At most ``capacity`` holders at a time; among the shares waiting, the one that held
    a turn for the fewest seconds lately (halved every :attr:`HALF_LIFE` seconds) goes first,
    and each share's own waiters in order.

        await turns.enter(share)     # waits for a turn (cancellable)
        ...                          # the work
        turns.leave(share, seconds)  # the turn ends; it lasted ``seconds``

    ``clock``: seconds, ``time.monotonic`` by default (a test's own clock).
    """

    HALF_LIFE = 10.0
    FORGET_PAST = 1024  # shares remembered before the idle ones are forgotten

    def __init__(self, capacity: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.capacity = max(1, capacity)
        self.clock = clock
        self.busy = 0
        self.waiting: dict[str, deque[asyncio.Future[None]]] = {}
        self._used: dict[str, tuple[float, float]] = {}  # share -> (seconds, as of when)

    def usage(self, share: str, now: float | None = None) -> float:
        """Seconds of turns ``share`` held lately (decayed)."""
        now = self.clock() if now is None else now
        seconds, at = self._used.get(share, (0.0, now))
        return float(seconds * 0.5 ** (max(0.0, now - at) / self.HALF_LIFE))

    async def enter(self, share: str) -> None:
        """Wait for a turn for ``share``; raises ``CancelledError`` (holding no turn)."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting.setdefault(share, deque()).append(future)
        self._hand_out()
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():  # granted as it was cancelled
                self.busy -= 1
                self._hand_out()
            raise

    def leave(self, share: str, seconds: float) -> None:
        """End a turn of ``share`` that lasted ``seconds``; the next waiter gets it."""
        now = self.clock()
        self._used[share] = (self.usage(share, now) + seconds, now)
        self.busy -= 1
        self._hand_out()

    def _hand_out(self) -> None:
        now = self.clock()
        while self.busy < self.capacity and self.waiting:
            share = min(self.waiting, key=lambda s: self.usage(s, now))
            queue = self.waiting[share]
            future = queue.popleft()
            if not queue:
                del self.waiting[share]
            if future.done():  # its waiter was cancelled
                continue
            future.set_result(None)
            self.busy += 1
        if len(self._used) > self.FORGET_PAST:
            for share in [s for s in self._used if self.usage(s, now) < 0.001]:
                del self._used[share]


class BotRunner:
    """Lazily started workers for bot decisions: processes the event loop talks to itself
    (:class:`~server.loop_pool.LoopPool`: no helper thread takes turns with the loop's
    for every decision), or one thread when ``workers`` is 0."""

    def __init__(self, workers: int, iterations: int | None = None, effort: float = 1.0) -> None:
        effort_iterations("normal", effort)  # refuse a bad effort now, not at the first move
        self.workers = workers
        self.iterations = iterations
        self.effort = effort
        self._executor: concurrent.futures.Executor | LoopPool | None = None
        self.broken = 0
        self.turns = FairTurns(workers)  # a thread when there are no workers: one turn

    def _get_executor(self) -> concurrent.futures.Executor | LoopPool:
        if self._executor is None:
            if self.workers > 0:
                self._executor = LoopPool(self.workers, initializer=lower_priority)
            else:
                self._executor = concurrent.futures.ThreadPoolExecutor(
                    max_workers=1, thread_name_prefix="spades-bot"
                )
        return self._executor

    def warm(self) -> None:
        """Start a worker now (a bot just sat down), so its first move is not late."""
        if self._executor is None and self.workers > 0:
            pool = self._get_executor()
            if isinstance(pool, LoopPool):
                pool.warm()

    @property
    def uses_processes(self) -> bool:
        return isinstance(self._executor, LoopPool | concurrent.futures.ProcessPoolExecutor)

    @property
    def worker_pids(self) -> list[int]:
        """The process ids of the bot workers running now (none: threads or not started)."""
        return self._executor.pids if isinstance(self._executor, LoopPool) else []

    async def decide(self, view: PlayerView, level: str, seed: int, share: str = "") -> Action:
        """The bot's action for ``view`` at ``level``, when ``share`` (the table's address
        share) gets a turn of the workers (:class:`FairTurns`). Raises what the bot
        raises, or ``concurrent.futures.BrokenExecutor`` (a worker died)."""
        await self.turns.enter(share)
        started = time.monotonic()
        try:
            return await self._decide(view, level, seed)
        finally:
            self.turns.leave(share, time.monotonic() - started)

    async def _decide(self, view: PlayerView, level: str, seed: int) -> Action:
        loop = asyncio.get_running_loop()
        executor = self._get_executor()
        try:
            iterations = self.iterations
            if iterations is None:  # the share of the level's effort, worked out here
                iterations = effort_iterations(level, self.effort)
            if isinstance(executor, LoopPool):
                return await executor.run(choose, view, level, seed, iterations)
            return await loop.run_in_executor(executor, choose, view, level, seed, iterations)
        except concurrent.futures.BrokenExecutor:
            # a worker died: start a fresh pool for the next decision; if workers cannot
            # start at all (say the main module cannot be re-imported), think in a thread
            if self._executor is executor:
                self._executor = None
                _shut(executor)
                self.broken += 1
                if self.broken >= 2 and self.workers > 0:
                    log.warning("bot worker processes keep failing; bots think in a thread")
                    self.workers = 0
                    self.turns.capacity = 1  # the one thread
            raise

    def close(self) -> None:
        """Stop the workers (decisions in flight are abandoned)."""
        if self._executor is not None:
            _shut(self._executor)
            self._executor = None


def _shut(executor: concurrent.futures.Executor | LoopPool) -> None:
    if isinstance(executor, LoopPool):
        executor.close()
    else:
        executor.shutdown(wait=False, cancel_futures=True)
