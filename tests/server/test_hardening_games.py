"""Games that must never freeze or break: reconnects racing the bot, scores past the
protocol's range, a failed commit (full disk), and bad data at start-up."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path

from protocol import messages as m
from server import RunningServer
from tests.server.helpers import FAST, Client, choose, play_to_end, run, two_players


async def _stand_in_shown(server: RunningServer, code: str, seat: int) -> None:
    """Wait (through a spectator) until the server shows the bot standing in for ``seat``."""
    watcher = await Client.hello(server.url, "watcher")
    try:
        while True:
            snap = await watcher.request(m.WatchTable(code=code), m.Snapshot)
            if snap.table.seats[seat].bot_standing_in:
                return
            await asyncio.sleep(0.01)
    finally:
        await watcher.close()


def test_a_resume_while_the_bot_is_to_move_does_not_freeze_the_game() -> None:
    # the human acts, drops, the hold (0 s) runs out so the bot stands in for it, and the
    # human is back before the bot (the table's real bot, seat 1) has made its move
    async def test(server: RunningServer) -> None:
        human = await Client.hello(server.url, "alice")
        snap = await human.request(
            m.CreateTable(bot="easy", overrides=FAST, hold_seconds=0, seat=0), m.Snapshot
        )
        code = snap.table.code
        turn = await human.expect(m.YourTurn, timeout=30)
        action = await choose(human, turn, random.Random(1))
        human.seq += 1
        await human.send(m.Act(code=code, action=action, version=turn.version, seq=human.seq))
        await human.expect(m.Ack)
        token = human.token
        await human.drop()
        await _stand_in_shown(server, code, 0)
        again = await Client.hello(server.url, "alice", token=token)
        back = await again.expect(m.Snapshot)
        # the race really happened: the bot had not moved yet when the human came back
        assert back.view.version == turn.version + 1
        assert back.view.current_player == 1
        # and the game goes on: the bot moves, then it is the human's turn again
        nxt = await again.expect(m.YourTurn, timeout=15)
        assert nxt.version > turn.version + 1

    run(test, bot_delay=2.0)


def test_rules_whose_scores_could_leave_the_protocol_range_are_refused_at_creation() -> None:
    # the rule set: after 86 hands its scores no longer fit a message
    hostile = {"bag_limit": 1, "bag_penalty": 10_000, "nil_bonus": 10_000, "target_score": 100_000}

    async def test(server: RunningServer) -> None:
        client = await Client.hello(server.url, "carol")
        reply = await client.error(m.CreateTable(overrides=hostile, bot="easy"), "bad_rules")
        assert "lose_score" in reply.message
        listed = await client.request(m.ListTables(), m.TableList)
        assert listed.tables == ()  # nothing was created
        # with a lose_score the same penalties are bounded, so the table is fine
        bounded = {**hostile, "lose_score": -100_000}
        snap = await client.request(m.CreateTable(overrides=bounded), m.Snapshot)
        assert snap.table.rules.bag_penalty == 10_000
        for preset in ("classic", "five-hundred"):
            await client.request(m.CreateTable(preset=preset), m.Snapshot)

    run(test)


async def _play_until_refused(clients: list[Client], rng: random.Random) -> m.ErrorMessage:
    """Both clients play random legal moves until one of them gets an error."""
    readers = {asyncio.create_task(c.recv(30)): c for c in clients}
    try:
        while True:
            done, _ = await asyncio.wait(readers, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                client = readers.pop(task)
                message = task.result()
                if isinstance(message, m.ErrorMessage):
                    return message
                assert not isinstance(message, m.GameOver), "the store never filled up"
                if isinstance(message, m.YourTurn):
                    action = await choose(client, message, rng)
                    client.seq += 1
                    act = m.Act(
                        code=message.table, action=action, version=message.version, seq=client.seq
                    )
                    await client.send(act.model_copy(update={"id": client.new_id()}))
                readers[asyncio.create_task(client.recv(30))] = client
    finally:
        for task in readers:
            task.cancel()


def test_a_full_disk_refuses_the_turn_and_service_resumes_when_space_returns(
    tmp_path: Path,
) -> None:
    db = tmp_path / "spades.db"

    async def test(server: RunningServer) -> None:
        first, second, code = await two_players(
            server, overrides={"target_score": 500, "lose_score": -500}
        )
        # a real SQLITE_FULL: the server's own connection may not grow the file any more
        store = server.hub.store._db
        (pages,) = store.execute("PRAGMA page_count").fetchone()
        store.execute(f"PRAGMA max_page_count = {pages}")
        refused = await _play_until_refused([first, second], random.Random(21))
        assert refused.code == "internal_error" and refused.request == "action"
        assert "could not store" in refused.message
        # memory is back at the stored state: what a seat sees is what the store has
        reader = sqlite3.connect(db)
        (stored,) = reader.execute(
            "SELECT max(idx) FROM actions WHERE code = ? AND game_no = 1", (code,)
        ).fetchone()
        for client in (first, second):
            snap = await client.snapshot(code)
            assert snap.view.version == stored
        # the server still answers while the disk is full: a new player is welcomed
        newcomer = await Client.hello(server.url, "newcomer")
        assert (await newcomer.request(m.Ping(nonce=3), m.Pong)).nonce == 3
        # space returns: the game is offered again and plays to its end
        store.execute("PRAGMA max_page_count = 1000000")
        first.seq = second.seq = 10_000
        over = await asyncio.gather(
            play_to_end(first, random.Random(22)), play_to_end(second, random.Random(23))
        )
        assert all(isinstance(message, m.GameOver) for message in over)
        (final,) = reader.execute(
            "SELECT max(idx) FROM actions WHERE code = ? AND game_no = 1", (code,)
        ).fetchone()
        assert final > stored
        reader.close()

    run(test, db_path=str(db), store_retry_seconds=0.2)
