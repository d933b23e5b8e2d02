"""The PostgreSQL store against a real PostgreSQL (tests/pgfixture.py): the store API with
the same behaviour as SQLite (each store-level test runs on both), every event stored
before anyone hears of it, a server process on PostgreSQL killed with SIGKILL mid-game
and resumed, a COMMIT that fails because the connection was terminated, and fencing."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import psycopg
import pytest

from engine import replay
from protocol import messages as m
from protocol.codec import decode_server
from server import RunningServer, app
from server.store import FencedError, Storage, Store, StoreError, open_store
from server.store.pg import SCHEMA_VERSION, PgStore
from server.store.retention import reclaim_step
from server.store.sqlite import SCHEMA_VERSION as SQLITE_SCHEMA_VERSION
from tests.pgfixture import PgServer
from tests.server import helpers, test_games, test_lobby, test_resume
from tests.server.helpers import TEST_CONFIG, Client, drive, play_to_end, run, two_players
from tests.server.test_process import ServerProcess

CODE = "K7QX2M9A"
OTHER = "B4RT8ZQW"

StoreFactory = Callable[..., Any]  # (autocommit=..., on_begin=...) -> Store | PgStore


@pytest.fixture(params=["sqlite", "postgresql"])
def open_kind(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StoreFactory]:
    """Opens stores on one fresh database (SQLite file or PostgreSQL database): every
    call is another connection, like another server process; all closed at the end."""
    opened: list[Any] = []
    if request.param == "sqlite":
        path = str(tmp_path / "spades.db")

        def factory(**kwargs: Any) -> Any:
            store = Store(path, **kwargs)
            opened.append(store)
            return store
    else:
        dsn = request.getfixturevalue("pg_dsn")

        def factory(**kwargs: Any) -> Any:
            store = PgStore(dsn, **kwargs)
            opened.append(store)
            return store

    yield factory
    for store in opened:
        try:
            store.rollback()
            store.close()
        except StoreError:
            pass


# ---- the store API, on both stores ---------------------------------------------------


def test_players_tables_actions_records_and_analyses_round_trip(open_kind: StoreFactory) -> None:
    store = open_kind()
    store.add_player("p1", "alice", "token-1")
    assert store.player_by_token("token-1") == store.player_by_token("token-1")
    found = store.player_by_token("token-1")
    assert found is not None and (found.id, found.name) == ("p1", "alice")
    assert store.player_by_token("token-2") is None
    store.save_table(CODE, {"seats": [1, 2]}, "playing", 1)
    store.save_table(CODE, {"seats": [3]}, "playing", 2)  # an update, not a second row
    store.save_table(OTHER, {}, "closed", 1)
    row = store.load_table(CODE)
    assert row is not None and row.data == {"seats": [3]} and row.game_no == 2
    assert [r.code for r in store.load_tables()] == [CODE]  # closed tables are left out
    closed = store.load_table(OTHER)
    assert closed is not None and closed.status == "closed"
    for index in (3, 1, 2):
        store.append_action(CODE, 2, index, index % 2, f"bid {index}", index * 10)
    store.append_action(CODE, 1, 1, None, "deal x", None)
    actions = store.load_actions(CODE, 2)
    assert [(a.index, a.seat, a.action, a.seq) for a in actions] == [
        (1, 1, "bid 1", 10),
        (2, 0, "bid 2", 20),
        (3, 1, "bid 3", 30),
    ]
    store.save_record("r1", CODE, 1, {"format": "spades-record/1", "n": 1})
    store.save_record("r1", CODE, 1, {"format": "spades-record/1", "n": 2})
    text = store.record_json("r1")
    assert text is not None and json.loads(text)["n"] == 2
    assert store.record_json("nope") is None
    store.save_analysis("r1", 0, "easy", '{"a": 1}')
    store.save_analysis("r1", 0, "easy", '{"a": 2}')
    assert store.analysis_json("r1", 0, "easy") == '{"a": 2}'
    assert store.analysis_json("r1", 1, "easy") is None
    # a second connection (another process) sees all of it, and opening again is harmless
    again = open_kind()
    assert again.player_count() == 1
    assert again.load_actions(CODE, 2) == actions


def test_writes_stay_in_one_transaction_until_commit(open_kind: StoreFactory) -> None:
    begins: list[int] = []
    store = open_kind(autocommit=False, on_begin=lambda: begins.append(1))
    reader = open_kind()
    store.save_table(CODE, {"v": 1}, "playing", 1)
    store.append_action(CODE, 1, 1, 0, "bid 3", 1)
    assert len(begins) == 1  # one transaction for both writes
    assert store.write_attempts == 2
    assert store.load_actions(CODE, 1)[0].action == "bid 3"  # it sees its own writes
    assert reader.load_table(CODE) is None and reader.load_actions(CODE, 1) == []
    store.commit()
    assert reader.load_actions(CODE, 1)[0].action == "bid 3"
    store.append_action(CODE, 1, 2, 1, "bid 4", 1)
    assert len(begins) == 2
    store.rollback()
    assert [a.index for a in reader.load_actions(CODE, 1)] == [1]
    store.commit()  # nothing open: a no-op
    assert [a.index for a in store.load_actions(CODE, 1)] == [1]


def test_a_failed_write_loses_the_turn_and_the_store_goes_on(open_kind: StoreFactory) -> None:
    store = open_kind(autocommit=False)
    store.append_action(CODE, 1, 1, 0, "bid 3", 1)
    store.commit()
    store.append_action(CODE, 1, 2, 0, "bid 4", 2)
    # the key is taken: SQLite says so at the write, PostgreSQL (which holds the turn's
    # writes until its commit) at the commit; either way the turn is refused
    with pytest.raises((StoreError, sqlite3.IntegrityError)):
        store.append_action(CODE, 1, 1, 0, "again", 3)
        store.commit()
    # the caller refuses the turn: rollback, and the store is as it was
    store.rollback()
    assert [a.action for a in store.load_actions(CODE, 1)] == ["bid 3"]
    store.append_action(CODE, 1, 2, 0, "bid 5", 2)
    store.commit()
    assert [a.action for a in open_kind().load_actions(CODE, 1)] == ["bid 3", "bid 5"]


# ---- fencing, on both stores ---------------------------------------------------------


def test_fencing_a_newer_claim_stops_the_older_node(open_kind: StoreFactory) -> None:
    node_a = open_kind(autocommit=False)
    node_b = open_kind(autocommit=False)
    node_a.claim_table(CODE, 1)
    node_a.commit()
    node_a.save_table(CODE, {"by": "a"}, "playing", 1)
    node_a.append_action(CODE, 1, 1, 0, "bid 3", 1)
    node_a.commit()
    node_b.claim_table(CODE, 2)
    node_b.commit()
    # A still thinks it runs the table: its next commit writes nothing at all
    node_a.append_action(CODE, 1, 2, 1, "bid 4", 1)
    node_a.save_table(OTHER, {"by": "a"}, "playing", 1)  # same transaction, another table
    with pytest.raises(FencedError) as fenced:
        node_a.commit()
    assert fenced.value.codes == (CODE,)
    assert isinstance(fenced.value, StoreError)
    reader = open_kind()
    assert [a.index for a in reader.load_actions(CODE, 1)] == [1]
    assert reader.load_table(OTHER) is None
    # B commits fine, and a claim with a lower generation fails
    node_b.append_action(CODE, 1, 2, 1, "bid 5", 1)
    node_b.commit()
    assert [a.action for a in reader.load_actions(CODE, 1)] == ["bid 3", "bid 5"]
    with pytest.raises(FencedError):
        node_a.claim_table(CODE, 1)
    node_a.rollback()
    node_b.claim_table(CODE, 2)  # the same generation again is allowed
    node_b.commit()
    # a table never claimed is not checked (one node on its own)
    node_a.append_action(OTHER, 1, 1, 0, "deal x", None)
    node_a.commit()
    assert len(reader.load_actions(OTHER, 1)) == 1


def test_fencing_with_autocommit_and_unclaimed_tables(open_kind: StoreFactory) -> None:
    node_a = open_kind()
    node_b = open_kind()
    node_a.claim_table(CODE, 5)
    node_a.append_action(CODE, 1, 1, 0, "bid 1", 1)
    node_b.claim_table(CODE, 6)
    with pytest.raises(FencedError):
        node_a.append_action(CODE, 1, 2, 0, "bid 2", 2)
    node_a.append_action(OTHER, 1, 1, 0, "bid 2", 2)  # never claimed by A: not checked
    assert [a.index for a in node_b.load_actions(CODE, 1)] == [1]
    with pytest.raises(FencedError):
        node_b.claim_table(CODE, 4)


# ---- PostgreSQL only -------------------------------------------------------------------


def test_fencing_a_claim_while_the_old_owner_has_a_turn_open(pg_dsn: str) -> None:
    """B claims while A's turn is written but not committed: A's commit is refused."""
    node_a = PgStore(pg_dsn, autocommit=False)
    node_b = PgStore(pg_dsn, autocommit=False)
    try:
        node_a.claim_table(CODE, 1)
        node_a.save_table(CODE, {}, "playing", 1)
        node_a.commit()
        node_a.append_action(CODE, 1, 1, 0, "bid 3", 1)  # open transaction
        node_b.claim_table(CODE, 2)  # committed at once, on its own connection
        with pytest.raises(FencedError) as fenced:
            node_a.commit()
        assert fenced.value.codes == (CODE,)
        assert node_b.load_actions(CODE, 1) == []
        node_a.append_action(CODE, 1, 1, 0, "bid 3", 1)
        with pytest.raises(FencedError):  # and every later commit of A for that table
            node_a.commit()
        node_b.append_action(CODE, 1, 1, 1, "bid 4", 1)
        node_b.commit()
        assert [a.action for a in node_a.load_actions(CODE, 1)] == ["bid 4"]
    finally:
        node_a.close()
        node_b.close()


def test_the_schema_is_versioned_and_a_newer_one_is_refused(pg_dsn: str) -> None:
    store = PgStore(pg_dsn + "?options=-csynchronous_commit%3Doff")
    # options in the URL are kept beside the store's own session settings
    assert store._read("SHOW synchronous_commit", ()) == [("off",)]
    assert store._read("SHOW lock_timeout", ()) == [("5s",)]
    store.close()
    with psycopg.connect(pg_dsn, autocommit=True) as admin:
        row = admin.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        assert row == (str(SCHEMA_VERSION),)
        admin.execute("UPDATE meta SET value = %s WHERE key = 'schema_version'", (str(99),))
    with pytest.raises(StoreError, match="schema is version 99"):
        PgStore(pg_dsn)


def test_the_sqlite_schema_is_versioned_and_a_newer_one_is_refused(tmp_path: Path) -> None:
    path = str(tmp_path / "spades.db")
    Store(path).close()
    with sqlite3.connect(path) as db:
        row = db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        assert row == (SQLITE_SCHEMA_VERSION,)
        db.execute("UPDATE meta SET value = 99 WHERE key = 'schema_version'")
    db.close()
    with pytest.raises(StoreError, match="schema is version 99"):
        Store(path)


def test_an_unreachable_database_is_one_clear_line(pg_server: PgServer) -> None:
    with pytest.raises(StoreError) as error:
        PgStore(f"postgresql://spades:secret@127.0.0.1:{pg_server.port}/no_such_db")
    message = str(error.value)
    assert message.startswith("cannot open the store postgresql://spades@127.0.0.1:")
    assert "secret" not in message and "\n" not in message
    config = TEST_CONFIG.__class__(store_url="mysql://x")
    with pytest.raises(StoreError, match="unknown store"):
        open_store(config)


def test_a_lost_connection_is_opened_again_at_the_next_turn(
    pg_server: PgServer, pg_dsn: str
) -> None:
    store = PgStore(pg_dsn, autocommit=False)
    try:
        store.append_action(CODE, 1, 1, 0, "bid 3", 1)
        store.commit()
        _terminate(pg_server, store)
        # between turns: the next write opens a new connection, nothing is lost
        store.append_action(CODE, 1, 2, 0, "bid 4", 2)
        store.commit()
        _terminate(pg_server, store)
        assert len(store.load_actions(CODE, 1)) == 2  # a read reconnects too
        # a turn's writes are held until its commit: lost before that, nothing is lost
        store.append_action(CODE, 1, 3, 0, "bid 5", 3)
        _terminate(pg_server, store)
        store.commit()
        # once a read inside the turn has sent them, the turn is lost with the connection
        # (StoreError at commit, nothing stored), and the next turn works
        store.append_action(CODE, 1, 4, 0, "bid 6", 4)
        assert len(store.load_actions(CODE, 1)) == 4  # the read sees the turn's write
        _terminate(pg_server, store)
        with pytest.raises(StoreError):
            store.commit()
        store.rollback()
        assert len(store.load_actions(CODE, 1)) == 3
        store.append_action(CODE, 1, 4, 0, "bid 7", 4)
        store.commit()
        assert [a.action for a in store.load_actions(CODE, 1)] == [
            "bid 3",
            "bid 4",
            "bid 5",
            "bid 7",
        ]
    finally:
        store.close()


def _terminate(pg_server: PgServer, store: PgStore) -> None:
    pid = store._db.info.backend_pid
    with pg_server.admin() as admin:
        admin.execute("SELECT pg_terminate_backend(%s, 5000)", (pid,))


# ---- a server on PostgreSQL ------------------------------------------------------------


def test_every_event_a_seat_hears_is_already_stored_in_postgresql(pg_dsn: str) -> None:
    async def test(server: RunningServer) -> None:
        first, second, code = await two_players(server)
        reader = psycopg.connect(pg_dsn, autocommit=True)
        checked = 0

        def stored_first(message: m.ServerMessage) -> bool:
            nonlocal checked
            if isinstance(message, m.Events):
                row = reader.execute(
                    "SELECT max(idx) FROM actions WHERE code = %s AND game_no = 1", (code,)
                ).fetchone()
                assert row is not None and row[0] >= message.version
                checked += 1
            return False

        over = await asyncio.gather(
            play_to_end(first, random.Random(3), stop=stored_first),
            play_to_end(second, random.Random(4), stop=stored_first),
        )
        assert isinstance(over[0], m.GameOver)
        assert checked > 20
        reply = await first.request(m.GetRecord(record_id=over[0].record_id), m.RecordMessage)
        assert replay(json.loads(reply.record_json)).is_over
        reader.close()

    run(test, store_url=pg_dsn)


# At COMMIT (a deferred trigger), once: the backend terminates itself, so the connection
# is lost in the middle of the COMMIT and the transaction is rolled back.
KILL_AT_COMMIT = """
CREATE SEQUENCE kill_once;
CREATE FUNCTION kill_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF nextval('kill_once') = 1 THEN
        PERFORM pg_terminate_backend(pg_backend_pid());
        PERFORM pg_sleep(5);  -- the termination is handled here: COMMIT never finishes
    END IF;
    RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER kill_at_commit AFTER INSERT ON actions
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION kill_at_commit();
"""


def test_a_commit_that_fails_refuses_the_turn_and_the_next_turn_works(
    pg_server: PgServer, pg_dsn: str
) -> None:
    async def test(server: RunningServer) -> None:
        first, second, code = await two_players(server)
        store = server.hub.store
        assert isinstance(store, PgStore)

        def at_version(version: int) -> Callable[[int, m.YourTurn], Awaitable[bool]]:
            async def stop(index: int, turn: m.YourTurn) -> bool:
                return turn.version >= version and turn.phase != "exchange"

            return stop

        index, turn = await drive([first, second], random.Random(5), at_version(10))
        # the connection is terminated between turns: the next turn notices before it
        # sends anything, opens a new one, and nobody is refused anything
        old_backend = store._db.info.backend_pid
        _terminate(pg_server, store)
        mover = (first, second)[index]
        mover.seq += 1
        act = m.Act(code=code, action=turn.legal[0], version=turn.version, seq=mover.seq)
        ack = await mover.request(act, m.Ack)
        assert ack.version == turn.version + 1
        index, turn = await drive([first, second], random.Random(6), at_version(20))
        assert store._db.info.backend_pid != old_backend
        for client in (first, second):
            frames = [decode_server(frame) for frame in client.raw]
            assert not [e for e in frames if isinstance(e, m.ErrorMessage)]
        # now the connection goes in the middle of a COMMIT
        with psycopg.connect(pg_dsn, autocommit=True) as admin:
            admin.execute(KILL_AT_COMMIT)
        mover, other = (first, second) if index == 0 else (second, first)
        mover.seq += 1
        act = m.Act(code=code, action=turn.legal[0], version=turn.version, seq=mover.seq)
        req_id = mover.new_id()
        await mover.send(act.model_copy(update={"id": req_id}))
        heard: dict[int, list[m.ServerMessage]] = {0: [], 1: []}
        while not any(
            isinstance(message, m.ErrorMessage) and message.id == req_id for message in heard[0]
        ):
            heard[0].append(await mover.recv())
        while not any(isinstance(message, m.Snapshot) for message in heard[1]):
            heard[1].append(await other.recv())
        (refused,) = [message for message in heard[0] if isinstance(message, m.ErrorMessage)]
        assert refused.code == "internal_error" and refused.request == "action"
        # nothing of the refused action reached either seat: both get the stored state back
        for messages in heard.values():
            assert not [e for e in messages if isinstance(e, m.Events)]
            snapshots = [s for s in messages if isinstance(s, m.Snapshot)]
            assert [s.view.version for s in snapshots] == [turn.version]
        with psycopg.connect(pg_dsn, autocommit=True) as reader:
            row = reader.execute(
                "SELECT max(idx) FROM actions WHERE code = %s AND game_no = 1", (code,)
            ).fetchone()
            assert row == (turn.version,)
            (killed,) = reader.execute("SELECT last_value FROM kill_once").fetchone() or (0,)
            assert killed >= 1  # the trigger did fire
        # the turn is offered again on a new connection, and the game plays to its end
        mover.seq = other.seq = 10_000
        over = await asyncio.gather(
            play_to_end(first, random.Random(7)), play_to_end(second, random.Random(8))
        )
        assert all(isinstance(message, m.GameOver) for message in over)

    run(test, store_url=pg_dsn, store_retry_seconds=0.2)


def test_a_server_on_postgresql_killed_mid_game_resumes_with_the_token(
    tmp_path: Path, pg_dsn: str
) -> None:
    async def test() -> None:
        # --db points at a file that must never be created: the store is PostgreSQL
        unused = tmp_path / "unused.db"
        server = await ServerProcess(unused, "--store", pg_dsn).start()
        try:
            player = await Client.hello(server.url, "alice")
            snap = await player.request(
                m.CreateTable(bot="easy", overrides={"target_score": 150, "lose_score": -150}),
                m.Snapshot,
            )
            code = snap.table.code

            async def in_hand_two(index: int, turn: m.YourTurn) -> bool:
                return (await player.snapshot(code)).view.hand_number >= 2

            await drive([player], random.Random(41), in_hand_two)
            before = await player.snapshot(code)
        finally:
            server.kill()  # SIGKILL
        assert not unused.exists()

        server = await ServerProcess(unused, "--store", pg_dsn).start()
        try:
            again = await Client.hello(server.url, "alice", token=player.token)
            assert again.welcome is not None and again.welcome.resumed
            assert again.welcome.tables == (code,)
            resumed = await again.expect(m.Snapshot)
            assert resumed.view == before.view
            again.seq = player.seq
            over = await play_to_end(again, random.Random(42))
            assert isinstance(over, m.GameOver)
            reply = await again.request(m.GetRecord(record_id=over.record_id), m.RecordMessage)
        finally:
            server.kill()
        record = json.loads(reply.record_json)
        final = replay(record)  # the whole game, across the crash, replays identically
        assert final.is_over and final.winner == over.winner
        assert len(record["actions"]) > before.view.version

    asyncio.run(asyncio.wait_for(test(), 150))


def test_open_store_picks_the_store_by_its_address(pg_dsn: str, tmp_path: Path) -> None:
    stores: list[Storage] = [
        open_store(TEST_CONFIG.__class__(store_url=pg_dsn)),
        open_store(TEST_CONFIG.__class__(db_path=str(tmp_path / "s.db"))),
    ]
    assert isinstance(stores[0], PgStore) and isinstance(stores[1], Store)
    for store in stores:
        store.save_table(CODE, {}, "waiting", 1)
        assert store.write_attempts == 1
        store.commit()
        assert [row.code for row in store.load_tables()] == [CODE]
        store.close()


def test_a_fenced_table_is_dropped_by_the_node_that_lost_it(pg_dsn: str) -> None:
    async def test(server: RunningServer) -> None:
        first, second, code = await two_players(server)
        server.hub.store.claim_table(code, 1)  # this node runs the table under lease 1

        async def fifth_action(index: int, turn: m.YourTurn) -> bool:
            return turn.version >= 5 and turn.phase != "exchange"

        index, turn = await drive([first, second], random.Random(9), fifth_action)
        mover = (first, second)[index]
        other_node = PgStore(pg_dsn)
        try:
            other_node.claim_table(code, 2)  # another node took the lease over
            mover.seq += 1
            act = m.Act(code=code, action=turn.legal[0], version=turn.version, seq=mover.seq)
            req_id = mover.new_id()
            await mover.send(act.model_copy(update={"id": req_id}))
            heard: list[m.ServerMessage] = []
            while not any(getattr(message, "id", None) == req_id for message in heard):
                heard.append(await mover.recv())
            refused = heard[-1]
            assert isinstance(refused, m.ErrorMessage) and refused.code == "internal_error"
            assert "another server node" in refused.message
            assert [e for e in heard if isinstance(e, m.Left)] == [m.Left(table=code)]
            assert not [e for e in heard if isinstance(e, m.Events)]
            assert code not in server.hub.tables  # this node no longer runs it
            stored = other_node.load_actions(code, 1)
            assert stored[-1].index == turn.version  # the refused action was not stored
        finally:
            other_node.close()

    run(test, store_url=pg_dsn)


def test_serve_with_a_store_it_cannot_open_says_so_in_one_line(pg_server: PgServer) -> None:
    root = Path(__file__).resolve().parents[2]
    missing = f"postgresql://spades:hunter2@127.0.0.1:{pg_server.port}/no_such_db"
    for store, expected in (
        (missing, f"cannot open the store postgresql://spades@127.0.0.1:{pg_server.port}/"),
        ("mysql://db/x", "unknown store 'mysql://db/x'"),
    ):
        proc = subprocess.run(
            [sys.executable, "-m", "server", "--port", "0", "--store", store],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 1 and proc.stdout == ""
        assert proc.stderr.startswith(f"spades server: {expected}"), proc.stderr
        assert proc.stderr.count("\n") == 1 and "hunter2" not in proc.stderr


def test_a_store_error_does_not_quote_the_rows_it_failed_on(pg_dsn: str) -> None:
    store = PgStore(pg_dsn, autocommit=False)
    try:
        store.add_player_hashed("p1", "alice", "a" * 64)
        store.commit()
        store.add_player_hashed("p2", "bob", "a" * 64)  # the same token hash
        with pytest.raises(StoreError) as error:
            store.commit()
        assert "duplicate key" in str(error.value)
        assert "a" * 64 not in str(error.value)  # PostgreSQL's DETAIL quotes the key
        store.rollback()
        assert store.player_count() == 1
    finally:
        store.close()


@pytest.mark.parametrize("claim_commits", [True, False])
def test_a_commit_waits_for_a_claim_in_flight_and_then_obeys_it(
    pg_dsn: str, claim_commits: bool
) -> None:
    """A claim by another node is under way (its fence update not committed yet) while
    this node commits: the commit waits for it, then is fenced if the claim committed
    and goes through if it was rolled back."""
    node = PgStore(pg_dsn, autocommit=False)
    claimer = psycopg.connect(pg_dsn)  # a transaction of its own: the claim in flight
    watcher = psycopg.connect(pg_dsn, autocommit=True)
    try:
        node.claim_table(CODE, 1)
        node.append_action(CODE, 1, 1, 0, "bid 3", 1)
        node.commit()
        claimer.execute("UPDATE fences SET generation = 2 WHERE code = %s", (CODE,))
        node.append_action(CODE, 1, 2, 0, "bid 4", 2)
        outcome: list[BaseException | None] = []

        def commit() -> None:
            try:
                node.commit()
                outcome.append(None)
            except BaseException as error:
                outcome.append(error)

        committing = threading.Thread(target=commit)
        committing.start()
        backend = node._db.info.backend_pid
        waiting = False
        for _ in range(400):  # until the commit is seen waiting for the claim's row lock
            row = watcher.execute(
                "SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", (backend,)
            ).fetchone()
            if row is not None and row[0] == "Lock":
                waiting = True
                break
            committing.join(0.05)
        assert waiting and committing.is_alive() and outcome == []
        if claim_commits:
            claimer.commit()
        else:
            claimer.rollback()
        committing.join(30)
        assert not committing.is_alive()
        reader = PgStore(pg_dsn)
        stored = [a.index for a in reader.load_actions(CODE, 1)]
        reader.close()
        if claim_commits:
            assert isinstance(outcome[0], FencedError) and outcome[0].codes == (CODE,)
            assert stored == [1]
        else:
            assert outcome == [None]
            assert stored == [1, 2]
    finally:
        claimer.close()
        watcher.close()
        node.close()


def test_the_fixture_fails_clearly_when_postgresql_is_not_installed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests import pgfixture

    monkeypatch.setattr(pgfixture.glob, "glob", lambda pattern: [])
    monkeypatch.setattr(pgfixture.shutil, "which", lambda name: None)
    with pytest.raises(
        RuntimeError, match=r"PostgreSQL is not installed.*apt-get install postgresql"
    ):
        pgfixture.find_pg_bin()
    monkeypatch.undo()
    assert (pgfixture.find_pg_bin() / "postgres").exists()


def test_while_postgresql_refuses_connections_tables_wait_and_come_back_exactly(
    pg_server: PgServer, pg_dsn: str
) -> None:
    database = pg_dsn.rsplit("/", 1)[1]

    def allow(allowed: bool) -> None:
        with pg_server.admin() as admin:
            admin.execute(f'ALTER DATABASE "{database}" ALLOW_CONNECTIONS {allowed}')
            if not allowed:
                admin.execute(
                    "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity "
                    "WHERE datname = %s",
                    (database,),
                )

    async def test(server: RunningServer) -> None:
        first, second, code = await two_players(server)

        async def tenth_action(index: int, turn: m.YourTurn) -> bool:
            return turn.version >= 10 and turn.phase != "exchange"

        index, turn = await drive([first, second], random.Random(11), tenth_action)
        mover, other = (first, second) if index == 0 else (second, first)
        allow(False)  # the database is down for this server: no connection at all
        try:
            mover.seq += 1
            act = m.Act(code=code, action=turn.legal[0], version=turn.version, seq=mover.seq)
            refused = await mover.request(act, m.ErrorMessage)
            assert refused.code == "internal_error"
            # memory may not keep an action the store does not have: the table leaves
            await other.expect(m.Left, lambda left: left.table == code)
            assert code not in server.hub.tables
            # a request that needs to read the store is answered, not left hanging
            stranger = await Client.open(server.url)
            await stranger.send(m.Hello(protocol_version=1, name="carol", token=first.token))
            failed = await stranger.expect(m.ErrorMessage)
            assert failed.code == "internal_error" and failed.request == "hello"
            await stranger.close()
        finally:
            allow(True)
        # once the store answers the table is loaded again as stored, and play goes on
        for client in (mover, other):
            snap = await client.expect(m.Snapshot, lambda s: s.table.code == code)
            assert snap.view.version == turn.version
        mover.seq = other.seq = 10_000
        over = await asyncio.gather(
            play_to_end(first, random.Random(12)), play_to_end(second, random.Random(13))
        )
        assert isinstance(over[0], m.GameOver)
        reply = await first.request(m.GetRecord(record_id=over[0].record_id), m.RecordMessage)
        final = replay(json.loads(reply.record_json))
        assert final.is_over and final.winner == over[0].winner
        with psycopg.connect(pg_dsn, autocommit=True) as reader:
            indexes = [
                row[0]
                for row in reader.execute(
                    "SELECT idx FROM actions WHERE code = %s AND game_no = 1 ORDER BY idx",
                    (code,),
                )
            ]
        assert indexes == list(range(1, len(indexes) + 1))  # no gap, nothing twice

    run(test, store_url=pg_dsn, store_retry_seconds=0.2)


# ---- the hub's own tests, again on PostgreSQL ------------------------------------------

EXISTING_HUB_TESTS = [
    (test_games.test_two_clients_play_a_whole_game, ("five-hundred",)),
    (test_games.test_a_client_plays_the_bot, ("classic",)),
    (test_resume.test_a_dropped_player_resumes_with_the_exact_view, ("play", True)),
    (test_resume.test_the_bot_stands_in_when_the_hold_runs_out_and_the_player_takes_it_back, ()),
    (test_lobby.test_list_join_watch_and_add_bot, ()),
    (test_lobby.test_leaving_mid_game_forfeits_and_closes_the_table_when_nobody_is_left, ()),
    (test_lobby.test_rematch_starts_a_new_game_at_the_same_table, ()),
]


@pytest.mark.parametrize(
    ("existing", "arguments"),
    EXISTING_HUB_TESTS,
    ids=[existing.__name__ for existing, _ in EXISTING_HUB_TESTS],
)
def test_the_hubs_own_tests_pass_on_postgresql(
    existing: Callable[..., None],
    arguments: tuple[Any, ...],
    pg_dsn: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(helpers, "TEST_CONFIG", replace(helpers.TEST_CONFIG, store_url=pg_dsn))
    opened: list[Storage] = []

    def open_and_note(*args: Any, **kwargs: Any) -> Storage:
        store = open_store(*args, **kwargs)
        opened.append(store)
        return store

    monkeypatch.setattr(app, "open_store", open_and_note)
    existing(*arguments)
    assert opened and all(isinstance(store, PgStore) for store in opened)
    with psycopg.connect(pg_dsn, autocommit=True) as reader:
        (stored,) = reader.execute("SELECT count(*) FROM actions").fetchone() or (0,)
    assert stored > 0  # the game really went through PostgreSQL


def test_sqlite_a_claim_inside_a_lost_turn_is_forgotten(tmp_path: Path) -> None:
    path = str(tmp_path / "spades.db")
    store = Store(path, autocommit=False)
    other = Store(path)
    try:
        store.append_action(CODE, 1, 1, 0, "bid 3", 1)
        store.claim_table(CODE, 3)  # part of the open turn
        assert store.claimed == {CODE: 3}
        store.rollback()
        assert store.claimed == {}  # never stored, so not this node's
        other.claim_table(CODE, 1)  # nothing higher is stored
        store.claim_table(CODE, 2)
        store.commit()
        assert store.claimed == {CODE: 2}
        with pytest.raises(FencedError):
            other.append_action(CODE, 1, 1, 0, "bid 3", 1)
    finally:
        other.close()
        store.close()


# ---- retention, on both stores --------------------------------------------------------


def test_retention_reclaims_the_same_rows_on_both_stores(open_kind: StoreFactory) -> None:
    """The documented policy (tests/server/test_keep_retention.py) on either store: the
    same kinds go at the same ages, and what a live table shows stays."""
    from tests.server.test_keep_retention import POLICY, a_store_a_host_has

    store = open_kind()
    a_store_a_host_has(store)
    day = 86400.0
    now = time.time()
    assert reclaim_step(store, POLICY, now + 2 * day).total == 0
    assert reclaim_step(store, POLICY, now + 4 * day).analyses == 2
    step = reclaim_step(store, POLICY, now + 8 * day, live_players=["connected"])
    assert (step.closed_tables, step.waiting_tables, step.players) == (2, 1, 2)
    assert store.player_by_token("token of seated") is not None  # at a live table
    assert store.player_by_token("token of connected") is not None  # connected now
    assert store.player_by_token("token of watcher") is None  # sat at the waiting table
    step = reclaim_step(store, POLICY, now + 31 * day)
    assert step.finished_games == 2  # r-old and r-played; r-shown stays
    assert store.record_json("r-old") is None and store.record_json("r-shown") is not None
    assert store.load_actions("LIVE2345", 1) == [] and len(store.load_actions("LIVE2345", 2)) == 3


def test_retention_on_postgresql_runs_on_one_node_at_a_time(pg_dsn: str) -> None:
    """Two nodes reclaim at once: the one holding the advisory lock (until its commit)
    deletes, the other finds nothing to do; after the commit the lock is free again."""
    from tests.server.test_keep_retention import POLICY, a_store_a_host_has

    setup = PgStore(pg_dsn)
    a_store_a_host_has(setup)
    setup.close()
    first, second = PgStore(pg_dsn, autocommit=False), PgStore(pg_dsn, autocommit=False)
    later = time.time() + 8 * 86400.0
    try:
        assert reclaim_step(first, POLICY, later).total == 8  # 3 tables, 2 analyses, 3 players
        assert reclaim_step(second, POLICY, later).total == 0  # the lock is taken
        first.commit()
        second.commit()
        assert reclaim_step(second, POLICY, later).total == 0  # nothing left: all gone
        second.commit()
        assert first.load_table("EMPTY234") is None
    finally:
        first.close()
        second.close()
