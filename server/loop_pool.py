"""Worker processes the event loop talks to itself: no helper thread in the server.

    pool = LoopPool(workers=2, initializer=lower_priority)   # nothing starts yet
    pool.warm()                                  # one worker now (its first job is not late)
    result = await pool.run(choose, view, "hard", 7, None)    # in a worker process
    pool.pids                                    # the workers' process ids
    pool.close()                                 # workers stopped, jobs in flight abandoned

``concurrent.futures.ProcessPoolExecutor`` hands every job to a management thread (woken
through a pipe) and a queue's feeder thread (which pickles it), and every result back
through them: three threads of the server take turns holding the interpreter for each
bot decision. On a busy core the event loop's thread then waited 3 to 6 ms in
``submit`` for its turn to come back (the benchmark's probe of the longest loop turns:
``process.py wakeup < submit`` under every bot move, with 0.1 to 0.2 ms of CPU) while
every honest ping waited behind it. Here the loop's thread writes each job to an idle
worker's pipe itself and reads the result when the pipe is readable
(``loop.add_reader``): no thread, no hand-off.

A worker takes one job at a time; jobs wait in order for an idle worker. A function and
its arguments must be picklable and importable by the worker (``spawn``). Jobs and
answers are meant to be small (a bot's view, an action: a few KiB): one larger than a
pipe's buffer (64 KiB on Linux) makes the loop wait for the worker to read or write the
rest, so send large work compressed (the analysis worker of
:mod:`server.gateway.analyses` sends its record and gets its analysis back so). :meth:`run`
raises what the function raised, or
:class:`concurrent.futures.process.BrokenProcessPool` when its worker died (the next
job starts a new one), or ``RuntimeError`` once closed. A job whose caller gave up
(cancelled) still runs to its end in its worker, which then takes the next.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
from collections import deque
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.context import SpawnProcess
from typing import Any, TypeVar

__all__ = ["BrokenProcessPool", "LoopPool"]

T = TypeVar("T")

_Job = tuple[Callable[..., Any], tuple[Any, ...], "asyncio.Future[Any]"]


def _serve_jobs(conn: Connection, initializer: Callable[[], None] | None) -> None:
    """A worker's life: ``(function, arguments)`` in, ``(ok, result or error)`` out,
    until the server closes its end of the pipe."""
    if initializer is not None:
        initializer()
    while True:
        try:
            function, args = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        try:
            reply: tuple[bool, Any] = (True, function(*args))
        except Exception as error:
            reply = (False, error)
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return
        except Exception as error:  # the result or the error would not pickle
            conn.send((False, RuntimeError(f"the worker's answer could not be sent: {error!r}")))


@dataclass(eq=False)
class _Worker:
    process: SpawnProcess
    conn: Connection
    job: asyncio.Future[Any] | None = field(default=None)


class LoopPool:
    """At most ``workers`` processes (``spawn``), started as jobs need them; each runs
    ``initializer`` first (see the module)."""

    def __init__(self, workers: int, initializer: Callable[[], None] | None = None) -> None:
        if workers < 1:
            raise ValueError("a pool needs at least one worker")
        self.workers = workers
        self.initializer = initializer
        self._context = multiprocessing.get_context("spawn")
        self._running: list[_Worker] = []
        self._waiting: deque[_Job] = deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        self.closed = False

    @property
    def pids(self) -> list[int]:
        """The process ids of the workers running now."""
        return [w.process.pid for w in self._running if w.process.pid is not None]

    def warm(self) -> None:
        """Start one worker now if none runs (call it from the loop's thread)."""
        if not self._running and not self.closed:
            self._start()

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in a worker (see the module for what it raises)."""
        if self.closed:
            raise RuntimeError("the pool is closed")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._waiting.append((function, args, future))
        self._dispatch()
        return await future

    def _start(self) -> _Worker:
        self._loop = asyncio.get_running_loop()
        mine, theirs = self._context.Pipe(duplex=True)
        process = self._context.Process(
            target=_serve_jobs, args=(theirs, self.initializer), daemon=True
        )
        process.start()
        theirs.close()  # the worker's end lives in the worker: its exit reads as EOF here
        worker = _Worker(process, mine)
        self._running.append(worker)
        self._loop.add_reader(mine.fileno(), self._answered, worker)
        return worker

    def _dispatch(self) -> None:
        while self._waiting:
            function, args, future = self._waiting[0]
            if future.done():  # its caller gave up before its turn
                self._waiting.popleft()
                continue
            worker = next((w for w in self._running if w.job is None), None)
            if worker is None:
                if len(self._running) >= self.workers:
                    return  # every worker busy: the answer of one dispatches again
                worker = self._start()
            self._waiting.popleft()
            try:
                # one job per worker at a time: the pipe is empty, a job of a few KiB
                # fits its buffer, the write does not wait
                worker.conn.send((function, args))
            except (OSError, EOFError):
                self._lost(worker)
                future.set_exception(BrokenProcessPool("a bot worker process died"))
                continue
            except Exception as error:  # the job would not pickle
                future.set_exception(error)
                continue
            worker.job = future

    def _answered(self, worker: _Worker) -> None:
        try:
            ok, value = worker.conn.recv()
        except (EOFError, OSError):
            self._lost(worker)
            if worker.job is not None and not worker.job.done():
                worker.job.set_exception(BrokenProcessPool("a bot worker process died"))
            self._dispatch()
            return
        job, worker.job = worker.job, None
        if job is not None and not job.done():
            if ok:
                job.set_result(value)
            else:
                job.set_exception(value)
        self._dispatch()

    def _lost(self, worker: _Worker) -> None:
        if worker in self._running:
            self._running.remove(worker)
            if self._loop is not None:
                # the descriptor or the loop is gone already (a server closing)
                with contextlib.suppress(ValueError, OSError, RuntimeError, AttributeError):
                    self._loop.remove_reader(worker.conn.fileno())
        worker.conn.close()
        if not worker.process.is_alive():
            worker.process.join(0)

    def close(self) -> None:
        """Stop every worker; jobs waiting or in flight get ``BrokenProcessPool`` (a
        ``RuntimeError``, as an executor shut down gives them); again: no effect. Call
        it from the loop's thread."""
        self.closed = True
        for worker in list(self._running):
            job = worker.job
            self._lost(worker)  # the closed pipe ends the worker's loop
            worker.process.terminate()
            if job is not None and not job.done():
                job.set_exception(BrokenProcessPool("the pool is closed"))
        while self._waiting:
            _, _, future = self._waiting.popleft()
            if not future.done():
                future.set_exception(BrokenProcessPool("the pool is closed"))
