"""Start-up with bad data: damaged tables are left out and reported by code; a store that
cannot be opened is one clear line, never a traceback; the store file is created 0600."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sqlite3
import stat
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from protocol import messages as m
from server import ServerConfig, ServerError, start_server
from tests.server.helpers import TEST_CONFIG, Client

ROOT = Path(__file__).resolve().parents[2]


def _serve_fails(db: str) -> str:
    """Run ``python3 -m server --db db`` and return its stderr; it must exit 1 at once."""
    proc = subprocess.run(
        [sys.executable, "-m", "server", "--port", "0", "--db", db],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout == ""
    return proc.stderr


def test_a_garbage_store_file_is_one_clear_line(tmp_path: Path) -> None:
    db = tmp_path / "spades.db"
    db.write_bytes(b"this is not a database, just some bytes\n" * 100)
    err = _serve_fails(str(db))
    assert err == f"spades server: cannot open the store {db}: file is not a database\n"


def test_an_uncreatable_store_path_is_reported_as_such_not_as_cannot_listen(
    tmp_path: Path,
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    err = _serve_fails(str(blocker / "spades.db"))
    assert err.startswith(f"spades server: cannot open the store {blocker / 'spades.db'}: ")
    assert "cannot listen" not in err and err.count("\n") == 1


def test_a_read_only_store_file_is_one_clear_line(tmp_path: Path) -> None:
    db = tmp_path / "spades.db"
    sqlite3.connect(db).close()
    if os.geteuid() == 0:  # root writes through file modes: make the file immutable
        subprocess.run(["chattr", "+i", str(db)], check=True)
    else:
        db.chmod(0o444)
    try:
        err = _serve_fails(str(db))
    finally:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(db)], check=True)
    assert err.startswith(f"spades server: cannot open the store {db}: ")
    assert err.count("\n") == 1 and "Traceback" not in err


def test_the_store_file_is_created_0600(tmp_path: Path) -> None:
    db = tmp_path / "new" / "spades.db"

    async def main() -> None:
        server = await start_server(replace(TEST_CONFIG, db_path=str(db)))
        client = await Client.hello(server.url, "dora")
        await client.request(m.CreateTable(), m.Snapshot)  # something is written
        await server.close()

    asyncio.run(main())
    for path in [db, *tmp_path.glob("new/spades.db-*")]:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path


def test_damaged_tables_are_left_out_and_reported_by_code_the_others_load(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "spades.db"
    config = replace(TEST_CONFIG, db_path=str(db))

    async def first_run() -> list[tuple[str, str]]:
        server = await start_server(config)
        seated = []
        for name in ("ann", "ben", "cat", "dan"):
            client = await Client.hello(server.url, name)
            snap = await client.request(m.CreateTable(), m.Snapshot)
            seated.append((client.token, snap.table.code))
        await server.close()
        return seated

    seated = asyncio.run(first_run())
    (bad_json, _), (bad_rules, _), (bad_action, _) = [(c, t) for t, c in seated[:3]]
    store = sqlite3.connect(db)
    store.execute("UPDATE tables SET data = '{not json' WHERE code = ?", (bad_json,))
    (data,) = store.execute("SELECT data FROM tables WHERE code = ?", (bad_rules,)).fetchone()
    damaged = json.loads(data)
    damaged["rules"]["target_score"] = -5
    store.execute(
        "UPDATE tables SET data = ?, status = 'playing' WHERE code = ?",
        (json.dumps(damaged), bad_rules),
    )
    store.execute("UPDATE tables SET status = 'playing' WHERE code = ?", (bad_action,))
    store.execute(
        "INSERT INTO actions (code, game_no, idx, seat, action) VALUES (?, 1, 1, 0, 'bid 99')",
        (bad_action,),
    )
    store.commit()
    store.close()

    async def second_run() -> None:
        caplog.set_level(logging.INFO, logger="server")
        server = await start_server(config)
        try:
            summary = [r for r in caplog.records if "could not be loaded" in r.getMessage()]
            assert len(summary) == 1
            for code in (bad_json, bad_rules, bad_action):
                assert code in summary[0].getMessage()
            damaged_lines = [
                r for r in caplog.records if "stored data is damaged" in r.getMessage()
            ]
            assert len(damaged_lines) == 3 and not any(r.exc_info for r in caplog.records)
            token, good = seated[3]
            back = await Client.hello(server.url, "dan", token=token)
            assert back.welcome is not None and back.welcome.tables == (good,)
            assert set(server.hub.tables) == {good}
        finally:
            await server.close()

    asyncio.run(second_run())


def test_store_errors_are_server_errors(tmp_path: Path) -> None:
    (tmp_path / "x.db").write_text("garbage" * 100)

    async def main() -> None:
        with pytest.raises(ServerError, match="file is not a database"):
            await start_server(ServerConfig(port=0, db_path=str(tmp_path / "x.db")))

    asyncio.run(main())
