"""``spades backup`` and ``spades restore``: a consistent copy of a live store, taken while
games go on, that replays and that a server can start from; clear errors otherwise."""

from __future__ import annotations

import asyncio
import json
import os
import random
import resource
import signal
import sqlite3
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from engine import replay
from protocol import messages as m
from server import start_server
from server.backup import BackupError, backup_store, check_copy, restore_store
from server.store import Store
from tests.server.helpers import FAST, TEST_CONFIG, Client, drive, play_to_end

ROOT = Path(__file__).resolve().parents[2]
STORE_FILES = ("spades.db", "spades.db-wal", "spades.db-shm")


def spades(*args: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    """The real ``spades`` command (this checkout's), as a process."""
    return subprocess.run(
        [sys.executable, "-m", "client.cli", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        **kwargs,  # type: ignore[call-overload]
    )


async def keep_playing(client: Client, rng: random.Random, games: list[str]) -> None:
    """Random legal moves, game after game (a rematch after each), until cancelled."""
    while True:
        over = await play_to_end(client, rng)
        assert isinstance(over, m.GameOver)
        if over.record_id not in games:
            games.append(over.record_id)
        await client.send(m.Rematch(code=over.table))


def test_a_backup_taken_under_load_replays_and_a_server_resumes_from_it(tmp_path: Path) -> None:
    live_db, copy_db = tmp_path / "live.db", tmp_path / "copy.db"

    async def test() -> None:
        server = await start_server(replace(TEST_CONFIG, db_path=str(live_db)))
        clients: list[Client] = []
        tasks: list[asyncio.Task[None]] = []
        games: list[str] = []
        try:
            # three tables of two people (two short games, one long), one person and the bot
            for number, rules in enumerate((FAST, FAST, {"target_score": 500})):
                first = await Client.hello(server.url, f"a{number}")
                second = await Client.hello(server.url, f"b{number}")
                snap = await first.request(m.CreateTable(overrides=rules), m.Snapshot)
                await second.request(m.JoinTable(code=snap.table.code), m.Snapshot)
                clients += [first, second]
            solo = await Client.hello(server.url, "solo")
            await solo.request(m.CreateTable(overrides=FAST, bot="easy"), m.Snapshot)
            clients.append(solo)
            for index, client in enumerate(clients):
                task = asyncio.create_task(keep_playing(client, random.Random(index), games))
                tasks.append(task)
            while len(games) < 4:  # some finished games in the store before the copy
                await asyncio.sleep(0.05)
                for task in tasks:
                    if task.done():
                        task.result()  # a client failed: say why
            moves_before = sum(client.seq for client in clients)
            # the real command, in its own process, one page a step: it spans many commits
            backup = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "client.cli", "backup", str(copy_db), "--db", str(live_db),
                "--step-pages", "1", "--step-pause", "0.01",
                cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            )  # fmt: skip
            out, err = await asyncio.wait_for(backup.communicate(), 60)
            moves_during = sum(client.seq for client in clients) - moves_before
            assert backup.returncode == 0, err
            assert out.decode().startswith(f"spades backup: {copy_db} ("), out
            assert moves_during > 0  # play went on while the copy was taken
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

            assert os.stat(copy_db).st_mode & 0o777 == 0o600
            assert not list(tmp_path.glob(".*.tmp"))  # no temporary file left behind
            copy = sqlite3.connect(copy_db)
            assert copy.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            records = copy.execute("SELECT record_id, record FROM records").fetchall()
            assert len(records) >= 4
            for record_id, text in records:
                record = json.loads(text)
                state = replay(record)  # every record replays, to the same outcome
                assert state.version == record["version"] and state.is_over == record["finished"]
                assert server.hub.store.record_json(record_id) == text  # as the live store has it
            open_tables = copy.execute(
                "SELECT code, data, game_no FROM tables WHERE status = 'playing'"
            ).fetchall()
            # one moment of the store: each game's actions in the copy begin the live ones
            games = copy.execute("SELECT DISTINCT code, game_no FROM actions").fetchall()
            for code, game_no in games:
                copied = copy.execute(
                    "SELECT idx, seat, action, seq FROM actions WHERE code = ? AND game_no = ?"
                    " ORDER BY idx",
                    (code, game_no),
                ).fetchall()
                live = server.hub.store.load_actions(code, game_no)
                assert [tuple(row) for row in copied] == [
                    (a.index, a.seat, a.action, a.seq) for a in live[: len(copied)]
                ]
                assert [row[0] for row in copied] == list(range(1, len(copied) + 1))
            copy.close()
            assert open_tables and len(games) >= 4
        finally:
            for client in clients:
                await client.close()
            await server.close()

        # a server started on the copy: every open table is back, and a player resumes
        restored = await start_server(replace(TEST_CONFIG, db_path=str(copy_db)))
        try:
            assert {code for code, _, _ in open_tables} <= set(restored.hub.tables)
            client_of = {c.welcome.player_id: c for c in clients if c.welcome is not None}
            code, data, game_no = next(
                row
                for row in open_tables
                if all(seat["kind"] == "human" for seat in json.loads(row[1])["seats"])
            )
            players = [seat["player_id"] for seat in json.loads(data)["seats"]]
            stored_moves = len(restored.hub.store.load_actions(code, game_no))
            again = []
            for player in players:
                client = await Client.hello(restored.url, "x", token=client_of[player].token)
                assert client.welcome is not None and client.welcome.resumed
                assert code in client.welcome.tables
                snap = await client.expect(m.Snapshot, lambda s: s.table.code == code)
                assert snap.view.version == stored_moves
                client.seq = client_of[player].seq  # a resent seq would only be acked again
                again.append(client)
            moves = 0

            async def twenty_moves(index: int, turn: m.YourTurn) -> bool:
                nonlocal moves
                moves += 1
                return moves > 20

            await drive(again, random.Random(7), twenty_moves)  # the game goes on
            assert restored.hub.tables[code].state.version >= stored_moves + 20
            for client in again:
                await client.close()
        finally:
            await restored.close()

    asyncio.run(asyncio.wait_for(test(), 120))


def test_backup_refuses_a_missing_store_and_an_unwritable_target(tmp_path: Path) -> None:
    missing = spades("backup", str(tmp_path / "copy.db"), "--db", str(tmp_path / "none.db"))
    assert missing.returncode == 1
    assert missing.stderr == f"spades backup: no store at {tmp_path / 'none.db'}\n"
    assert not (tmp_path / "none.db").exists()  # not created by looking

    store = tmp_path / "spades.db"
    Store(str(store)).close()
    (tmp_path / "file").write_text("not a directory")
    unwritable = spades("backup", str(tmp_path / "file" / "copy.db"), "--db", str(store))
    assert unwritable.returncode == 1
    assert unwritable.stderr.startswith(f"spades backup: cannot write {tmp_path}/file/copy.db: ")
    assert unwritable.stderr.count("\n") == 1

    not_a_store = spades("backup", str(tmp_path / "copy.db"), "--db", str(tmp_path / "file"))
    assert not_a_store.returncode == 1
    assert "is not a spades store" in not_a_store.stderr
    # nothing written but the store's own (empty) log files a reader may leave
    assert {p.name for p in tmp_path.iterdir()} <= {"file", *STORE_FILES}


def test_backup_on_a_full_disk_says_so_and_leaves_the_old_copy(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "spades.db"), autocommit=False)  # live: its log is open
    for number in range(400):
        store.add_player(f"p{number}", "name " * 20, f"token {number}")
    store.commit()
    target = tmp_path / "copy.db"
    target.write_bytes(b"the old copy")

    def file_size_limit() -> None:  # the copy cannot grow past 100 kB: as if the disk filled
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (100_000, 100_000))

    full = spades(
        "backup", str(target), "--db", str(tmp_path / "spades.db"), preexec_fn=file_size_limit
    )
    store.close()
    assert full.returncode == 1
    assert full.stderr.startswith(f"spades backup: cannot write {target}: ")
    assert "nothing was written" in full.stderr and full.stderr.count("\n") == 1
    assert target.read_bytes() == b"the old copy"
    assert {p.name for p in tmp_path.iterdir()} <= {"copy.db", *STORE_FILES}


def test_a_backup_into_a_directory_gets_a_dated_name_and_checks_out(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "spades.db"))
    store.add_player("p1", "alice", "token")
    store.save_record("r1", "K7QX2M9A", 1, {"format": "x"})
    store.close()
    (tmp_path / "backups").mkdir()
    result = backup_store(str(tmp_path / "spades.db"), str(tmp_path / "backups"))
    (made,) = (tmp_path / "backups").iterdir()
    assert str(made) == result.path and made.name.startswith("spades-") and made.suffix == ".db"
    assert (result.tables, result.records) == (0, 1) == check_copy(result.path)
    assert not Path(result.path + "-wal").exists()  # one self-contained file
    assert Store(result.path).player_by_token("token") is not None
    made_dir = backup_store(str(tmp_path / "spades.db"), f"{tmp_path}/new/backups/")
    assert Path(made_dir.path).parent == tmp_path / "new" / "backups"
    assert os.stat(tmp_path / "new" / "backups").st_mode & 0o777 == 0o700


def test_restore_puts_a_copy_back_but_not_under_a_running_server(tmp_path: Path) -> None:
    store_path, copy = str(tmp_path / "spades.db"), str(tmp_path / "copy.db")
    store = Store(store_path, autocommit=False)
    store.add_player("p1", "alice", "old token")
    store.commit()
    backup_store(store_path, copy)
    store.add_player("p2", "bob", "new token")
    store.commit()
    with pytest.raises(BackupError, match=r"in use .*stop the server first"):
        restore_store(copy, store_path)  # the store is open: refused, nothing changed
    assert store.player_by_token("new token") is not None
    store.close()

    restored = spades("restore", copy, "--db", store_path)
    assert restored.returncode == 0, restored.stderr
    assert restored.stdout.startswith(f"spades restore: {store_path} is now the copy {copy}")
    again = Store(store_path)
    assert again.player_by_token("old token") is not None
    assert again.player_by_token("new token") is None
    again.close()

    damaged = tmp_path / "damaged.db"
    damaged.write_bytes(Path(copy).read_bytes()[:5000])
    bad = spades("restore", str(damaged), "--db", store_path)
    assert bad.returncode == 1 and bad.stderr.startswith("spades restore: ")
    assert Store(store_path).player_by_token("old token") is not None


def test_restore_is_refused_while_a_server_process_runs_on_the_store(tmp_path: Path) -> None:
    from tests.server.test_keep_deploy import ServeProcess

    store, copy = tmp_path / "spades.db", tmp_path / "copy.db"

    async def test() -> None:
        server = await ServeProcess(store).start()
        try:
            alice = await Client.hello(server.url, "alice")
            await alice.request(m.CreateTable(), m.Snapshot)  # alice is stored now
            made = await asyncio.to_thread(spades, "backup", str(copy), "--db", str(store))
            assert made.returncode == 0, made.stderr
            refused = await asyncio.to_thread(spades, "restore", str(copy), "--db", str(store))
            assert refused.returncode == 1
            assert refused.stderr.startswith(f"spades restore: the store {store} is in use")
            assert "stop the server first" in refused.stderr
            again = await Client.hello(server.url, "alice", token=alice.token)  # untouched
            assert again.welcome is not None and again.welcome.resumed
            await alice.close()
            await again.close()
        finally:
            server.stop()

    asyncio.run(asyncio.wait_for(test(), 60))
