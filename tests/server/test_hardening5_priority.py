"""The bot workers think at the lowest niceness, so the loop's wake-ups on a core it
shares with them are not held behind a decision (docs/benchmarks.md, Round 6)."""

from __future__ import annotations

import asyncio
import os

from server.bots import BotRunner
from server.gateway.analyses import AnalysisWorker


def test_bot_workers_run_at_niceness_19_under_the_normal_scheduler() -> None:
    async def scenario() -> tuple[int, int]:
        runner = BotRunner(workers=1)
        try:
            pool = runner._get_executor()
            niceness = await pool.run(os.getpriority, os.PRIO_PROCESS, 0)  # type: ignore[union-attr]
            policy = await pool.run(os.sched_getscheduler, 0)  # type: ignore[union-attr]
            return int(niceness), int(policy)
        finally:
            runner.close()

    niceness, policy = asyncio.run(scenario())
    assert niceness == 19
    # not SCHED_IDLE: a nice-19 job of the host beside the workers would starve them
    assert policy == os.SCHED_OTHER


def test_the_analysis_worker_runs_at_the_bot_workers_niceness() -> None:
    # an analysis at nice 10 beside bots at 19 would take the core from them nine to one
    async def scenario() -> int:
        worker = AnalysisWorker(processes=True)
        try:
            pool = worker._get_executor()
            return int(await pool.run(os.getpriority, os.PRIO_PROCESS, 0))  # type: ignore[union-attr]
        finally:
            worker.close()

    assert asyncio.run(scenario()) == 19
