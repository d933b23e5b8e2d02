"""The store under steady writes: its write-ahead log stays bounded; hellos write nothing."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

from protocol import messages as m
from server import RunningServer
from server.store import Store
from tests.server.helpers import Client, run

LIMIT = 256 * 1024


def test_the_wal_stays_bounded_under_steady_writes(tmp_path: Path) -> None:
    db = tmp_path / "spades.db"
    store = Store(str(db), autocommit=False, wal_limit_bytes=LIMIT, checkpoint_interval=0.02)
    wal = Path(str(db) + "-wal")
    peak = 0
    try:
        for turn in range(3000):  # a commit per turn, like the server under load
            for index in range(4):
                store.append_action("K7QX2M9A", turn, index, 0, "bid 3" * 20, turn)
            store.commit()
            peak = max(peak, wal.stat().st_size)
            if turn % 100 == 0:
                time.sleep(0.03)  # the checkpointer gets its turn, as between loop turns
        # 3000 commits of a few pages each: many MB of log, past the limit at some point
        # (the largest size seen: the checkpointer may have cut it just before the end)...
        assert peak > LIMIT
        # ...until the checkpointer's next rounds cut it back (polled: a loaded machine
        # may give its thread a turn late; the bound is on size, not on time)
        for _ in range(500):
            if wal.stat().st_size <= LIMIT:
                break
            time.sleep(0.02)
        assert wal.stat().st_size <= LIMIT
    finally:
        store.close()
    reader = sqlite3.connect(db)
    assert reader.execute("SELECT count(*) FROM actions").fetchone() == (12_000,)
    reader.close()


def test_a_hello_flood_writes_no_player_rows(tmp_path: Path) -> None:
    db = tmp_path / "spades.db"

    async def test(server: RunningServer) -> None:
        for index in range(50):
            client = await Client.hello(server.url, f"flood{index}")
            await client.close()
        sitter = await Client.hello(server.url, "sitter")
        await sitter.request(m.CreateTable(), m.Snapshot)
        await asyncio.sleep(0)
        reader = sqlite3.connect(db)
        (count,) = reader.execute("SELECT count(*) FROM players").fetchone()
        reader.close()
        assert count == 1  # only the player who sat down
        assert await _gone(server, 50)

    run(test, db_path=str(db))


async def _gone(server: RunningServer, flooders: int) -> bool:
    for _ in range(200):
        if len(server.hub.players) == 1 and not server.hub.unstored:
            return True
        await asyncio.sleep(0.05)
    return False
