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
import json
import os
import sqlite3
import threading
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

from server.store import accounts_schema, sqlite_retention
from server.store.accounts_rows import AccountRows
from server.store.base import (
    ActionRow,
    FencedError,
    PlayerRow,
    StoreError,
    TableRow,
    token_hash,
)
from server.store.policy import Reclaimed, RetentionPolicy

__all__ = ["SCHEMA_VERSION", "Store"]

SCHEMA_VERSION = 1
"""Kept in ``meta`` as ``schema_version``: a store written by a newer server is refused."""

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
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value
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
CREATE TABLE IF NOT EXISTS fences (
    code TEXT PRIMARY KEY,
    generation INTEGER NOT NULL
);
"""


class Store:
    """All persistent state. Not thread-safe: use it from the event loop's thread."""

    def __init__(
        self,
        path: str,
        autocommit: bool = True,
        on_begin: Callable[[], None] | None = None,
        wal_limit_bytes: int = 64 * 1024 * 1024,
        checkpoint_interval: float = 1.0,
    ) -> None:
        self.path = path
        self._db = self._open_db(path)
        self.autocommit = autocommit
        self.on_begin = on_begin
        self._open = False
        self._lost: str | None = None  # why the open transaction's writes were lost
        self.write_attempts = 0  # every write tried, so a caller can tell who wrote
        self.claimed: dict[str, int] = {}  # table code -> lease generation this node holds
        self._claims_before: dict[str, int | None] = {}  # claims made in the open transaction
        self._table_writes: set[str] = set()  # tables written in the open transaction
        self._checkpointer: threading.Thread | None = None
        self.accounts = AccountRows(self._read, self._write, "?")
        self._stop = threading.Event()
        self.wal_limit_bytes = wal_limit_bytes
        self.checkpoint_interval = checkpoint_interval
        if path != ":memory:":
            # after a checkpoint that resets the log, the WAL file is cut back to this size
            self._db.execute(f"PRAGMA journal_size_limit={int(wal_limit_bytes)}")
        if not autocommit and path != ":memory:":
            # checkpoints (which copy the WAL into the database and fsync it) would stall
            # the event loop inside a commit now and then: a thread does them instead
            self._db.execute("PRAGMA wal_autocheckpoint=0")
            self._checkpointer = threading.Thread(
                target=self._checkpoint_loop, name="spades-checkpoint", daemon=True
            )
            self._checkpointer.start()

    @staticmethod
    def _open_db(path: str) -> sqlite3.Connection:
        """Open (or create, mode 0600) the file and prove it is a writable store.

        Raises :class:`StoreError` with one line saying what is wrong.
        """
        db: sqlite3.Connection | None = None
        try:
            if path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
                # created 0600: tokens are hashed, but tables, names and records are
                # nobody else's business (an existing file keeps its mode)
                os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
            db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("PRAGMA foreign_keys=ON")
            db.executescript(_SCHEMA)
            db.execute(
                "INSERT OR IGNORE INTO meta (key, value) VALUES ('schema_version', ?)",
                (SCHEMA_VERSION,),
            )
            accounts_schema.migrate(db.execute, "sqlite")
            stored = db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
            if int(stored[0]) > SCHEMA_VERSION:
                raise sqlite3.DatabaseError(
                    f"its schema is version {stored[0]}, newer than this server's {SCHEMA_VERSION}"
                )
            # a real write now, so a read-only file fails here and not at the first move
            db.execute("BEGIN IMMEDIATE")
            db.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES ('opened', julianday('now'))"
            )
            db.execute("COMMIT")
        except (OSError, sqlite3.Error, ValueError) as error:  # ValueError: accounts schema
            if db is not None:
                db.close()
            reason = str(error)
            if isinstance(error, OSError) and error.strerror:
                reason = (
                    f"{error.strerror} ({error.filename})" if error.filename else error.strerror
                )
            raise StoreError(f"cannot open the store {path}: {reason}") from None
        return db

    def _checkpoint_loop(self) -> None:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        wal = Path(self.path + "-wal")
        try:
            db.execute("PRAGMA busy_timeout=100")
            while not self._stop.wait(self.checkpoint_interval):
                with contextlib.suppress(sqlite3.Error):
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
                    # under steady writes a passive checkpoint never catches up with the
                    # end of the log, so the log never starts over and grows without
                    # end: past the limit, truncate it (writers wait a moment for that)
                    if wal.exists() and wal.stat().st_size > self.wal_limit_bytes:
                        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            db.close()

    def commit(self) -> None:
        """Commit the writes made since the last commit (``autocommit=False``).

        Raises :class:`StoreError` when they are lost: a write failed (SQLite rolls the
        whole transaction back on ``SQLITE_FULL``) or the COMMIT itself did. Either way
        the store is left with no open transaction, ready for the next write.
        """
        lost, self._lost = self._lost, None
        if lost is not None:
            self._open = False
            self._forget_transaction(committed=False)
            raise StoreError(lost)
        if not self._open:
            return
        committed = False
        try:
            self._check_fences()
            self._db.execute("COMMIT")
            committed = True
        except FencedError:
            self._abandon()
            raise
        except sqlite3.Error as error:
            self._abandon()
            raise StoreError(f"commit failed: {error}") from error
        finally:
            self._open = False
            self._forget_transaction(committed)

    def _check_fences(self) -> None:
        """Raise :class:`FencedError` if a claimed table written in this transaction has
        been claimed since under another generation (the caller rolls back). The open
        transaction holds SQLite's write lock, so nobody can claim between here and COMMIT."""
        codes = sorted(code for code in self._table_writes if code in self.claimed)
        stale = []
        for code in codes:
            row = self._db.execute("SELECT generation FROM fences WHERE code = ?", (code,))
            stored = row.fetchone()
            if stored is None or stored[0] != self.claimed[code]:
                stale.append(code)
        if stale:
            raise FencedError(
                tuple(stale), f"tables claimed by another node since: {', '.join(stale)}"
            )

    def _forget_transaction(self, committed: bool) -> None:
        if not committed:  # claims made inside a lost transaction were never stored
            for code, before in self._claims_before.items():
                if before is None:
                    self.claimed.pop(code, None)
                else:
                    self.claimed[code] = before
        self._claims_before.clear()
        self._table_writes.clear()

    def rollback(self) -> None:
        """Forget the writes made since the last commit (a no-op when there are none)."""
        self._lost = None
        if self._open:
            self._open = False
            self._abandon()
        self._forget_transaction(committed=False)

    def _abandon(self) -> None:
        # after a failed COMMIT SQLite may or may not have rolled back already
        if self._db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
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

    def _write(self, sql: str, params: tuple[Any, ...], table: str | None = None) -> None:
        self.write_attempts += 1
        if table is not None:
            self._table_writes.add(table)
        if self._lost is not None:
            # the transaction is gone: a write now would start a new one and store half
            # of this turn; refuse until the caller has committed (and heard of the loss)
            raise StoreError(self._lost)
        if self.autocommit:
            try:
                with self._db:  # commits, or rolls back on any exception
                    self._db.execute("BEGIN")
                    self._db.execute(sql, params)
                    self._check_fences()
            finally:
                self._table_writes.clear()
            return
        if not self._open:
            self._db.execute("BEGIN")
            self._open = True
            if self.on_begin is not None:
                self.on_begin()
        try:
            self._db.execute(sql, params)
        except sqlite3.Error as error:
            if self._db.in_transaction:
                raise  # only this statement failed: the transaction is as it was
            self._lost = f"write failed and the transaction was rolled back: {error}"
            raise StoreError(self._lost) from error

    # ---- players ----------------------------------------------------------------------

    def add_player(self, player_id: str, name: str, token: str) -> None:
        self.add_player_hashed(player_id, name, token_hash(token))

    def add_player_hashed(self, player_id: str, name: str, hashed: str) -> None:
        """Store a player by the SHA-256 of its token (see :func:`token_hash`)."""
        self._write(
            "INSERT INTO players (id, name, token_hash) VALUES (?, ?, ?)",
            (player_id, name, hashed),
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
            table=code,
        )

    def load_table(self, code: str) -> TableRow | None:
        """The stored row of table ``code`` (whatever its status), or ``None``."""
        row = self._db.execute(
            "SELECT code, data, status, game_no FROM tables WHERE code = ?", (code,)
        ).fetchone()
        return None if row is None else TableRow(row[0], str(row[1]), row[2], row[3])

    def load_tables(self) -> list[TableRow]:
        """Every table that is not closed."""
        rows = self._db.execute(
            "SELECT code, data, status, game_no FROM tables WHERE status != 'closed' "
            "ORDER BY updated"
        ).fetchall()
        return [TableRow(code, str(data), status, game_no) for code, data, status, game_no in rows]

    def append_action(
        self, code: str, game_no: int, index: int, seat: int | None, action: str, seq: int | None
    ) -> None:
        """Store one accepted action (``index`` is the state version it produced)."""
        self._write(
            "INSERT INTO actions (code, game_no, idx, seat, action, seq) VALUES (?, ?, ?, ?, ?, ?)",
            (code, game_no, index, seat, action, seq),
            table=code,
        )

    def load_actions(self, code: str, game_no: int) -> list[ActionRow]:
        rows = self._db.execute(
            "SELECT idx, seat, action, seq FROM actions WHERE code = ? AND game_no = ? "
            "ORDER BY idx",
            (code, game_no),
        ).fetchall()
        return [ActionRow(idx, seat, action, seq) for idx, seat, action, seq in rows]

    # ---- fencing ---------------------------------------------------------------------

    def claim_table(self, code: str, generation: int) -> None:
        """This node now runs table ``code`` under lease ``generation``.

        Stores the generation as the table's fence (it only ever grows); from now on every
        commit that writes for ``code`` checks that the fence is still ``generation``.
        Claim first, then load the table, so its state includes every commit made under
        an older generation. Inside an open transaction the claim is part of it (and is
        forgotten if that transaction is lost). Raises :class:`FencedError` when a higher
        generation is stored already, :class:`StoreError` when the store fails.
        """
        self._write(
            "INSERT INTO fences (code, generation) VALUES (?, ?) ON CONFLICT (code) DO UPDATE "
            "SET generation = excluded.generation WHERE fences.generation <= excluded.generation",
            (code, generation),
        )
        row = self._db.execute("SELECT generation FROM fences WHERE code = ?", (code,)).fetchone()
        if row is None or row[0] != generation:
            raise FencedError(
                (code,), f"table {code} is claimed under generation {row and row[0]} > {generation}"
            )
        if self._open and code not in self._claims_before:
            self._claims_before[code] = self.claimed.get(code)
        self.claimed[code] = generation

    # ---- records ---------------------------------------------------------------------

    def save_record(self, record_id: str, code: str, game_no: int, record: dict[str, Any]) -> None:
        self._write(
            "INSERT OR REPLACE INTO records (record_id, code, game_no, record) VALUES (?, ?, ?, ?)",
            (record_id, code, game_no, json.dumps(record)),
            table=code,
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

    # ---- retention (the queries: server/store/sqlite_retention.py) ------------------

    def reclaim_step(
        self,
        policy: RetentionPolicy,
        now: float,
        live_tables: Collection[str] = (),
        live_players: Collection[str] = (),
    ) -> Reclaimed:
        """See :meth:`server.store.base.Storage.reclaim_step`; raises :class:`StoreError`."""
        try:
            return sqlite_retention.reclaim_step(
                self._read, self._write, policy, now, live_tables, live_players
            )
        except sqlite3.Error as error:
            raise StoreError(f"retention failed: {error}") from error

    def _read(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        return self._db.execute(sql, params).fetchall()
