"""The bot client folds events like every client: one snapshot (the join) for a whole
game, and a snapshot asked for only when its view falls out of step."""

from __future__ import annotations

import asyncio
import json
import random

from client.bot_client import BotStats, _Seat, play
from engine.bot import Bot
from protocol import messages as m
from protocol.codec import decode_client, decode_server_json
from server import RunningServer
from tests.client.fold_cases import fold_cases
from tests.server.helpers import FAST, Client, play_to_end, run


def test_the_bot_plays_a_whole_game_from_one_snapshot() -> None:
    stats = BotStats()

    async def test(server: RunningServer) -> None:
        client = await Client.hello(server.url, "dave")
        snap = await client.request(m.CreateTable(overrides=FAST, private=True), m.Snapshot)
        bot = asyncio.create_task(
            play(server.url, snap.table.code, level="easy", seed=4, stats=stats)
        )
        over = await play_to_end(client, random.Random(4))
        assert isinstance(over, m.GameOver)
        assert await bot == 1

    run(test)
    assert stats.moves > 20  # a whole game: many moves...
    assert stats.snapshots == 1  # ...from the join's snapshot and the folded events alone
    assert stats.resyncs == 0


class _Socket:
    """Stands in for the websocket: keeps what the bot sends."""

    def __init__(self) -> None:
        self.sent: list[m.ClientMessage] = []

    async def send(self, data: bytes) -> None:
        self.sent.append(decode_client(data))


def test_a_gap_in_the_events_asks_for_a_snapshot_and_folds_nothing_until_it_comes() -> None:
    case = next(iter(fold_cases(3, "classic")))  # seat 0's stream
    snapshot = decode_server_json(json.dumps(case.snapshot))
    assert isinstance(snapshot, m.Snapshot)
    frames: list[m.Events] = []
    for frame in case.frames[:3]:
        events = decode_server_json(json.dumps(frame[0]))
        assert isinstance(events, m.Events)
        frames.append(events)
    socket = _Socket()
    stats = BotStats()
    seat = _Seat(socket, snapshot.table.code, Bot("easy", seed=1), stats)  # type: ignore[arg-type]

    async def feed() -> None:
        await seat.snapshot(snapshot)
        await seat.folded(frames[0])  # version 1: in step
        assert seat.view is not None and seat.view.version == 1
        await seat.folded(frames[2])  # version 3: frame 2 was missed
        assert seat.view is None and seat.resyncing
        await seat.folded(frames[1])  # nothing is folded until the snapshot

    asyncio.run(feed())
    assert stats.resyncs == 1 and stats.snapshots == 1
    joins = [message for message in socket.sent if isinstance(message, m.JoinTable)]
    assert joins == [m.JoinTable(code=snapshot.table.code)]
