"""The analysis worker is a loop pool of one: the loop's thread hands it each job itself,
with no helper thread to wait for (a ``ProcessPoolExecutor``'s ``submit`` held the loop
while its threads took turns with the interpreter; docs/benchmarks.md, the ninth
session's runs). Record and analysis cross the pipe compressed."""

from __future__ import annotations

import json
import os
import threading
import zlib

from server import RunningServer
from server.gateway import analyses as analyses_module
from server.gateway.analyses import AnalysisWorker
from server.loop_pool import LoopPool
from tests.server.helpers import finished_record_json, run


def test_an_analysis_runs_in_a_worker_process_and_starts_no_thread_in_the_server() -> None:
    async def test(server: RunningServer) -> None:
        record_json = await finished_record_json(server, 5)
        worker = AnalysisWorker(processes=True)
        threads_before = set(threading.enumerate())
        try:
            text = await worker.analyse(record_json, 0, "easy")
            assert isinstance(worker._executor, LoopPool)
            pids = worker._executor.pids
            new_threads = set(threading.enumerate()) - threads_before
        finally:
            worker.close()
        assert pids and os.getpid() not in pids
        assert new_threads == set()
        # the same analysis as worked out here, whole, through the compressed pipe
        assert json.loads(text) == json.loads(
            analyses_module.analyse_job(record_json, 0, "easy", 1, None)
        )
        assert json.loads(text)["seat"] == 0

    run(test)


def test_a_packed_job_answers_with_the_analysis_compressed() -> None:
    async def test(server: RunningServer) -> None:
        record_json = await finished_record_json(server, 7)
        packed = zlib.compress(record_json.encode())
        answer = analyses_module.analyse_packed(packed, 1, "easy", 0)
        plain = analyses_module.analyse_job(record_json, 1, "easy", 0, None)
        assert zlib.decompress(answer).decode() == plain
        assert len(answer) < len(plain)

    run(test)
