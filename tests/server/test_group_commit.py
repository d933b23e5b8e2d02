"""Group commit: the store commits in a worker thread, the loop goes on, and still nothing
is sent before it is stored, every table's writes and every session's frames in order.

The unit of work of tests/server/test_turn.py on a SQLite file (a file store commits off the
loop); a batch is held in the worker by an event until the test lets it go."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import threading
from pathlib import Path

from protocol import convert
from protocol import messages as m
from server.lobby import handlers
from server.store import Storage, Store
from server.store.base import CommitBatch
from server.store.pg import PgStore
from tests.server.test_turn import Server, Wire, a_table


class Gate:
    """Every batch the store detaches waits in the worker until :meth:`open` (and then
    fails, a statement refused by SQLite, if :attr:`fail` is set)."""

    def __init__(self, server: Server) -> None:
        self.event = threading.Event()
        self.fail = False
        self.batches = 0
        detach = server.store.detach

        def held() -> CommitBatch | None:
            batch = detach()
            if batch is None:
                return None
            self.batches += 1
            run, gate = batch.run, self

            def run_when_open() -> None:
                gate.event.wait(30)
                if gate.fail:  # a statement the database refuses: the batch is lost
                    batch.held.append(("INSERT INTO no_such_table VALUES (1)", ()))  # type: ignore[attr-defined]
                run()

            batch.run = run_when_open  # type: ignore[method-assign]
            return batch

        server.store.detach = held  # type: ignore[method-assign]

    def open(self) -> None:
        self.event.set()


def stored_tables(path: Path) -> set[str]:
    """The table codes a reader of the file sees (committed rows only)."""
    with sqlite3.connect(path) as db:
        return {row[0] for row in db.execute("SELECT code FROM tables")}


async def turns(count: int) -> None:
    for _ in range(count):
        await asyncio.sleep(0)


async def until(condition: object, tries: int = 500) -> None:
    """Let the loop run until ``condition()`` holds (bounded: the test then fails)."""
    for _ in range(tries):
        if callable(condition) and condition():
            return
        await asyncio.sleep(0.01)


def move(server: Server, code: str, wires: dict[int, Wire], seqs: dict[int, int]) -> bool:
    """The player to move at table ``code`` plays a random legal action (False: nobody
    is to move now)."""
    room = server.rooms.rooms[code]
    seat = room.state.current_player
    if seat is None:
        return False
    wire = wires[seat]
    action = random.Random(room.state.version).choice(room.state.legal_actions(seat))
    seqs[seat] = seqs.get(seat, 0) + 1
    act = m.Act(
        code=code,
        seq=seqs[seat],
        version=room.state.version,
        action=convert.action_message(action),
        id=seqs[seat],
    )
    server.request(handlers.act, wire, act)
    return True


def seats(server: Server, code: str, first: Wire, second: Wire) -> dict[int, Wire]:
    room = server.rooms.rooms[code]
    assert first.player is not None
    mine = room.seat_of(first.player.id)
    assert mine is not None
    return {mine: first, 1 - mine: second}


def seated_tables(server: Server, count: int) -> list[tuple[str, dict[int, Wire], dict[int, int]]]:
    """``count`` tables, each with its two players seated and stored: (code, wires by
    seat, the sequence numbers :func:`move` keeps)."""
    tables: list[tuple[str, dict[int, Wire], dict[int, int]]] = []
    for _ in range(count):
        code, first, second = a_table(server)
        tables.append((code, seats(server, code, first, second), {}))
    server.work.flush()
    return tables


def stored_actions(path: Path, code: str) -> int:
    """How many actions of table ``code`` a reader of the file sees (committed only)."""
    with sqlite3.connect(path) as db:
        row = db.execute("SELECT count(*) FROM actions WHERE code = ?", (code,)).fetchone()
        return int(row[0])


def test_nothing_leaves_while_its_commit_is_held_and_the_loop_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "held.db"

    async def main() -> None:
        server = Server(str(path))
        (one, wires_one, seqs_one), (two, wires_two, seqs_two) = seated_tables(server, 2)
        everyone = [*wires_one.values(), *wires_two.values()]
        heard = [len(wire.written) for wire in everyone]
        stored = stored_actions(path, one), stored_actions(path, two)
        gate = Gate(server)
        assert move(server, one, wires_one, seqs_one)
        await turns(3)  # the turn ended: its batch is in the worker, held
        assert gate.batches == 1
        # the loop is free meanwhile: the other table plays (in memory; its commit waits)
        version = server.rooms.rooms[two].state.version
        assert move(server, two, wires_two, seqs_two)
        await turns(10)
        assert server.rooms.rooms[two].state.version > version
        assert gate.batches == 1  # gathered behind the batch in flight, not started
        assert [len(wire.written) for wire in everyone] == heard  # nothing sent ...
        assert (stored_actions(path, one), stored_actions(path, two)) == stored  # ... or stored
        gate.open()
        await until(lambda: all(len(w.written) > h for w, h in zip(everyone, heard, strict=True)))
        assert stored_actions(path, one) > stored[0] and stored_actions(path, two) > stored[1]
        for wire in everyone:
            assert wire.of(m.Events) and wire.pending == []
        assert gate.batches == 2  # the other table's turn went in the next group
        server.work.close()

    asyncio.run(main())


def test_each_table_stores_and_tells_its_actions_in_order(tmp_path: Path) -> None:
    path = tmp_path / "order.db"

    async def main() -> None:
        server = Server(str(path))
        tables = []
        for _ in range(3):
            code, first, second = a_table(server)
            tables.append((code, seats(server, code, first, second), {}))
        server.work.flush()
        shuffle = random.Random(7)
        moves = 0
        for _ in range(60):
            code, wires, seqs = shuffle.choice(tables)
            moves += move(server, code, wires, seqs)
            if shuffle.random() < 0.5:
                await asyncio.sleep(0)  # a turn ends now and then, mid-commit or not
        server.work.close()
        assert moves >= 30
        with sqlite3.connect(path) as db:
            for code, wires, _ in tables:
                rows = [r[0] for r in db.execute("SELECT idx FROM actions WHERE code = ?", (code,))]
                version = server.rooms.rooms[code].state.version
                assert sorted(rows) == list(range(1, version + 1))  # every action, once
                for wire in wires.values():
                    seen = [e.version for e in wire.of(m.Events) if e.table == code]
                    assert seen == sorted(seen) and len(seen) == len(set(seen))
                    assert seen[-1] == version  # everything stored was told, in order

    asyncio.run(main())


def test_a_failed_batch_refuses_the_group_behind_it_and_tells_nobody(tmp_path: Path) -> None:
    path = tmp_path / "failed.db"

    async def main() -> None:
        server = Server(str(path))
        code, alice, bob = a_table(server)
        server.work.flush()
        wires = seats(server, code, alice, bob)
        room = server.rooms.rooms[code]
        stored = room.state.version
        heard = {id(w): len(w.written) for w in wires.values()}
        gate = Gate(server)
        seqs: dict[int, int] = {}
        assert move(server, code, wires, seqs)
        await turns(3)  # in the worker, held
        assert move(server, code, wires, seqs)  # gathered behind it, on top of it
        await turns(3)
        assert server.rooms.rooms[code].state.version == stored + 2  # in memory only
        gate.fail = True
        gate.open()
        await until(lambda: any(w.of(m.ErrorMessage) for w in wires.values()))
        await turns(5)
        assert server.rooms.rooms[code].state.version == stored  # back to what is stored
        refusals = [e for w in wires.values() for e in w.of(m.ErrorMessage)]
        assert sorted(e.code for e in refusals) == ["internal_error", "internal_error"]
        for wire in wires.values():  # nobody heard either move
            assert not [e for e in wire.written[heard[id(wire)] :] if isinstance(e, m.Events)]
        with sqlite3.connect(path) as db:
            count = db.execute("SELECT count(*) FROM actions WHERE code = ?", (code,))
            assert count.fetchone()[0] == stored
        server.work.close()

    asyncio.run(main())


def _read_waits_for_the_batch_ahead(store: Storage) -> None:
    """Action 1 detached (not run yet), action 2 held in the next transaction: a read in
    another thread (as the loop reads while the worker commits) waits for the batch ahead,
    then sees both, in order; nothing is lost or out of order once both are committed."""
    store.save_table("T1", {}, "playing", 1)
    store.append_action("T1", 1, 1, 0, "a1", 1)
    ahead = store.detach()
    assert ahead is not None
    store.append_action("T1", 1, 2, 1, "a2", 1)
    seen: list[list[int]] = []
    reader = threading.Thread(target=lambda: seen.append(
        [row.index for row in store.load_actions("T1", 1)]
    ))  # fmt: skip
    reader.start()
    reader.join(0.3)  # a pause only: however long it takes, the read waits for `ahead`
    ahead.run()  # (with the read first, its BEGIN would land inside the next transaction)
    ahead.settle(True)
    reader.join(30)
    assert seen == [[1, 2]]
    store.commit()
    assert [row.index for row in store.load_actions("T1", 1)] == [1, 2]


def test_sqlite_a_read_waits_for_the_batches_detached_before_it(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "order.db"), autocommit=False)
    try:
        _read_waits_for_the_batch_ahead(store)
    finally:
        store.close()


def test_postgresql_a_read_waits_for_the_batches_detached_before_it(pg_dsn: str) -> None:
    store = PgStore(pg_dsn, autocommit=False)
    try:
        _read_waits_for_the_batch_ahead(store)
    finally:
        store.close()
