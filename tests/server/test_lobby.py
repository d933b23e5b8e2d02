"""The lobby: listing, private codes, joining, watching, the bot in a seat, leaving, rematch."""

from __future__ import annotations

import asyncio
import itertools
import random

import pytest

from protocol import messages as m
from server import RunningServer
from server.lobby import registry
from tests.server.helpers import FAST, Client, play_to_end, run, two_players


def test_list_join_watch_and_add_bot() -> None:
    async def test(server: RunningServer) -> None:
        host = await Client.hello(server.url, "host")
        open_table = await host.request(m.CreateTable(preset="five-hundred"), m.Snapshot)
        private = await host.request(m.CreateTable(private=True, seat=1), m.Snapshot)
        assert private.table.your_seat == 1 and private.table.private
        assert len(private.table.code) == 8
        guest = await Client.hello(server.url, "guest")
        listed = await guest.request(m.ListTables(), m.TableList)
        codes = [t.code for t in listed.tables]
        assert open_table.table.code in codes and private.table.code not in codes
        summary = listed.tables[codes.index(open_table.table.code)]
        assert summary.status == "waiting" and summary.preset == "five-hundred"
        assert summary.seats[0].name == "host" and summary.seats[1].kind == "empty"

        # a spectator of the private table (by code) sees no hand; then sits down
        watched = await guest.request(m.WatchTable(code=private.table.code.lower()), m.Snapshot)
        assert watched.table.your_seat is None and watched.view.seat is None
        joined = await guest.request(m.JoinTable(code=private.table.code), m.Snapshot)
        assert joined.table.your_seat == 0
        update = await host.expect(m.TableUpdate, lambda u: u.table.status == "playing")
        assert update.table.seats[0].name == "guest"

        # the bot fills the open table's empty seat and the game starts
        added = await host.request(m.AddBot(code=open_table.table.code, level="easy"), m.Snapshot)
        assert added.table.seats[1].kind == "bot" and added.table.seats[1].bot_level == "easy"
        started = await host.expect(
            m.TableUpdate,
            lambda u: u.table.code == open_table.table.code and u.table.status == "playing",
        )
        assert started.table.your_seat == 0

    run(test)


def test_leaving_mid_game_forfeits_and_closes_the_table_when_nobody_is_left() -> None:
    async def test(server: RunningServer) -> None:
        first, second, code = await two_players(server)
        left = await first.request(m.Leave(code=code), m.Left)
        assert left.table == code
        over = await second.expect(m.GameOver)
        assert over.reason == "forfeit" and over.winner == 1
        await second.request(m.Leave(code=code), m.Left)
        await second.error(m.JoinTable(code=code), "unknown_table")

    run(test)


def test_rematch_starts_a_new_game_at_the_same_table() -> None:
    async def test(server: RunningServer) -> None:
        first, second, code = await two_players(server)
        over = await asyncio.gather(
            play_to_end(first, random.Random(1)), play_to_end(second, random.Random(2))
        )
        assert isinstance(over[0], m.GameOver)
        await first.error(m.Act(code=code, action=m.KeepAction(), version=0, seq=99), "game_over")
        asked = await first.request(m.Rematch(code=code), m.Snapshot)
        assert asked.table.rematch == (True, False) and asked.table.status == "finished"
        await second.expect(m.TableUpdate, lambda u: u.table.rematch == (True, False))
        await second.request(m.Rematch(code=code), m.Snapshot)
        again = await first.expect(m.TableUpdate, lambda u: u.table.status == "playing")
        assert again.table.record_id is None
        first.seq = second.seq = 0  # a new game: sequence numbers may start over
        second_over = await asyncio.gather(
            play_to_end(first, random.Random(3)), play_to_end(second, random.Random(4))
        )
        assert isinstance(second_over[0], m.GameOver)
        assert second_over[0].record_id != over[0].record_id

    run(test)


def test_rematch_with_the_bot() -> None:
    async def test(server: RunningServer) -> None:
        client = await Client.hello(server.url, "solo")
        await client.request(m.CreateTable(overrides=FAST, bot="easy"), m.Snapshot)
        assert isinstance(await play_to_end(client, random.Random(5)), m.GameOver)
        await client.request(m.Rematch(code=(await _code(client))), m.Snapshot)
        client.seq = 0
        assert isinstance(await play_to_end(client, random.Random(6)), m.GameOver)

    run(test)


async def _code(client: Client) -> str:
    assert client.welcome is not None
    listed = await client.request(m.ListTables(), m.TableList)
    return listed.tables[0].code


def test_a_new_table_never_reuses_the_code_of_a_stored_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def test(server: RunningServer) -> None:
        first, second, old = await two_players(server)
        await first.request(m.Leave(code=old), m.Left)
        await second.request(m.Leave(code=old), m.Left)
        assert old not in server.hub.tables  # closed: only the store has it now
        # the code generator draws the old code first, then a fresh one
        draws = itertools.chain(old, itertools.repeat("Z"))
        monkeypatch.setattr(registry.secrets, "choice", lambda alphabet: next(draws))
        created = await first.request(m.CreateTable(), m.Snapshot)
        assert created.table.code == "Z" * 8 != old

    run(test)
