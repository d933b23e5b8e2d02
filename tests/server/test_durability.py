"""Every accepted action is in the store before any seat hears of it; bot thinking never
blocks the event loop."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import threading
from pathlib import Path

import pytest

from engine import Action, PlayerView
from protocol import messages as m
from server import RunningServer, bots
from tests.server.helpers import FAST, Client, play_to_end, run, two_players


def test_every_event_a_seat_hears_is_already_stored(tmp_path: Path) -> None:
    db = tmp_path / "spades.db"

    async def test(server: RunningServer) -> None:
        first, second, code = await two_players(server)
        reader = sqlite3.connect(db)
        checked = 0

        def stored_first(message: m.ServerMessage) -> bool:
            nonlocal checked
            if isinstance(message, m.Events):
                (stored,) = reader.execute(
                    "SELECT max(idx) FROM actions WHERE code = ? AND game_no = 1", (code,)
                ).fetchone()
                assert stored >= message.version
                checked += 1
            return False

        over = await asyncio.gather(
            play_to_end(first, random.Random(3), stop=stored_first),
            play_to_end(second, random.Random(4), stop=stored_first),
        )
        assert isinstance(over[0], m.GameOver)
        assert checked > 20
        reader.close()

    run(test, db_path=str(db))


def test_the_loop_answers_while_the_bot_thinks(monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()
    thinking = threading.Event()
    real = bots.choose

    def slow(view: PlayerView, level: str, seed: int, iterations: int | None) -> Action:
        thinking.set()
        release.wait(30)
        return real(view, level, seed, iterations)

    monkeypatch.setattr(bots, "choose", slow)

    async def test(server: RunningServer) -> None:
        client = await Client.hello(server.url, "frank")
        await client.request(m.CreateTable(bot="easy", overrides=FAST), m.Snapshot)
        playing = asyncio.create_task(play_to_end(client, random.Random(8)))
        await asyncio.to_thread(thinking.wait, 30)
        assert thinking.is_set()  # the bot is thinking now...
        # ...and the server still answers, a whole lobby round trip included
        other = await Client.hello(server.url, "gina")
        pong = await other.request(m.Ping(nonce=5), m.Pong)
        assert pong.nonce == 5
        await other.request(m.ListTables(), m.TableList)
        await other.request(m.CreateTable(), m.Snapshot)
        assert not playing.done()
        release.set()
        assert isinstance(await playing, m.GameOver)

    run(test)
