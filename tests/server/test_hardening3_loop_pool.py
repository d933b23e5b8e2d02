"""The bot workers' pool talks to its processes from the event loop's own thread
(server/loop_pool.py): no helper thread takes turns with the loop for each decision."""

from __future__ import annotations

import asyncio
import os
import threading
import time

import pytest

from server.bots import BotRunner
from server.loop_pool import BrokenProcessPool, LoopPool


def _pid_of_worker(tag: int) -> tuple[int, int]:
    return os.getpid(), tag


def _fail(text: str) -> None:
    raise ValueError(text)


def _die() -> None:
    os._exit(3)


def _sleep(seconds: float) -> None:
    time.sleep(seconds)


def test_jobs_run_in_worker_processes_and_start_no_thread_in_the_server() -> None:
    async def scenario() -> None:
        threads_before = threading.active_count()
        pool = LoopPool(2)
        try:
            answers = await asyncio.gather(*(pool.run(_pid_of_worker, tag) for tag in range(6)))
            # executor pools start a management thread and a queue feeder thread here
            assert threading.active_count() == threads_before
        finally:
            pool.close()
        assert [tag for _, tag in answers] == list(range(6))
        assert all(pid != os.getpid() for pid, _ in answers)
        assert len({pid for pid, _ in answers}) <= 2

    asyncio.run(scenario())


def test_one_worker_takes_waiting_jobs_in_order_and_errors_come_back() -> None:
    async def scenario() -> None:
        pool = LoopPool(1)
        try:
            first = asyncio.ensure_future(pool.run(_pid_of_worker, 1))
            failing = asyncio.ensure_future(pool.run(_fail, "no such move"))
            third = asyncio.ensure_future(pool.run(_pid_of_worker, 3))
            assert (await first)[1] == 1
            with pytest.raises(ValueError, match="no such move"):
                await failing
            assert (await third)[1] == 3
            assert len(pool.pids) == 1
        finally:
            pool.close()
        with pytest.raises(RuntimeError):
            await pool.run(_pid_of_worker, 4)

    asyncio.run(scenario())


def test_a_worker_that_dies_fails_its_job_and_the_next_job_gets_a_new_worker() -> None:
    async def scenario() -> None:
        pool = LoopPool(1)
        try:
            first_pid, _ = await pool.run(_pid_of_worker, 0)
            with pytest.raises(BrokenProcessPool):
                await pool.run(_die)
            second_pid, tag = await pool.run(_pid_of_worker, 5)
            assert tag == 5 and second_pid != first_pid
        finally:
            pool.close()

    asyncio.run(scenario())


def test_closing_fails_the_jobs_in_flight_and_waiting_as_a_broken_pool() -> None:
    async def scenario() -> None:
        pool = LoopPool(1)
        running = asyncio.ensure_future(pool.run(_sleep, 30.0))
        waiting = asyncio.ensure_future(pool.run(_pid_of_worker, 1))
        await asyncio.sleep(0)  # both handed to the pool: one sent, one waiting
        pool.close()
        for job in (running, waiting):
            with pytest.raises(BrokenProcessPool):
                await job

    asyncio.run(scenario())


def test_the_bot_runner_uses_the_loop_pool_for_its_workers() -> None:
    async def scenario() -> None:
        runner = BotRunner(workers=1)
        try:
            runner.warm()
            assert runner.uses_processes
            assert len(runner.worker_pids) == 1 and os.getpid() not in runner.worker_pids
        finally:
            runner.close()
        assert runner.worker_pids == []

    asyncio.run(scenario())
