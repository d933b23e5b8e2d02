"""One long-lived thread that runs a store's commit batches, in order, off the loop.

    committer = Committer(loop, landed)     # landed(job) runs on the loop for each batch
    job = committer.submit(batch, token)    # queued; the thread runs batch.run()
    job.wait()                              # block until it ran (a flush on the loop)
    job.seconds, job.error, job.token       # what it took; what it raised (or None)
    committer.close()                       # the thread ends after what is queued

A turn's commit is handed over with one queue put and, when it is done, one
``call_soon_threadsafe`` wake-up of the loop: no future, no executor bookkeeping per
commit (a ``ThreadPoolExecutor.submit`` was a measurable share of the loop's time under
load). The thread starts on the first submit. Batches run one at a time in the order
submitted, so every table's writes keep their order. ``landed`` is not called for a job
once the loop is closed. Nothing here raises but :meth:`submit` after :meth:`close`
(``RuntimeError``).
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
import time
from collections.abc import Callable
from typing import Generic, TypeVar

from server.store.base import CommitBatch

__all__ = ["CommitJob", "Committer"]

T = TypeVar("T")


class CommitJob(Generic[T]):
    """One batch handed to the thread; ``token`` is the caller's (what the batch was for)."""

    __slots__ = ("_done", "batch", "error", "seconds", "token")

    def __init__(self, batch: CommitBatch, token: T) -> None:
        self.batch = batch
        self.token = token
        self.seconds = 0.0
        self.error: Exception | None = None
        self._done = threading.Lock()
        self._done.acquire()  # released by the thread when the batch has run

    def run(self) -> None:
        started = time.perf_counter()
        try:
            self.batch.run()
        except Exception as error:  # handed to the loop, which refuses the turn
            self.error = error
        finally:
            self.seconds = time.perf_counter() - started
            self._done.release()

    def done(self) -> bool:
        """Whether the batch has run."""
        if self._done.acquire(blocking=False):
            self._done.release()
            return True
        return False

    def wait(self) -> None:
        """Block until the batch has run."""
        self._done.acquire()
        self._done.release()


class Committer(Generic[T]):
    """The commit thread of one unit of work (see the module)."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        landed: Callable[[CommitJob[T]], None],
        name: str = "spades-commit",
    ) -> None:
        self._loop = loop
        self._landed = landed
        self._name = name
        self._jobs: queue.SimpleQueue[CommitJob[T] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._closed = False

    def submit(self, batch: CommitBatch, token: T) -> CommitJob[T]:
        """Queue ``batch``; ``landed(job)`` is called on the loop once it has run."""
        if self._closed:
            raise RuntimeError("the committer is closed")
        job = CommitJob(batch, token)
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, name=self._name, daemon=True)
            self._thread.start()
        self._jobs.put(job)
        return job

    def _work(self) -> None:
        jobs, loop, landed = self._jobs, self._loop, self._landed
        while True:
            job = jobs.get()
            if job is None:
                return
            job.run()
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(landed, job)

    def close(self) -> None:
        """End the thread once the jobs queued so far have run (waits for it)."""
        self._closed = True
        thread, self._thread = self._thread, None
        if thread is not None:
            self._jobs.put(None)
            thread.join()
