"""Issue 25 (hardening 3), the leftovers of round 3: the order of the two request
budgets, msgpack frames bloated with keys, the analysis nobody waits for, and the
analysis and report settings as options of ``spades serve``."""

from __future__ import annotations

import asyncio
import json
import random
import socket
from ctypes import c_long
from multiprocessing.sharedctypes import RawValue
from types import SimpleNamespace
from typing import Any

import msgpack
import pytest
from websockets.asyncio import server as ws_server

from protocol import messages as m
from server import RunningServer
from server.gateway import analyses as analyses_module
from server.gateway import router as router_module
from server.net.listener import ACCEPT_BATCH
from server.net.transport import Transport
from server.ops.report_budget import ReportBudget
from tests.server.helpers import (
    TEST_CONFIG,
    Client,
    finished_record_json,
    handshakes_started,
    play_to_end,
    run,
    serve_config,
    two_players,
)

# ---- the connection's token is spent only when the address's budget allows -------------


def test_a_request_the_address_budget_refuses_costs_the_connection_no_token() -> None:
    async def test(server: RunningServer) -> None:
        client = await Client.hello(server.url, "alice")
        session = next(iter(server.hub.transport.sessions))
        session.rate.tokens = 5.0
        session.rate.rate = 0.0  # nothing comes back while the test runs
        budget = server.hub.router.budgets
        bucket = next(iter(budget.buckets.values()))
        bucket.tokens, bucket.rate = 0.0, 0.0  # the address has nothing left
        refused = []
        for _ in range(3):
            refused.append(await client.error(m.Ping(), "rate_limited"))
        assert len(refused) == 3
        assert session.rate.tokens == 5.0  # the connection kept every token
        bucket.tokens = 10.0
        await client.request(m.Ping(nonce=1), m.Pong)
        assert session.rate.tokens == 4.0  # an answered request costs one

    run(test)


# ---- a msgpack frame of hundreds of keys is refused before the decoder ----------------


def test_msgpack_with_hundreds_of_unknown_keys_is_refused_before_decoding(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    decoded: list[bytes] = []
    real = router_module.decode_client

    def counting(data: bytes, limit: int) -> m.ClientMessage:
        decoded.append(data)
        return real(data, limit)

    monkeypatch.setattr(router_module, "decode_client", counting)

    async def test(server: RunningServer) -> None:
        client = await Client.hello(server.url, "alice")
        decoded.clear()
        bloated = {"type": "ping", "id": 3, **{f"k{i}": 0 for i in range(300)}}
        await client.send_raw(msgpack.packb(bloated))
        error = await client.expect(m.ErrorMessage)
        assert error.code == "bad_message"
        assert decoded == []  # never unpacked into a dict nor handed to the validator
        nested = {"type": "create_table", "overrides": {f"k{i}": 0 for i in range(100)}}
        await client.send_raw(msgpack.packb(nested))
        assert (await client.expect(m.ErrorMessage)).code == "bad_message"
        assert decoded == []
        # an ordinary request of the largest kind still goes through
        create = m.CreateTable(overrides={"target_score": 300, "nil": True}, bot="easy")
        await client.request(create, m.Snapshot)
        assert len(decoded) == 1

    run(test)


# ---- a handshake shed past the per-address bound costs no task ------------------------


def test_a_connection_shed_past_the_half_open_bound_starts_no_handshake(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    started = handshakes_started(monkeypatch)

    async def test(server: RunningServer) -> None:
        writers = []
        for _ in range(22):  # never finish their request
            _, writer = await asyncio.open_connection(
                "127.0.0.1", server.port, local_addr=("127.0.0.9", 0)
            )
            writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n")
            writers.append(writer)
        honest = await Client.hello(server.url, "honest")  # after the 22 in the backlog
        assert (await honest.request(m.Ping(nonce=7), m.Pong)).nonce == 7
        # the two admitted sockets and the honest one got a handshake; 20 shed got none
        assert len(started) == 3
        for writer in writers:
            writer.close()

    run(test, handshake_timeout=60, max_half_open_per_address=2)


# ---- an analysis nobody waits for any more is called off --------------------------------


class _Held:
    """Stands in for ``AnalysisQueue.analyse``: waits until cancelled, and says so."""

    def __init__(self) -> None:
        self.started = 0
        self.cancelled = 0

    async def analyse(self, record_json: str, seat: int, level: str) -> str:
        self.started += 1
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            self.cancelled += 1
            raise
        return "{}"


def test_a_running_analysis_is_called_off_when_its_last_waiter_leaves() -> None:
    async def test(server: RunningServer) -> None:
        queue = server.hub.services.analyses
        held = _Held()
        queue.analyse = held.analyse
        queue.watch_seconds = 0.02
        alice = await Client.hello(server.url, "alice")
        await alice.request(
            m.CreateTable(preset="classic", overrides={"target_score": 1}, bot="easy"), m.Snapshot
        )
        over = await play_to_end(alice, random.Random(5))
        assert isinstance(over, m.GameOver) and over.record_id is not None
        asker = await Client.hello(server.url, "bob")
        await asker.send(m.GetAnalysis(record_id=over.record_id, seat=0, level="easy", id=1))
        for _ in range(500):
            if held.started:
                break
            await asyncio.sleep(0.01)
        assert held.started == 1 and queue.running is not None
        await asker.close()
        for _ in range(500):
            if held.cancelled:
                break
            await asyncio.sleep(0.01)
        assert held.cancelled == 1 and queue.abandoned == 1
        assert queue.running is None and not queue.jobs
        assert server.hub.store.analysis_json(over.record_id, 0, "easy") is None

    run(test)


def test_the_analysis_worker_stops_at_the_next_decision_once_called_off() -> None:
    async def test(server: RunningServer) -> None:
        record_json = await finished_record_json(server, 5)
        judged: list[int] = []
        flag = RawValue(c_long, 1)
        real = analyses_module.analyze_record

        def counting(record: Any, seat: int, level: str, progress: Any) -> Any:
            def step(done: int, total: int) -> None:
                judged.append(done)
                if done == 2:
                    flag.value = 0  # called off during the second decision
                progress(done, total)

            return real(record, seat, level, progress=step)

        analyses_module.analyze_record = counting  # type: ignore[assignment]
        try:
            with pytest.raises(analyses_module.AnalysisAbandoned):
                analyses_module.analyse_job(record_json, 0, "easy", 1, flag)
        finally:
            analyses_module.analyze_record = real
        assert judged == [1, 2]  # the third decision was never judged
        flag.value = 2
        text = analyses_module.analyse_job(record_json, 0, "easy", 2, flag)
        assert json.loads(text)["seat"] == 0

    run(test)


# ---- the analysis and report settings are options of spades serve -----------------------


def test_spades_serve_takes_the_analysis_and_report_options() -> None:
    config = serve_config(
        "--analysis-queue-limit=5",
        "--analysis-per-address=1",
        "--report-cooldown=90",
        "--address-reports-per-minute=0.5",
        "--address-report-burst=2",
    )
    assert (config.analysis_queue_limit, config.analysis_per_address) == (5, 1)
    assert config.report_cooldown_seconds == 90.0
    assert config.reports_per_minute_per_address == 0.5
    assert config.report_burst_per_address == 2
    budget = ReportBudget.from_config(config)
    assert budget.refusal("p1", 0.0, address="10.0.0.1", seated=True) is None
    refusal = budget.refusal("p1", 60.0, address="10.0.0.1", seated=True)
    assert refusal is not None and "less than 90 s ago" in refusal
    assert budget.refusal("p2", 60.0, address="10.0.0.1", seated=True) is None
    refusal = budget.refusal("p3", 61.0, address="10.0.0.1", seated=True)
    assert refusal is not None and "network address" in refusal  # a burst of 2


def test_the_report_options_reach_the_running_server() -> None:
    async def test(server: RunningServer) -> None:
        budget = server.hub.moderation.report_budget
        assert budget.cooldown == 5.0
        assert budget.refusal("p1", 0.0, address="10.0.0.1", seated=True) is None
        assert budget.refusal("p1", 6.0, address="10.0.0.1", seated=True) is not None

    run(test, report_cooldown_seconds=5.0, report_burst_per_address=1)


# ---- connections take turns: a burst from one is not handled in one block ---------------


class _Burst:
    """A connection whose frames are all there already (``recv`` does not wait)."""

    def __init__(self, name: str, frames: int) -> None:
        self.frames = [f"{name}{n}" for n in range(frames)]
        self.closed = False
        self.player = object()  # welcomed: no hello deadline

    async def recv(self) -> str:
        if self.frames:
            return self.frames.pop(0)
        await asyncio.Event().wait()  # nothing more: wait (cancelled by the test)
        return ""


def test_connections_take_turns_with_the_frames_they_sent() -> None:
    handled: list[str] = []
    parts: Any = SimpleNamespace(
        handle_data=lambda session, data: handled.append(data), now=lambda: 0.0
    )
    transport: Any = Transport(TEST_CONFIG, parts)

    async def test() -> None:
        burst, honest = _Burst("a", 20), _Burst("b", 1)
        readers = [
            asyncio.create_task(transport._read(burst, burst)),
            asyncio.create_task(transport._read(honest, honest)),
        ]
        for _ in range(100):
            await asyncio.sleep(0)
        for reader in readers:
            reader.cancel()
        await asyncio.gather(*readers, return_exceptions=True)

    asyncio.run(test())
    assert len(handled) == 21
    # the one frame of the other connection is handled after the first of the burst,
    # not after all twenty
    assert handled.index("b0") == 1


def test_a_request_past_the_budget_is_refused_before_it_is_decoded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    decoded: list[bytes] = []
    real = router_module.decode_client

    def counting(data: bytes, limit: int) -> m.ClientMessage:
        decoded.append(data)
        return real(data, limit)

    monkeypatch.setattr(router_module, "decode_client", counting)

    async def test(server: RunningServer) -> None:
        client = await Client.hello(server.url, "alice")
        session = next(iter(server.hub.transport.sessions))
        session.rate.tokens, session.rate.rate = 0.0, 1e-9
        decoded.clear()
        error = await client.error(m.ListTables(), "rate_limited")
        assert error.request == "list_tables" and error.id is not None  # echoed all the same
        assert decoded == []

    run(test)


# ---- a game given up before anyone acted: its record lives and goes with its table ------


def test_an_unplayed_forfeit_keeps_its_record_with_its_table_only() -> None:
    async def test(server: RunningServer) -> None:
        alice, bob, code = await two_players(server)
        await alice.send(m.Leave(code=code, id=alice.new_id()))
        over = await bob.expect(m.GameOver)
        assert over.record_id is not None
        # the other player may still read it while the table lives...
        record = await bob.request(m.GetRecord(record_id=over.record_id), m.RecordMessage)
        assert json.loads(record.record_json)
        store: Any = server.hub.store
        assert store.record_json(over.record_id) is None  # ...from memory, never stored
        await bob.send(m.Leave(code=code, id=bob.new_id()))
        await bob.expect(m.Left)
        for _ in range(500):
            if code not in server.hub.rooms.rooms:
                break
            await asyncio.sleep(0.01)
        assert code not in server.hub.rooms.rooms
        # ...and it goes with the table
        await bob.error(m.GetRecord(record_id=over.record_id), "record_not_available")
        assert server.hub.rooms.unkept_record(over.record_id) is None

    run(test)


# ---- new sockets are taken a few per turn of the loop, never hundreds at once ----------


def test_a_burst_of_new_sockets_is_accepted_a_few_per_turn_of_the_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    per_turn: dict[int, int] = {}
    turn = 0
    real = ws_server.Server.start_connection_handler

    def counting(self: ws_server.Server, connection: ws_server.ServerConnection) -> None:
        per_turn[turn] = per_turn.get(turn, 0) + 1
        real(self, connection)

    monkeypatch.setattr(ws_server.Server, "start_connection_handler", counting)

    async def test(server: RunningServer) -> None:
        nonlocal turn

        async def count_turns() -> None:
            nonlocal turn
            while True:
                turn += 1
                await asyncio.sleep(0)

        counter = asyncio.create_task(count_turns())
        await asyncio.sleep(0)
        # the loop is held while 60 sockets connect: the kernel queues them all (the
        # listen queue is wider than the batch), and the loop finds them at once
        sockets = []
        for n in range(60):
            sock = socket.create_connection(
                ("127.0.0.1", server.port), timeout=5, source_address=(f"127.0.0.{10 + n % 4}", 0)
            )
            sockets.append(sock)
        for _ in range(400):
            if sum(per_turn.values()) >= 60:
                break
            await asyncio.sleep(0.01)
        counter.cancel()
        assert sum(per_turn.values()) == 60
        assert max(per_turn.values()) <= ACCEPT_BATCH
        for sock in sockets:
            sock.close()

    run(test)
