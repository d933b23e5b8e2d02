"""Hardening 3 (issue 25), items 1, 2, 6, 9 and 12's egress: bounded analysis work,
no record for a game given up unplayed, report budgets per address and table, a byte
budget per address for records and analyses.

Clients pose as other addresses through ``X-Forwarded-For`` (the server trusts
127.0.0.1 as a reverse proxy here). Analyses are held at a gate the test opens, so the
order they run in is seen without timing anything.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

from websockets.asyncio.client import connect

from protocol import messages as m
from protocol.codec import MAX_SERVER_MESSAGE_BYTES
from server import RunningServer
from tests.server.helpers import Client, play_to_end, run

PROXIED: dict[str, Any] = {"trusted_proxies": ("127.0.0.1",)}


async def hello_from(
    server: RunningServer, address: str, name: str, token: str | None = None
) -> Client:
    ws = await connect(
        server.url,
        max_size=MAX_SERVER_MESSAGE_BYTES,
        compression=None,
        additional_headers={"X-Forwarded-For": address},
    )
    client = Client(ws)
    await client.send(m.Hello(protocol_version=1, protocol_minor=1, name=name, token=token))
    client.welcome = await client.expect(m.Welcome)
    return client


async def finished_game(server: RunningServer, address: str, name: str) -> tuple[Client, str, str]:
    """A player at ``address`` plays a short game with the bot: (client, table, record id)."""
    client = await hello_from(server, address, name)
    snap = await client.request(
        m.CreateTable(preset="classic", overrides={"target_score": 1}, bot="easy", seat=1),
        m.Snapshot,
    )
    over = await play_to_end(client, random.Random(5))
    assert isinstance(over, m.GameOver) and over.record_id is not None
    return client, snap.table.code, over.record_id


class Gate:
    """Stands in for ``AnalysisQueue.analyse``: each analysis waits until the test lets it go,
    and the order they started in is kept."""

    def __init__(self) -> None:
        self.started: list[tuple[int, str]] = []
        self.open = asyncio.Event()

    async def analyse(self, record_json: str, seat: int, level: str) -> str:
        self.started.append((seat, level))
        await self.open.wait()
        return '{"hands": []}'


async def until(condition: Any) -> None:
    """Wait (a turn of the loop at a time) until ``condition()``: the server saw a close."""
    for _ in range(5000):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the server never saw it")


def closed_waiters(server: RunningServer) -> int:
    queue = server.hub.services.analyses
    return sum(w.session.closed for job in queue.jobs.values() for w in job.waiters.values())


async def sync(client: Client) -> list[m.ServerMessage]:
    """Every request sent before this was handled (the connection answers in order):
    the messages that came before the answer to a ping."""
    await client.send(m.Ping(nonce=7, id=client.new_id()))
    got = []
    while not isinstance(message := await client.recv(), m.Pong):
        got.append(message)
    return got


def codes(messages: list[m.ServerMessage]) -> list[str]:
    return [e.code for e in messages if isinstance(e, m.ErrorMessage)]


def test_get_analysis_keeps_no_task_per_request_and_drops_closed_waiters() -> None:
    async def test(server: RunningServer) -> None:
        gate = Gate()
        server.hub.services.analyses.analyse = gate.analyse
        _, _, record_id = await finished_game(server, "10.0.0.1", "carol")
        clients = [await hello_from(server, "10.0.1.1", f"ask{n}") for n in range(3)]
        for client in clients:
            await sync(client)
        tasks_before = len(asyncio.all_tasks())
        ask = m.GetAnalysis(record_id=record_id, seat=0, level="easy")
        refused = []
        for client in clients:
            for _ in range(20):
                await client.send(ask.model_copy(update={"id": client.new_id()}))
            refused += codes(await sync(client))
        # the queue's worker and the analysis it awaits, not a task for each of the 60
        assert len(asyncio.all_tasks()) - tasks_before <= 2
        # four ids per connection are kept, the rest refused
        assert refused == ["rate_limited"] * (3 * (20 - 4))
        queue = server.hub.services.analyses
        assert queue.waiting() == 3
        for client in clients:
            await client.close()
        await until(lambda: closed_waiters(server) == 3)
        other = await hello_from(server, "10.0.2.1", "dan")
        await other.send(m.GetAnalysis(record_id=record_id, seat=1, level="easy", id=1))
        await sync(other)
        assert queue.waiting() == 1  # the closed connections' waiters are gone
        await other.close()

    run(test, **PROXIED)


def test_analyses_are_bounded_per_connection_address_and_queue_and_seats_go_first() -> None:
    async def test(server: RunningServer) -> None:
        gate = Gate()
        server.hub.services.analyses.analyse = gate.analyse
        carol, _, record_id = await finished_game(server, "10.0.0.1", "carol")
        attackers = [await hello_from(server, "10.0.1.1", f"a{n}") for n in range(5)]
        keys = [(0, "easy"), (0, "normal"), (0, "hard"), (1, "normal"), (1, "hard")]
        # one connection: one analysis at a time
        first = attackers[0]
        await first.send(m.GetAnalysis(record_id=record_id, seat=0, level="easy", id=1))
        error = await first.error(
            m.GetAnalysis(record_id=record_id, seat=0, level="normal"), "rate_limited"
        )
        assert "one at a time" in error.message
        # one address: three at once
        refused = []
        for client, (seat, level) in zip(attackers[1:], keys[1:], strict=True):
            await client.send(m.GetAnalysis(record_id=record_id, seat=seat, level=level, id=2))
            refused += codes(await sync(client))
        assert refused == ["rate_limited"] * 2
        # the one who leaves is not worked for: its queued analysis is dropped
        await attackers[2].close()
        await until(lambda: closed_waiters(server) == 1)
        # the seat of the game goes before the queue
        await carol.send(m.GetAnalysis(record_id=record_id, seat=1, level="easy", id=3))
        await sync(carol)
        gate.open.set()
        answer = await carol.expect(m.AnalysisMessage, timeout=60.0)
        assert answer.id == 3
        await attackers[1].expect(m.AnalysisMessage, timeout=60.0)
        assert gate.started == [(0, "easy"), (1, "easy"), (0, "normal")]
        assert server.hub.services.analyses.dropped == 1

    run(test, **PROXIED)


def test_analysis_queue_is_bounded_with_server_full() -> None:
    async def test(server: RunningServer) -> None:
        gate = Gate()
        server.hub.services.analyses.analyse = gate.analyse
        carol, _, record_id = await finished_game(server, "10.0.0.1", "carol")
        keys = [(0, "easy"), (0, "normal"), (0, "hard"), (1, "easy")]
        got = []
        for n, (seat, level) in enumerate(keys):
            client = await hello_from(server, f"10.0.3.{n + 1}", f"q{n}")
            await client.send(m.GetAnalysis(record_id=record_id, seat=seat, level=level, id=1))
            got.append(codes(await sync(client)))
        assert got == [[], [], [], ["server_full"]]
        # a seat of the game is queued all the same
        await carol.send(m.GetAnalysis(record_id=record_id, seat=1, level="hard", id=2))
        assert codes(await sync(carol)) == []
        assert len(server.hub.services.analyses.jobs) == 4

    run(test, analysis_queue_limit=3, **PROXIED)


async def create_and_leave(client: Client, cycles: int) -> list[str]:
    """Create a table with the bot and leave at once, ``cycles`` times: the record ids."""
    ids = []
    for _ in range(cycles):
        snap = await client.request(m.CreateTable(preset="classic", bot="easy", seat=0), m.Snapshot)
        await client.send(m.Leave(code=snap.table.code, id=client.new_id()))
        over = await client.expect(m.GameOver)
        ids.append(over.record_id)
        await client.expect(m.Left)
    return ids


def test_create_with_bot_and_leave_keeps_no_record() -> None:
    async def test(server: RunningServer) -> None:
        store: Any = server.hub.store
        alice = await hello_from(server, "10.0.4.1", "alice")
        ids = await create_and_leave(alice, 3)
        records = store._db.execute("SELECT count(*) FROM records").fetchone()[0]
        assert records == 0  # nobody acted: nothing kept beyond the table
        await alice.error(m.GetRecord(record_id=ids[0]), "record_not_available")
        # a game where the player acted keeps its record
        carol, _, record_id = await finished_game(server, "10.0.4.3", "carol")
        await carol.request(m.GetRecord(record_id=record_id), m.RecordMessage)
        assert store._db.execute("SELECT count(*) FROM records").fetchone()[0] == 1

    run(test, **PROXIED)


def test_forfeits_are_counted_per_player_and_address() -> None:
    async def test(server: RunningServer) -> None:
        alice = await hello_from(server, "10.0.4.1", "alice")
        await create_and_leave(alice, 3)
        # three forfeits an hour: the player may create no table...
        error = await alice.error(m.CreateTable(preset="classic", bot="easy"), "rate_limited")
        assert "gave up 3 games" in error.message
        # ...from another address either, nor may another player from that address
        again = await hello_from(server, "10.0.4.2", "alice", token=alice.token)
        await again.error(m.CreateTable(preset="classic", bot="easy"), "rate_limited")
        bob = await hello_from(server, "10.0.4.1", "bob")
        await bob.error(m.CreateTable(preset="classic", bot="easy"), "rate_limited")
        carol = await hello_from(server, "10.0.4.3", "carol")  # others are not affected
        await carol.request(m.CreateTable(preset="classic", bot="easy"), m.Snapshot)

    run(test, forfeits_per_hour=3, **PROXIED)


def test_table_creations_are_limited_per_address() -> None:
    async def test(server: RunningServer) -> None:
        players = [await hello_from(server, "10.0.5.1", f"c{n}") for n in range(3)]
        for player in players[:2]:
            for _ in range(2):
                await player.request(m.CreateTable(preset="classic"), m.Snapshot)
        error = await players[2].error(m.CreateTable(preset="classic"), "rate_limited")
        assert "created many tables" in error.message
        other = await hello_from(server, "10.0.5.2", "d")
        await other.request(m.CreateTable(preset="classic"), m.Snapshot)

    run(test, creations_burst_per_address=4, creations_per_minute_per_address=0.001, **PROXIED)


def test_reports_from_one_address_leave_the_seats_theirs_and_say_why() -> None:
    async def test(server: RunningServer) -> None:
        alice = await hello_from(server, "10.0.6.1", "alice")
        snap = await alice.request(m.CreateTable(preset="classic"), m.Snapshot)
        code = snap.table.code
        bob = await hello_from(server, "10.0.6.2", "bob")
        await bob.request(m.JoinTable(code=code), m.Snapshot)
        watchers = [await hello_from(server, "10.0.7.1", f"w{n}") for n in range(25)]
        answers = []
        for watcher in watchers:
            await watcher.request(m.WatchTable(code=code), m.Snapshot)
            await watcher.send(m.Chat(code=code, text="/report spam", id=watcher.new_id()))
            reply = await watcher.expect(m.ChatMessage | m.ErrorMessage)  # type: ignore[arg-type]
            answers.append(reply)
        errors = [a for a in answers if isinstance(a, m.ErrorMessage)]
        assert len(errors) == 22 and {e.code for e in errors} == {"rate_limited"}
        assert "network address" in errors[0].message
        # the seats of the game keep their own budget
        await alice.send(m.Chat(code=code, text="/report bob cheats", id=1))
        thanks = await alice.expect(m.ChatMessage, lambda c: c.name == "server")
        assert "report was sent" in thanks.text
        error = await alice.error(m.Chat(code=code, text="/report again"), "rate_limited")
        assert "less than 30 s ago" in error.message
        await bob.send(m.Chat(code=code, text="/report alice too", id=2))
        thanks = await bob.expect(m.ChatMessage, lambda c: c.name == "server")
        assert len(server.hub.moderation.reports) == 3 + 2

    run(test, **PROXIED)


def test_records_are_sent_within_a_byte_budget_per_address() -> None:
    async def test(server: RunningServer) -> None:
        carol, _, record_id = await finished_game(server, "10.0.8.1", "carol")
        ask = m.GetRecord(record_id=record_id)
        await carol.request(ask, m.RecordMessage)  # the budget (1 KB) goes into debt
        error = await carol.error(ask, "rate_limited")
        assert "share of records" in error.message
        other = await hello_from(server, "10.0.8.2", "dan")
        await other.request(ask, m.RecordMessage)  # another address has its own budget

    run(
        test,
        reply_bytes_burst_per_address=1000,
        reply_bytes_per_second_per_address=0.001,
        **PROXIED,
    )
