"""Quick commits: a SQLite commit that waits for no disk flush runs on the loop's thread
when no batch is in flight (no hand-off to the worker and back), and still nothing is
sent before it is stored. While a checkpoint that truncates the log holds the file (it
blocks writers and flushes the disk), the turn's commit goes to the worker instead.

The unit of work of tests/server/test_turn.py on a SQLite file with ``quick_commits``;
each session records, when its frames are written, how many of the table's actions a
reader of the file sees."""

from __future__ import annotations

import asyncio
from pathlib import Path

from protocol import messages as m
from server.store.sqlite import QUICK_WRITES
from tests.server.test_group_commit import move, seats, stored_actions, turns, until
from tests.server.test_turn import Server, Wire, a_table


class Witness:
    """Wraps a wire's flush: what the file holds for ``code`` when frames go out."""

    def __init__(self, wire: Wire, path: Path, code: str) -> None:
        self.seen: list[tuple[int, list[int]]] = []  # (actions stored, versions written)
        flush = wire.flush

        def witnessed() -> None:
            before = len(wire.written)
            flush()
            versions = [e.version for e in wire.written[before:] if isinstance(e, m.Events)]
            if versions:
                self.seen.append((stored_actions(path, code), versions))

        wire.flush = witnessed  # type: ignore[method-assign]


def play(path: Path, moves: int, truncating: bool) -> tuple[Server, list[Witness], str, bool]:
    """``moves`` actions at one table, a turn of the loop ending after each; with
    ``truncating`` a log-truncating checkpoint holds the file all along. The last item:
    whether the commit worker was started."""

    async def main() -> tuple[Server, list[Witness], str, bool]:
        server = Server(str(path))
        server.store.quick_commits = True
        code, first, second = a_table(server)
        server.work.flush()
        wires = seats(server, code, first, second)
        witnesses = [Witness(wire, path, code) for wire in wires.values()]
        seqs: dict[int, int] = {}
        if truncating:
            server.store._truncating.acquire()
        try:
            for _ in range(moves):
                if not move(server, code, wires, seqs):
                    break
                await turns(2)
                if truncating:  # the worker's commit lands a little later
                    await until(lambda: server.work._inflight is None)
        finally:
            if truncating:
                server.store._truncating.release()
        worked = server.work._worker is not None
        server.work.close()
        return server, witnesses, code, worked

    return asyncio.run(main())


def test_a_quick_commit_runs_on_the_loop_and_is_stored_before_it_is_sent(
    tmp_path: Path,
) -> None:
    path = tmp_path / "quick.db"
    server, witnesses, code, worked = play(path, 12, truncating=False)
    assert not worked  # never handed to a worker thread
    for witness in witnesses:
        assert len(witness.seen) >= 10
        for stored, versions in witness.seen:
            assert max(versions) <= stored  # every action told was in the file already
    assert stored_actions(path, code) == server.rooms.rooms[code].state.version


def test_while_a_checkpoint_truncates_the_log_the_commit_goes_to_the_worker(
    tmp_path: Path,
) -> None:
    path = tmp_path / "truncating.db"
    server, witnesses, code, worked = play(path, 8, truncating=True)
    assert worked  # the loop did not wait for the file
    for witness in witnesses:
        assert len(witness.seen) >= 6
        for stored, versions in witness.seen:
            assert max(versions) <= stored
    assert stored_actions(path, code) == server.rooms.rooms[code].state.version


def test_a_turn_of_many_writes_goes_to_the_worker(tmp_path: Path) -> None:
    path = tmp_path / "busy.db"

    async def main() -> tuple[bool, bool, list[str]]:
        server = Server(str(path))
        server.store.quick_commits = True
        tables = []
        for _ in range(QUICK_WRITES + 2):
            code, first, second = a_table(server)
            tables.append((code, seats(server, code, first, second), {}))
        server.work.flush()
        one = tables[0]
        assert move(server, one[0], one[1], one[2])  # one write: quick
        await turns(2)
        quick_alone = server.work._worker is None
        heard = {code: [len(w.written) for w in wires.values()] for code, wires, _ in tables}
        for code, wires, seqs in tables:  # one turn, more writes than a quick commit's
            assert move(server, code, wires, seqs)
        await until(lambda: server.work._inflight is None and server.work._worker is not None)
        worked = server.work._worker is not None
        server.work.close()
        told = [
            code
            for code, wires, _ in tables
            if all(len(w.written) > h for w, h in zip(wires.values(), heard[code], strict=True))
        ]
        return quick_alone, worked, told

    quick_alone, worked, told = asyncio.run(main())
    assert quick_alone and worked
    assert len(told) == QUICK_WRITES + 2  # every table heard of its move once stored
