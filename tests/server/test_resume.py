"""Drops and resumes: the held seat, the exact view on return, the bot standing in."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from engine import replay
from protocol import messages as m
from server import RunningServer
from tests.server.helpers import Client, choose, play_to_end, run, two_players


async def play_until(client: Client, rng: random.Random, phase: str, trick_started: bool) -> None:
    """Play randomly until it is ``client``'s turn in ``phase`` (with a card led)."""
    while True:
        message = await client.recv()
        if not isinstance(message, m.YourTurn):
            assert not isinstance(message, m.GameOver | m.ErrorMessage), message
            continue
        if message.phase == phase:
            if not trick_started:
                return
            snap = await client.snapshot(message.table)
            if snap.view.current_trick:
                return
        action = await choose(client, message, rng)
        client.seq += 1
        await client.send(
            m.Act(code=message.table, action=action, version=message.version, seq=client.seq)
        )


@pytest.mark.parametrize(
    ("phase", "trick_started"), [("draft", False), ("bidding", False), ("play", True)]
)
def test_a_dropped_player_resumes_with_the_exact_view(phase: str, trick_started: bool) -> None:
    async def test(server: RunningServer) -> None:
        first, second, code = await two_players(
            server, overrides={"target_score": 200, "lose_score": -200}
        )
        other = asyncio.create_task(play_to_end(second, random.Random(8)))
        await play_until(first, random.Random(7), phase, trick_started)
        before = await first.snapshot(code)
        token = first.token
        await first.drop()
        # the opponent hears of it, with the hold's countdown
        update = await asyncio.wait_for(_seat_update(server, code, 0), 10)
        assert update.connected is False and update.hold_seconds_left is not None
        again = await Client.hello(server.url, "alice", token=token)
        assert again.welcome is not None and again.welcome.resumed
        assert again.welcome.tables == (code,)
        snap = await again.expect(m.Snapshot)
        assert snap.view == before.view
        assert snap.table.seats[0].connected and not snap.table.seats[0].bot_standing_in
        turn = await again.expect(m.YourTurn)
        assert turn.version == before.view.version
        again.seq = first.seq
        over = await play_to_end(again, random.Random(9), first=turn)
        assert isinstance(over, m.GameOver)
        await other

    run(test)


async def _seat_update(server: RunningServer, code: str, seat: int) -> m.SeatInfo:
    """Wait until the server shows ``seat`` as dropped (read through a spectator)."""
    watcher = await Client.hello(server.url, "watcher")
    while True:
        snap = await watcher.request(m.WatchTable(code=code), m.Snapshot)
        if not snap.table.seats[seat].connected:
            await watcher.close()
            return snap.table.seats[seat]
        await asyncio.sleep(0.02)


def test_the_bot_stands_in_when_the_hold_runs_out_and_the_player_takes_it_back() -> None:
    async def test(server: RunningServer) -> None:
        first, second, code = await two_players(
            server, overrides={"target_score": 200, "lose_score": -200}, hold_seconds=0
        )
        rng = random.Random(11)
        await first_turn(first, second, rng)
        token = first.token
        await first.drop()
        # the bot takes seat 0's draft turn; seat 1 sees the stand-in and then its turn
        update = await second.expect(
            m.TableUpdate, lambda u: u.table.seats[0].bot_standing_in, timeout=10
        )
        assert update.table.seats[0].connected is False
        turn = await second.expect(m.YourTurn)
        again = await Client.hello(server.url, "alice", token=token)
        snap = await again.expect(m.Snapshot)
        assert snap.table.seats[0].bot_standing_in is False
        assert snap.view.version == turn.version  # the bot moved once; seat 1 has not yet
        back = await second.expect(m.TableUpdate, lambda u: u.table.seats[0].connected)
        assert back.table.seats[0].bot_standing_in is False
        # seat 1 answers its pending turn, then both play on to the end
        action = await choose(second, turn, rng)
        second.seq += 1
        await second.send(m.Act(code=code, action=action, version=turn.version, seq=second.seq))
        again.seq = 1000
        over = await asyncio.gather(
            play_to_end(again, random.Random(12)), play_to_end(second, random.Random(13))
        )
        assert isinstance(over[0], m.GameOver) and over[0].reason == "score"

    run(test)


async def first_turn(first: Client, second: Client, rng: random.Random) -> m.YourTurn:
    """Wait for ``first``'s first turn, answering ``second``'s turns meanwhile."""
    while True:
        mine = asyncio.create_task(first.expect(m.YourTurn))
        theirs = asyncio.create_task(second.expect(m.YourTurn))
        await asyncio.wait({mine, theirs}, return_when=asyncio.FIRST_COMPLETED)
        if mine.done():
            theirs.cancel()
            return mine.result()
        mine.cancel()
        turn = theirs.result()
        action = await choose(second, turn, rng)
        second.seq += 1
        await second.send(
            m.Act(code=turn.table, action=action, version=turn.version, seq=second.seq)
        )


def test_forfeit_when_the_hold_runs_out() -> None:
    async def test(server: RunningServer) -> None:
        first, second, _ = await two_players(server, hold_seconds=0, on_hold_expiry="forfeit")
        await first.drop()
        over = await second.expect(m.GameOver)
        assert over.reason == "forfeit" and over.winner == 1
        # the forfeited game's record exists now, and replays (as an unfinished game)
        reply = await second.request(m.GetRecord(record_id=over.record_id), m.RecordMessage)
        assert not replay(json.loads(reply.record_json)).is_over

    run(test)


def test_wait_keeps_the_seat_and_the_game_waits() -> None:
    async def test(server: RunningServer) -> None:
        first, second, code = await two_players(server, hold_seconds=0, on_hold_expiry="wait")
        await first_turn(first, second, random.Random(5))
        before = await first.snapshot(code)
        token = first.token
        await first.drop()
        update = await second.expect(
            m.TableUpdate, lambda u: not u.table.seats[0].connected, timeout=10
        )
        assert update.table.seats[0].bot_standing_in is False
        await asyncio.sleep(0.2)
        again = await Client.hello(server.url, "alice", token=token)
        snap = await again.expect(m.Snapshot)
        assert snap.view == before.view

    run(test)


def test_the_turn_timer_lets_the_bot_move() -> None:
    async def test(server: RunningServer) -> None:
        first, second, code = await two_players(server, turn_seconds=1)
        turn = await first.expect(m.YourTurn, timeout=5)
        assert turn.seconds_left is not None and 0 < turn.seconds_left <= 1
        # seat 0 does nothing: after a second the bot moves for it
        events = await second.expect(m.Events, lambda e: e.version > turn.version, timeout=10)
        assert events.events[0].seat == 0  # type: ignore[union-attr]
        snap = await first.snapshot(code)
        assert snap.view.version > turn.version

    run(test)


def test_resume_on_a_second_connection_closes_the_first() -> None:
    async def test(server: RunningServer) -> None:
        first, _, code = await two_players(server)
        again = await Client.hello(server.url, "alice", token=first.token)
        assert again.welcome is not None and again.welcome.tables == (code,)
        await again.expect(m.Snapshot)
        while True:
            try:
                await first.recv(5)
            except ConnectionError:
                break
        assert first.ws.close_code == 4000

    run(test)


def test_keepalive_pings_notice_a_silent_peer() -> None:
    async def test(server: RunningServer) -> None:
        first, second, _ = await two_players(server)
        first.ws.transport.pause_reading()  # alive for TCP, but it answers no ping
        update = await second.expect(
            m.TableUpdate, lambda u: not u.table.seats[0].connected, timeout=10
        )
        assert update.table.seats[0].hold_seconds_left is not None

    run(test, ping_interval=0.2, ping_timeout=0.3, close_timeout=0.3)
