"""The analysis queue: ``get_analysis`` work, bounded and shared fairly.

    queue = AnalysisQueue(config, store, bots, sent=budget_spend)
    queue.ask(session, player_id, message, record_json, seats)   # raises RequestError
    queue.cancel()                                               # the server is closing

One job per record, seat and level, however many ask; each job keeps one list of
waiters (a connection and the request ids it is owed), never a task per request. A
connection may wait for one analysis at a time (asking again for the same one adds its
request id, up to a few); an address for ``analysis_per_address`` at once; the server
queues at most ``analysis_queue_limit`` jobs, beyond which only a seat of the game
(a player of the table that played it, while it is in memory) is queued. Refusals:
``rate_limited`` (this connection or address is already waiting) and ``server_full``
(the queue is full).

Analyses run one at a time, in a worker of their own (:class:`AnalysisWorker`: a
process at low priority, or a thread when the bots think in one), so the bots' workers
stay free for the tables. The process is a :class:`~server.loop_pool.LoopPool` of one:
the loop's thread writes each job to its pipe itself, as for the bots, because a
``ProcessPoolExecutor`` hands each job to helper threads and the loop then waited for
the interpreter in ``submit`` while every honest ping waited behind it. The record goes
in and the analysis comes back compressed, so neither outgrows the pipe's buffer.
The next job is the oldest one a seat of its game waits for
(a player of the table that played it), else the oldest. Waiters whose connection closed
are dropped before each job starts, before each new request is counted and every
``watch_seconds`` while a job runs: a queued job nobody waits for any more is dropped
unworked, and a running one is called off (the worker stops at its next decision, and
nothing is cached).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import json
import logging
import multiprocessing
import zlib
from collections.abc import Awaitable, Callable, Collection
from ctypes import c_long
from dataclasses import dataclass, field
from typing import Final

from pydantic import BaseModel

from engine.analysis import analysis_to_dict, analyze_record
from protocol import messages as m
from server.bots import BotRunner, lower_priority
from server.config import ServerConfig
from server.errors import RequestError, ServerError
from server.gateway.session import Session, error_message
from server.loop_pool import LoopPool
from server.ops.timeslice import yielding
from server.store import Storage

__all__ = [
    "AnalysisAbandoned",
    "AnalysisKey",
    "AnalysisQueue",
    "AnalysisWorker",
    "analyse_job",
    "analyse_packed",
]

log = logging.getLogger("server")

AnalysisKey = tuple[str, int, m.BotLevel]  # record id, seat, level

_IDS_PER_WAITER = 4  # the same analysis asked again on one connection: answered this often
WATCH_SECONDS: Final = 0.5
"""How often a running analysis looks whether anyone still waits for it."""


class AnalysisAbandoned(ServerError):
    """Raised in the worker by :func:`analyse_job` once its job was called off."""


_CURRENT: c_long | None = None  # in a worker process: the job that may run (see _install)


def _install(current: c_long) -> None:
    """Run in the analysis worker process as it starts: the shared job number, and a
    lower priority (the bots' workers' niceness: analyses share what the event loop
    leaves with the bots, as equals)."""
    global _CURRENT
    _CURRENT = current
    lower_priority()


def analyse_job(
    record_json: str, seat: int, level: str, job: int, current: c_long | None = None
) -> str:
    """Run in the worker: ``engine.analysis`` of ``seat`` in a record, as JSON text, for
    as long as ``current`` (the process's own when ``None``) still says ``job``.

    Raises :class:`AnalysisAbandoned` at the first decision after it stopped saying so,
    :class:`~engine.errors.EngineError` (or ``ValueError``) for a bad record."""
    flag = current if current is not None else _CURRENT

    def still_wanted(done: int, total: int) -> None:
        if flag is not None and flag.value != job:
            raise AnalysisAbandoned(f"analysis {job} called off after {done} of {total}")

    record = json.loads(record_json)
    with yielding():  # offer the loop's core back every millisecond while it works
        analysis = analyze_record(record, seat, level, progress=still_wanted)
    return json.dumps(analysis_to_dict(analysis))


def analyse_packed(packed_record: bytes, seat: int, level: str, job: int) -> bytes:
    """Run in the worker process: :func:`analyse_job` of a zlib-compressed record, the
    analysis compressed back (both stay well inside a pipe's buffer). Raises what
    :func:`analyse_job` raises."""
    record_json = zlib.decompress(packed_record).decode()
    return zlib.compress(analyse_job(record_json, seat, level, job).encode(), 1)


class AnalysisWorker:
    """The one worker analyses run in: a process (``processes``: a
    :class:`~server.loop_pool.LoopPool` of one) or a thread, made on the first analysis.

        text = await worker.analyse(record_json, seat, level)   # cancellable
        worker.close()

    Cancelling ``analyse`` stops the work at the analysis's next decision (the worker is
    free again at once for the next one). Raises what :func:`analyse_job` raises, or
    ``concurrent.futures.BrokenExecutor`` when the worker died (the next one starts a
    fresh worker)."""

    def __init__(self, processes: bool) -> None:
        self.processes = processes
        self._current = multiprocessing.get_context("spawn").RawValue(c_long, 0)
        self._executor: concurrent.futures.Executor | LoopPool | None = None
        self._jobs = 0

    def _get_executor(self) -> concurrent.futures.Executor | LoopPool:
        if self._executor is None:
            if self.processes:
                self._executor = LoopPool(1, initializer=functools.partial(_install, self._current))
            else:
                self._executor = concurrent.futures.ThreadPoolExecutor(
                    max_workers=1, thread_name_prefix="spades-analysis"
                )
        return self._executor

    async def analyse(self, record_json: str, seat: int, level: str) -> str:
        self._jobs += 1
        job = self._current.value = self._jobs
        executor = self._get_executor()
        try:
            if isinstance(executor, LoopPool):
                packed = zlib.compress(record_json.encode(), 1)
                answer = await executor.run(analyse_packed, packed, seat, level, job)
                return zlib.decompress(answer).decode()
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(
                executor, analyse_job, record_json, seat, level, job, self._current
            )
        except concurrent.futures.BrokenExecutor:
            # a LoopPool starts a new worker for the next job by itself
            if self._executor is executor and not isinstance(executor, LoopPool):
                self._executor = None
                executor.shutdown(wait=False, cancel_futures=True)
            raise
        finally:
            if self._current.value == job:
                self._current.value = 0  # if it still runs (called off): it stops

    def close(self) -> None:
        """Stop the worker (an analysis under way stops at its next decision)."""
        self._current.value = 0
        if isinstance(self._executor, LoopPool):
            self._executor.close()
        elif self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
        self._executor = None


@dataclass
class _Waiter:
    session: Session
    address: str
    player_id: str
    ids: list[int | None] = field(default_factory=list)


@dataclass
class _Job:
    key: AnalysisKey
    record_json: str
    seats: frozenset[str]
    waiters: dict[int, _Waiter] = field(default_factory=dict)  # by session id

    @property
    def for_a_seat(self) -> bool:
        return any(w.player_id in self.seats for w in self.waiters.values())


class AnalysisQueue:
    """The server's queue of analyses (see the module)."""

    def __init__(
        self,
        config: ServerConfig,
        store: Storage,
        bots: BotRunner,
        sent: Callable[[str, int], None] = lambda address, size: None,
    ) -> None:
        self.config = config
        self.sent = sent  # bytes of an answer sent to an address (its byte budget)
        self.store = store
        self.bots = bots
        self.jobs: dict[AnalysisKey, _Job] = {}  # queued, oldest first (the running one too)
        self.running: AnalysisKey | None = None
        self._by_session: dict[int, _Job] = {}
        self._worker: asyncio.Task[None] | None = None
        self.worker = AnalysisWorker(processes=bots.workers > 0)
        # what works an analysis out (a test stands in for it)
        self.analyse: Callable[[str, int, str], Awaitable[str]] = self.worker.analyse
        self.watch_seconds = WATCH_SECONDS
        self.worked = 0  # analyses worked out (for tests and the bench)
        self.dropped = 0  # queued jobs dropped because nobody waited any more
        self.abandoned = 0  # running jobs called off because nobody waited any more

    # ---- asking -------------------------------------------------------------------

    def ask(
        self,
        session: Session,
        player_id: str,
        message: m.GetAnalysis,
        record_json: str,
        seats: Collection[str],
    ) -> None:
        """Queue ``message``'s analysis for ``session`` (answered when worked out).

        Raises :class:`RequestError` ``rate_limited`` (this connection waits for another
        analysis, or asked this one too often; this address waits for enough) or
        ``server_full`` (the queue is full)."""
        self.prune()
        key = (message.record_id, message.seat, message.level)
        mine = self._by_session.get(session.id)
        if mine is not None:
            if mine.key != key:
                raise RequestError(
                    "rate_limited",
                    "this connection already waits for an analysis: one at a time",
                )
            waiter = mine.waiters[session.id]
            if len(waiter.ids) >= _IDS_PER_WAITER:
                raise RequestError("rate_limited", "this analysis was asked for often enough")
            waiter.ids.append(message.id)
            return
        address = session.address
        waiting = sum(
            1
            for job in self.jobs.values()
            for waiter in job.waiters.values()
            if waiter.address == address
        )
        if waiting >= self.config.analysis_per_address:
            raise RequestError(
                "rate_limited",
                f"your address already waits for {waiting} analyses; ask when one is done",
            )
        job = self.jobs.get(key)
        if job is None:
            # a seat of the game is queued even then (it waits for one at most)
            full = len(self.jobs) >= self.config.analysis_queue_limit
            if full and player_id not in seats:
                raise RequestError(
                    "server_full", "the server has as many analyses queued as it takes"
                )
            job = self.jobs[key] = _Job(key, record_json, frozenset(seats))
        job.waiters[session.id] = _Waiter(session, address, player_id, [message.id])
        self._by_session[session.id] = job
        if self._worker is None or self._worker.done():
            self._worker = asyncio.get_running_loop().create_task(self._work())

    def waiting(self) -> int:
        """Requests waiting (connections), for tests and the bench."""
        return sum(len(job.waiters) for job in self.jobs.values())

    def prune(self) -> None:
        """Drop the waiters of closed connections, and queued jobs nobody waits for."""
        for session_id, job in list(self._by_session.items()):
            waiter = job.waiters.get(session_id)
            if waiter is None or waiter.session.closed:
                job.waiters.pop(session_id, None)
                del self._by_session[session_id]
        for key, job in list(self.jobs.items()):
            if not job.waiters and key != self.running:
                del self.jobs[key]
                self.dropped += 1

    # ---- working ------------------------------------------------------------------

    def _next(self) -> _Job | None:
        self.prune()
        first = None
        for job in self.jobs.values():
            if job.for_a_seat:
                return job
            if first is None:
                first = job
        return first

    async def _work(self) -> None:
        while (job := self._next()) is not None:
            self.running = job.key
            try:
                text = await self._run(job)
                if text is None:
                    self.abandoned += 1
                    continue
                self.store.save_analysis(*job.key, text)
                self.worked += 1
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("record %s: the analysis failed", job.key[0])
                self._answer(job, None)
            else:
                self._answer(job, text)
            finally:
                self.running = None
                self.jobs.pop(job.key, None)

    async def _run(self, job: _Job) -> str | None:
        """``job``'s analysis; ``None`` when nobody waited for it any more (called off)."""
        work = asyncio.ensure_future(self.analyse(job.record_json, job.key[1], job.key[2]))
        try:
            while True:
                done, _ = await asyncio.wait({work}, timeout=self.watch_seconds)
                if done:
                    return work.result()
                self.prune()
                if not job.waiters:
                    return None
        finally:
            if not work.done():
                work.cancel()

    def _answer(self, job: _Job, text: str | None) -> None:
        record_id, seat, level = job.key
        for session_id, waiter in job.waiters.items():
            self._by_session.pop(session_id, None)
            for req_id in waiter.ids:
                if text is None:
                    reply: BaseModel = error_message(
                        "internal_error", "the analysis failed", "get_analysis", req_id
                    )
                else:
                    reply = m.AnalysisMessage(
                        record_id=record_id,
                        seat=seat,
                        level=level,
                        analysis_json=text,
                        id=req_id,
                    )
                waiter.session.send(reply)
                if text is not None and not waiter.session.closed:
                    self.sent(waiter.address, len(text))
        job.waiters.clear()

    def cancel(self) -> None:
        """The server is closing: the queue is dropped, the analysis under way abandoned."""
        if self._worker is not None:
            self._worker.cancel()
        self.worker.close()
        self.jobs.clear()
        self._by_session.clear()
