"""A committed turn is freed by reference counting: the group commit's hand-off to its
worker thread leaves no cycle for the garbage collector, and a session keeps one queue
list (issue 31: every young pass of the collector walked the objects of hundreds of
batches a second, and a fresh queue list per session per action).

The unit of work of tests/server/test_turn.py on a SQLite file (its commits run in the
worker thread); the collector's saved garbage (``gc.DEBUG_SAVEALL``) is what a collection
would have had to free."""

from __future__ import annotations

import asyncio
import gc
import random
from pathlib import Path

from tests.server.test_group_commit import move, seated_tables, until
from tests.server.test_turn import Server, Wire


def heard_more(wires: list[Wire], heard: list[int]) -> bool:
    return all(len(wire.written) > count for wire, count in zip(wires, heard, strict=True))


def play_to_the_wire(path: Path, moves: int) -> tuple[list[str], int, bool]:
    """Play ``moves`` actions on two tables, each stored by the worker and sent before
    the next, with the collector stopped. Returns the type names of the cyclic garbage
    left, the actions sent, and whether every session kept its first queue list."""

    async def main() -> tuple[list[str], int, bool]:
        server = Server(str(path))
        tables = seated_tables(server, 2)
        queues = {id(wire): wire.pending for _, wires, _ in tables for wire in wires.values()}
        shuffle = random.Random(3)
        sent = 0
        gc.collect()
        gc.disable()
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            for _ in range(moves):
                code, wires, seqs = shuffle.choice(tables)
                if move(server, code, wires, seqs):
                    everyone = list(wires.values())
                    heard = [len(wire.written) for wire in everyone]
                    await until(lambda: heard_more(everyone, heard))  # noqa: B023
                    sent += heard_more(everyone, heard)
            gc.collect()
            garbage = [f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.garbage]
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
            gc.enable()
        kept = all(
            wire.pending is queues[id(wire)] for _, wires, _ in tables for wire in wires.values()
        )
        server.work.close()
        return garbage, sent, kept

    return asyncio.run(main())


def test_committed_turns_leave_no_cyclic_garbage(tmp_path: Path) -> None:
    garbage, sent, _ = play_to_the_wire(tmp_path / "garbage.db", 40)
    assert sent >= 30  # each action was stored by the worker and sent to both seats
    assert garbage == []


def test_a_session_keeps_its_queue_list_across_commits(tmp_path: Path) -> None:
    _, sent, kept = play_to_the_wire(tmp_path / "queues.db", 20)
    assert sent >= 15
    assert kept
