"""Retention: finished games, abandoned tables, idle players and cached analyses are
reclaimed by the documented policy; what a live table or a connected player needs stays.
The clock is injected (``now`` in Unix seconds), nothing sleeps."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from protocol import messages as m
from server import start_server
from server.store import Store
from server.store.retention import RetentionPolicy, reclaim_all, reclaim_step
from tests.server.helpers import TEST_CONFIG, Client, choose, drive, run, serve_config, two_players

DAY = 86400.0
POLICY = RetentionPolicy(keep_finished_days=30, reclaim_days=7, keep_analyses_days=3)


def seats(*players: str | None) -> list[dict[str, Any]]:
    return [
        {"kind": "human" if p else "empty", "player_id": p, "name": p, "bot_level": None}
        for p in players
    ]


def table_data(players: list[dict[str, Any]], record_id: str | None = None) -> dict[str, Any]:
    return {"seats": players, "record_id": record_id, "rules": {}, "private": False}


def actions(store: Store, code: str, game_no: int, count: int = 3) -> None:
    for index in range(1, count + 1):
        store.append_action(code, game_no, index, 0, f"action {index}", None)


def a_store_a_host_has(into: Any = None) -> Store:
    """One of each kind of row the policy is about (in ``into``, default a new SQLite
    store in memory)."""
    store: Store = Store(":memory:") if into is None else into
    for player in ("seated", "idle", "connected", "watcher"):
        store.add_player(player, player, f"token of {player}")
    # a live table showing its finished game 2 (game 1's record is older news)
    store.save_table("LIVE2345", table_data(seats("seated", None), "r-shown"), "finished", 2)
    actions(store, "LIVE2345", 1)
    actions(store, "LIVE2345", 2)
    store.save_record("r-old", "LIVE2345", 1, {"game": 1})
    store.save_record("r-shown", "LIVE2345", 2, {"game": 2})
    store.save_analysis("r-old", 0, "normal", "{}")
    store.save_analysis("r-shown", 0, "normal", "{}")
    # a closed table whose game finished, one closed before any game, one never started
    store.save_table("PLAYED23", table_data(seats(None, None), "r-played"), "closed", 1)
    actions(store, "PLAYED23", 1)
    store.save_record("r-played", "PLAYED23", 1, {"game": 1})
    store.save_table("EMPTY234", table_data(seats(None, None)), "closed", 1)
    store.save_table("WAIT2345", table_data(seats("watcher", None)), "waiting", 1)
    return store


def count(store: Store, sql: str, *params: Any) -> int:
    value: int = store._db.execute(f"SELECT count(*) FROM {sql}", params).fetchone()[0]
    return value


def codes(store: Store) -> set[str]:
    return {row[0] for row in store._db.execute("SELECT code FROM tables")}


def test_rows_inside_every_limit_stay() -> None:
    store = a_store_a_host_has()
    reclaimed = reclaim_step(store, POLICY, time.time() + 2 * DAY)
    assert reclaimed.total == 0 and not reclaimed.more
    assert codes(store) == {"LIVE2345", "PLAYED23", "EMPTY234", "WAIT2345"}
    assert count(store, "players") == 4 and count(store, "analyses") == 2


def test_analyses_cache_expires_but_its_records_stay() -> None:
    store = a_store_a_host_has()
    reclaimed = reclaim_step(store, POLICY, time.time() + 4 * DAY)
    assert reclaimed.analyses == 2 and reclaimed.total == 2
    assert count(store, "analyses") == 0 and count(store, "records") == 3
    store.save_analysis("r-vanished", 1, "easy", "{}")  # of a record that is gone
    assert reclaim_step(store, POLICY, time.time()).analyses == 1


def test_closed_and_unstarted_tables_and_players_at_no_live_table_go_after_reclaim_days() -> None:
    store = a_store_a_host_has()
    reclaimed = reclaim_step(store, POLICY, time.time() + 8 * DAY, live_players=["connected"])
    assert (reclaimed.waiting_tables, reclaimed.closed_tables) == (1, 2)
    assert codes(store) == {"LIVE2345"}
    assert count(store, "actions WHERE code = 'PLAYED23'") == 0
    assert reclaimed.finished_games == 0  # its finished game waits its 30 days, as a record
    assert json.loads(store.record_json("r-played") or "null") == {"game": 1}
    # "watcher" sat only at the waiting table that went; "seated" has a live table
    assert {row[0] for row in store._db.execute("SELECT id FROM players")} == {
        "seated",
        "connected",
    }
    assert store.player_by_token("token of seated") is not None


def test_a_waiting_table_the_server_holds_stays() -> None:
    store = a_store_a_host_has()
    reclaim_step(store, POLICY, time.time() + 8 * DAY, live_tables=["WAIT2345"])
    assert "WAIT2345" in codes(store)
    assert store.player_by_token("token of watcher") is not None  # seated at a live table


def test_finished_games_past_the_limit_go_but_a_record_a_live_table_shows_stays() -> None:
    store = a_store_a_host_has()
    reclaimed = reclaim_step(store, POLICY, time.time() + 31 * DAY)
    assert reclaimed.finished_games == 2  # r-old and r-played
    assert store.record_json("r-old") is None and store.record_json("r-played") is None
    assert store.record_json("r-shown") is not None  # the live table still shows it
    assert store.load_actions("LIVE2345", 1) == []  # the old game's actions went with it
    assert len(store.load_actions("LIVE2345", 2)) == 3  # the shown game replays at load
    assert codes(store) == {"LIVE2345"}
    assert count(store, "actions WHERE code = 'PLAYED23'") == 0
    assert count(store, "analyses") == 0


def test_a_finished_game_one_day_inside_the_limit_stays() -> None:
    store = a_store_a_host_has()
    reclaimed = reclaim_step(store, POLICY, time.time() + 29 * DAY)
    assert reclaimed.finished_games == 0
    assert store.record_json("r-old") is not None and store.load_actions("LIVE2345", 1)


def test_zero_keeps_every_kind_for_ever() -> None:
    store = a_store_a_host_has()
    never = RetentionPolicy(keep_finished_days=0, reclaim_days=0, keep_analyses_days=0)
    assert reclaim_step(store, never, time.time() + 10_000 * DAY).total == 0
    assert count(store, "records") == 3 and count(store, "tables") == 4


def test_reclaiming_goes_in_batches_until_nothing_is_left() -> None:
    store = Store(":memory:")
    for number in range(7):
        store.save_record(f"r{number}", f"GONE{number:04d}", 1, {"n": number})
    small = replace(POLICY, batch=3)
    later = time.time() + 40 * DAY
    first = reclaim_step(store, small, later)
    assert first.finished_games == 3 and first.more
    rest = reclaim_all(store, small, later)
    assert rest.finished_games == 4 and not rest.more
    assert count(store, "records") == 0


def backdate(path: Path, days: float) -> None:
    """Make every stored row ``days`` older (the store's own clock, moved)."""
    db = sqlite3.connect(path)
    with db:
        for table, column in (
            ("players", "created"),
            ("tables", "updated"),
            ("records", "created"),
        ):
            db.execute(f"UPDATE {table} SET {column} = {column} - ?", (days,))
    db.close()


def test_the_server_reclaims_at_start_and_never_touches_a_table_in_play(tmp_path: Path) -> None:
    path = tmp_path / "spades.db"
    store = a_store_a_host_has()
    seed = sqlite3.connect(path)
    store._db.backup(seed)
    with seed:  # its live table is a sketch the server could not load: the server's own follow
        seed.execute("DELETE FROM tables WHERE code = 'LIVE2345'")
    seed.close()
    backdate(path, 400)

    async def test() -> None:
        server = await start_server(replace(TEST_CONFIG, db_path=str(path)))
        try:
            stored = server.hub.store
            # at start: every row older than its limit went, before loading
            assert codes(stored) == set() and server.hub.tables == {}
            for kind in ("players", "records", "actions", "analyses"):
                assert count(stored, kind) == 0, kind

            # someone who sat down, left (their table closed) and went away
            carol = await Client.hello(server.url, "carol")
            snap = await carol.request(m.CreateTable(private=True), m.Snapshot)
            await carol.request(m.Leave(code=snap.table.code), m.Left)
            await carol.close()
            carol_id = carol.welcome.player_id if carol.welcome else ""
            while server.hub.players[carol_id].conn is not None:
                await asyncio.sleep(0.01)

            # a game in play, then the hourly run with the clock a year on
            first, second, code = await two_players(server)
            moves = 0

            async def ten_moves(index: int, turn: m.YourTurn) -> bool:
                nonlocal moves
                moves += 1
                return moves > 10

            index, turn = await drive([first, second], random.Random(3), ten_moves)
            reclaimed = await server.hub.reclaim(now=time.time() + 400 * DAY)
            assert code in codes(stored) and code in server.hub.tables
            for client in (first, second):
                assert stored.player_by_token(client.token) is not None
            assert stored.load_actions(code, 1)  # the game in play keeps every action
            assert (reclaimed.closed_tables, reclaimed.players) == (1, 1)  # carol's
            assert stored.player_by_token(carol.token) is None
            assert snap.table.code not in codes(stored)
            mover = (first, second)[index]  # play goes on: the next move is accepted
            action = await choose(mover, turn, random.Random(4))
            mover.seq += 1
            move = m.Act(code=code, action=action, version=turn.version, seq=mover.seq)
            ack = await mover.request(move, m.Ack)
            assert ack.version == turn.version + 1
            again = await Client.hello(server.url, "alice", token=first.token)
            assert again.welcome is not None and again.welcome.resumed
            for client in (first, second, again):
                await client.close()
        finally:
            await server.close()

    asyncio.run(asyncio.wait_for(test(), 60))


def test_the_serve_flags_set_the_retention_policy() -> None:

    defaults = serve_config()
    assert (defaults.keep_finished_days, defaults.reclaim_days) == (365.0, 7.0)
    assert defaults.keep_analyses_days == 30.0
    args = ["--keep-finished-days", "90", "--reclaim-days", "0", "--keep-analyses-days", "2"]
    config = serve_config(*args)
    assert (config.keep_finished_days, config.reclaim_days, config.keep_analyses_days) == (
        90.0,
        0.0,
        2.0,
    )


def test_the_server_reclaims_every_interval_by_its_own_clock() -> None:
    async def test(server: Any) -> None:
        hub = server.hub
        hub.store.save_record("r-old", "GONE2345", 1, {"game": 1})
        hub.flush()
        assert hub.store.record_json("r-old") is not None
        hub.wall_clock = lambda: time.time() + 400 * DAY  # a year on, as the task sees it
        for _ in range(1000):  # the periodic task runs every 10 ms here
            if hub.store.record_json("r-old") is None:
                break
            await asyncio.sleep(0.01)
        assert hub.store.record_json("r-old") is None

    run(test, keep_finished_days=30, retention_interval_seconds=0.01)
