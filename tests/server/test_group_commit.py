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
from server.store import StoreError
from server.store.base import CommitBatch
from tests.server.test_turn import Server, Wire, a_table


class Gate:
    """Every batch the store detaches waits in the worker until :meth:`open` (and then
    fails with ``StoreError`` if :attr:`fail` is set)."""

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
                if gate.fail:
                    raise StoreError("disk full")
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


def test_nothing_leaves_while_its_commit_is_held_and_the_loop_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "held.db"

    async def main() -> None:
        server = Server(str(path))
        gate = Gate(server)
        code, alice, bob = a_table(server)
        await turns(3)  # the turn ended: its batch is in the worker, held
        assert gate.batches == 1
        # the loop is free meanwhile: a second table is made and joined
        other, carol, dave = a_table(server)
        await turns(10)
        assert other in server.rooms.rooms and gate.batches == 1  # gathered, not started
        for wire in (alice, bob, carol, dave):
            assert wire.written == []  # nothing sent before it is stored
        assert stored_tables(path) == set()  # and nothing is stored yet
        gate.open()
        await until(lambda: carol.written and dave.written)
        assert stored_tables(path) == {code, other}
        for wire in (alice, bob, carol, dave):
            assert wire.of(m.Snapshot) and wire.pending == []
        assert gate.batches == 2  # the second table's turns went in one group
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
