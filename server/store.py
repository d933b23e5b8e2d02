"""The SQLite store: players, tables, every accepted action, and finished game records.

One file in WAL mode (``synchronous=NORMAL``: every commit survives the server process
being killed). With ``autocommit`` (the default) each write is its own transaction; the
server opens it with ``autocommit=False`` instead: writes gather in one open transaction
(``on_begin`` is called when it opens) and the server calls :meth:`Store.commit` before it
sends anything about them. Tokens are never stored, only their SHA-256::

    store = Store(":memory:")
    store.append_action("K7QX2M9A", game_no=1, index=1, seat=None, action="deal ...", seq=None)
    for row in store.load_tables(): ...
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["ActionRow", "PlayerRow", "Store", "TableRow", "token_hash"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    created REAL NOT NULL DEFAULT (julianday('now'))
);
CREATE TABLE IF NOT EXISTS tables (
    code TEXT PRIMARY KEY,
    data TEXT NOT NULL,
    status TEXT NOT NULL,
    game_no INTEGER NOT NULL,
    updated REAL NOT NULL DEFAULT (julianday('now'))
);
CREATE TABLE IF NOT EXISTS actions (
    code TEXT NOT NULL,
    game_no INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    seat INTEGER,
    action TEXT NOT NULL,
    seq INTEGER,
    PRIMARY KEY (code, game_no, idx)
);
CREATE TABLE IF NOT EXISTS records (
    record_id TEXT PRIMARY KEY,
    code TEXT NOT NULL,
    game_no INTEGER NOT NULL,
    record TEXT NOT NULL,
    created REAL NOT NULL DEFAULT (julianday('now'))
);
CREATE TABLE IF NOT EXISTS analyses (
    record_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    level TEXT NOT NULL,
    analysis TEXT NOT NULL,
    PRIMARY KEY (record_id, seat, level)
);
"""


def token_hash(token: str) -> str:
    """What the store keeps instead of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class PlayerRow:
    id: str
    name: str


@dataclass(frozen=True)
class TableRow:
    code: str
    data: dict[str, Any]
    status: str
    game_no: int


@dataclass(frozen=True)
class ActionRow:
    index: int
    seat: int | None
    action: str
    seq: int | None


class Store:
    """All persistent state. Not thread-safe: use it from the event loop's thread."""

    def __init__(
        self,
        path: str,
        autocommit: bool = True,
        on_begin: Callable[[], None] | None = None,
    ) -> None:
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)
        self.autocommit = autocommit
        self.on_begin = on_begin
        self._open = False
        self._checkpointer: threading.Thread | None = None
        self._stop = threading.Event()
        if not autocommit and path != ":memory:":
            # checkpoints (which copy the WAL into the database and fsync it) would stall
            # the event loop inside a commit now and then: a thread does them instead
            self._db.execute("PRAGMA wal_autocheckpoint=0")
            self._checkpointer = threading.Thread(
                target=self._checkpoint_loop, name="spades-checkpoint", daemon=True
            )
            self._checkpointer.start()

    def _checkpoint_loop(self) -> None:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA busy_timeout=100")
            while not self._stop.wait(1.0):
                with contextlib.suppress(sqlite3.Error):
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            db.close()

    def commit(self) -> None:
        """Commit the writes made since the last commit (``autocommit=False``)."""
        if self._open:
            self._db.execute("COMMIT")
            self._open = False

    def rollback(self) -> None:
        """Forget the writes made since the last commit."""
        if self._open:
            self._open = False
            self._db.execute("ROLLBACK")

    def close(self) -> None:
        """Commit, checkpoint the WAL and close the file."""
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join(5)
        try:
            self.commit()
            if self.path != ":memory:":
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            self._db.close()

    def _write(self, sql: str, params: tuple[Any, ...]) -> None:
        if self.autocommit:
            with self._db:
                self._db.execute("BEGIN")
                self._db.execute(sql, params)
            return
        if not self._open:
            self._db.execute("BEGIN")
            self._open = True
            if self.on_begin is not None:
                self.on_begin()
        self._db.execute(sql, params)  # a failed statement leaves the transaction as it was

    # ---- players ----------------------------------------------------------------------

    def add_player(self, player_id: str, name: str, token: str) -> None:
        self._write(
            "INSERT INTO players (id, name, token_hash) VALUES (?, ?, ?)",
            (player_id, name, token_hash(token)),
        )

    def player_by_token(self, token: str) -> PlayerRow | None:
        row = self._db.execute(
            "SELECT id, name FROM players WHERE token_hash = ?", (token_hash(token),)
        ).fetchone()
        return None if row is None else PlayerRow(row[0], row[1])

    def player_count(self) -> int:
        count: int = self._db.execute("SELECT count(*) FROM players").fetchone()[0]
        return count

    # ---- tables and actions ----------------------------------------------------------

    def save_table(self, code: str, data: dict[str, Any], status: str, game_no: int) -> None:
        self._write(
            "INSERT INTO tables (code, data, status, game_no) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (code) DO UPDATE SET data = excluded.data, status = excluded.status, "
            "game_no = excluded.game_no, updated = julianday('now')",
            (code, json.dumps(data), status, game_no),
        )

    def load_tables(self) -> list[TableRow]:
        """Every table that is not closed."""
        rows = self._db.execute(
            "SELECT code, data, status, game_no FROM tables WHERE status != 'closed' "
            "ORDER BY updated"
        ).fetchall()
        return [
            TableRow(code, json.loads(data), status, game_no)
            for code, data, status, game_no in rows
        ]

    def append_action(
        self, code: str, game_no: int, index: int, seat: int | None, action: str, seq: int | None
    ) -> None:
        """Store one accepted action (``index`` is the state version it produced)."""
        self._write(
            "INSERT INTO actions (code, game_no, idx, seat, action, seq) VALUES (?, ?, ?, ?, ?, ?)",
            (code, game_no, index, seat, action, seq),
        )

    def load_actions(self, code: str, game_no: int) -> list[ActionRow]:
        rows = self._db.execute(
            "SELECT idx, seat, action, seq FROM actions WHERE code = ? AND game_no = ? "
            "ORDER BY idx",
            (code, game_no),
        ).fetchall()
        return [ActionRow(idx, seat, action, seq) for idx, seat, action, seq in rows]

    # ---- records ---------------------------------------------------------------------

    def save_record(self, record_id: str, code: str, game_no: int, record: dict[str, Any]) -> None:
        self._write(
            "INSERT OR REPLACE INTO records (record_id, code, game_no, record) VALUES (?, ?, ?, ?)",
            (record_id, code, game_no, json.dumps(record)),
        )

    def record_json(self, record_id: str) -> str | None:
        row = self._db.execute(
            "SELECT record FROM records WHERE record_id = ?", (record_id,)
        ).fetchone()
        return None if row is None else str(row[0])

    # ---- analyses (a cache: each is worked out again from its record if lost) --------

    def save_analysis(self, record_id: str, seat: int, level: str, analysis_json: str) -> None:
        self._write(
            "INSERT OR REPLACE INTO analyses (record_id, seat, level, analysis)"
            " VALUES (?, ?, ?, ?)",
            (record_id, seat, level, analysis_json),
        )

    def analysis_json(self, record_id: str, seat: int, level: str) -> str | None:
        row = self._db.execute(
            "SELECT analysis FROM analyses WHERE record_id = ? AND seat = ? AND level = ?",
            (record_id, seat, level),
        ).fetchone()
        return None if row is None else str(row[0])
