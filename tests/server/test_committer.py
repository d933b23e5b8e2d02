"""The commit thread: batches run one at a time in the order submitted, each lands on the
loop once with what it raised, a flush can wait for one, and close runs what is queued."""

from __future__ import annotations

import asyncio
import threading

import pytest

from server.store.base import StoreError
from server.store.committer import CommitJob, Committer


class _Batch:
    def __init__(self, log: list[int], number: int, gate: threading.Event | None = None) -> None:
        self.log, self.number, self.gate = log, number, gate

    def run(self) -> None:
        if self.gate is not None:
            self.gate.wait(30)
        if self.number < 0:
            raise StoreError("the disk is full")
        self.log.append(self.number)

    def settle(self, committed: bool) -> None: ...


def test_batches_run_in_order_and_each_lands_on_the_loop_once() -> None:
    async def main() -> tuple[list[int], list[tuple[str, bool, bool]], str | None]:
        ran: list[int] = []
        landed: list[tuple[str, bool, bool]] = []
        every = asyncio.Event()
        loop_thread = threading.current_thread().name

        def on_landed(job: CommitJob[str]) -> None:
            on_loop = threading.current_thread().name == loop_thread
            landed.append((job.token, job.error is None, on_loop))
            if len(landed) == 5:
                every.set()

        committer: Committer[str] = Committer(asyncio.get_running_loop(), on_landed)
        gate = threading.Event()
        jobs = [committer.submit(_Batch(ran, 0, gate), "first")]
        jobs += [committer.submit(_Batch(ran, n), f"b{n}") for n in (1, 2)]
        jobs.append(committer.submit(_Batch(ran, -1), "lost"))
        jobs.append(committer.submit(_Batch(ran, 4), "after"))
        assert not jobs[0].done()  # held by its gate: nothing behind it ran either
        assert ran == []
        gate.set()
        jobs[-1].wait()
        await asyncio.wait_for(every.wait(), 30)
        committer.close()
        error = jobs[3].error
        return ran, landed, None if error is None else str(error)

    ran, landed, error = asyncio.run(main())
    assert ran == [0, 1, 2, 4]
    assert landed == [
        ("first", True, True),
        ("b1", True, True),
        ("b2", True, True),
        ("lost", False, True),
        ("after", True, True),
    ]
    assert error == "the disk is full"


def test_close_runs_what_is_queued_and_refuses_more() -> None:
    async def main() -> list[int]:
        ran: list[int] = []
        committer: Committer[None] = Committer(asyncio.get_running_loop(), lambda job: None)
        for number in range(3):
            committer.submit(_Batch(ran, number), None)
        committer.close()
        with pytest.raises(RuntimeError):
            committer.submit(_Batch(ran, 9), None)
        return ran

    assert asyncio.run(main()) == [0, 1, 2]
