"""The SQLite store: players, tables, every accepted action, and finished game records.

One file in WAL mode (``synchronous=NORMAL``: every commit survives the server process
being killed). With ``autocommit`` (the default) each write is its own transaction; the
server opens it with ``autocommit=False`` instead: writes gather in one open transaction
(``on_begin`` is called when it opens), held in memory until it is committed, with
:meth:`Store.commit` or as a batch in a worker thread (:meth:`Store.detach`, see
:mod:`server.store.base`), before the server sends anything about them; a read inside the
transaction executes the writes held so far first, so that it sees them. Tokens are never
stored, only their SHA-256::

    store = Store(":memory:")
    store.append_action("K7QX2M9A", game_no=1, index=1, seat=None, action="deal ...", seq=None)
    for row in store.load_tables(): ...
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

from server.store import accounts_schema, sqlite_retention
from server.store.accounts_rows import AccountRows
from server.store.base import (
    CommitBatch,
    FencedError,
    StoreError,
)
from server.store.game_rows import GameRows
from server.store.order import BatchOrder, TryHold
from server.store.policy import Reclaimed, RetentionPolicy
from server.store.sqlite_schema import SCHEMA as _SCHEMA
from server.store.sqlite_schema import SCHEMA_VERSION

__all__ = ["QUICK_WRITES", "SCHEMA_VERSION", "Store"]

QUICK_WRITES = 8
"""The most writes a quick commit holds (20 us and 2 us a write on the benchmark machine):
a longer batch costs the loop more than the hand-off to the worker, where it runs beside."""


class Store:
    """All persistent state. Not thread-safe: use it from the event loop's thread."""

    def __init__(
        self,
        path: str,
        autocommit: bool = True,
        on_begin: Callable[[], None] | None = None,
        wal_limit_bytes: int = 64 * 1024 * 1024,
        checkpoint_interval: float = 1.0,
        quick_commits: bool = False,
    ) -> None:
        self.path = path
        self.quick_commits = quick_commits  # see quick_commit
        self._db = self._open_db(path)
        self.autocommit = autocommit
        self.on_begin = on_begin
        self._open = False
        self._lost: str | None = None  # why the open transaction's writes were lost
        self.write_attempts = 0  # every write tried, so a caller can tell who wrote
        self.claimed: dict[str, int] = {}  # table code -> lease generation this node holds
        self._claims_before: dict[str, int | None] = {}  # claims made in the open transaction
        self._table_writes: set[str] = set()  # tables written in the open transaction
        self._held: list[tuple[str, tuple[Any, ...]]] = []  # writes not executed yet
        self._begun = False  # BEGIN of the open transaction executed
        # the connection is used by the loop's thread and by the commit worker's
        self._lock = threading.RLock()
        self._order = BatchOrder()  # detached batches run in order, before the loop's reads
        self._checkpointer: threading.Thread | None = None
        self._truncating = threading.Lock()  # held by a checkpoint that blocks writers
        self.accounts = AccountRows(self._read, self._write, "?")
        # the game's rows: one SQL for both stores (server/store/game_rows.py), bound as
        # this store's own methods, which the Storage protocol names
        games = GameRows(self._read, self._write, "?", now="julianday('now')")
        self.add_player = games.add_player
        self.add_player_hashed = games.add_player_hashed
        self.player_by_token = games.player_by_token
        self.player_count = games.player_count
        self.save_table = games.save_table
        self.load_table = games.load_table
        self.load_tables = games.load_tables
        self.append_action = games.append_action
        self.load_actions = games.load_actions
        self.save_record = games.save_record
        self.record_json = games.record_json
        self.save_analysis = games.save_analysis
        self.analysis_json = games.analysis_json
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
                        with self._truncating:
                            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            db.close()

    @property
    def threaded_commits(self) -> bool:
        return self.path != ":memory:"

    def quick_commit(self) -> TryHold:
        """``with store.quick_commit() as quick:`` while ``quick`` is True a commit on this
        thread is short and waits for no disk flush (``synchronous=NORMAL``: a commit writes
        the log, a checkpoint flushes; one that truncates the log, blocking writers, cannot
        start meanwhile). False (``quick_commits`` off, over :data:`QUICK_WRITES` writes
        held, or such a checkpoint runs): commit elsewhere. Raises nothing itself."""
        return TryHold(
            self._truncating if self.quick_commits and len(self._held) <= QUICK_WRITES else None
        )

    def commit(self) -> None:
        """Commit the writes made since the last commit (``autocommit=False``), here.

        Raises :class:`StoreError` when they are lost: a write failed (SQLite rolls the
        whole transaction back on ``SQLITE_FULL``) or the COMMIT itself did, and
        :class:`FencedError` (see :meth:`claim_table`). Either way the store is left with
        no open transaction, ready for the next write.
        """
        batch = self.detach()
        if batch is None:
            return
        try:
            batch.run()
        except StoreError:
            batch.settle(False)
            raise
        batch.settle(True)

    def detach(self) -> CommitBatch | None:
        """The open transaction as a batch (see :mod:`server.store.base`); ``None`` when
        nothing is open. Raises :class:`StoreError` when its writes were lost already."""
        lost, self._lost = self._lost, None
        if lost is not None:
            self._open = False
            self._abandon()
            self._forget_transaction(committed=False)
            raise StoreError(lost)
        if not self._open:
            return None
        codes = sorted(code for code in self._table_writes if code in self.claimed)
        claimed = {c: self.claimed[c] for c in codes}
        batch = _Batch(self, self._held, self._begun, claimed, self._order.ticket())
        batch.claims_before = dict(self._claims_before)
        self._open, self._begun, self._held = False, False, []
        self._claims_before.clear()
        self._table_writes.clear()
        return batch

    def _check_fences(self, claimed: dict[str, int]) -> None:
        """Raise :class:`FencedError` if a table of ``claimed`` (code: generation this node
        holds) has been claimed since under another generation (the caller rolls back).
        The open transaction holds SQLite's write lock, so nobody can claim between here
        and COMMIT."""
        stale = []
        for code in sorted(claimed):
            row = self._db.execute("SELECT generation FROM fences WHERE code = ?", (code,))
            stored = row.fetchone()
            if stored is None or stored[0] != claimed[code]:
                stale.append(code)
        if stale:
            raise FencedError(
                tuple(stale), f"tables claimed by another node since: {', '.join(stale)}"
            )

    def _forget_transaction(
        self, committed: bool, before: dict[str, int | None] | None = None
    ) -> None:
        if not committed:  # claims made inside a lost transaction were never stored
            for code, generation in (self._claims_before if before is None else before).items():
                if generation is None:
                    self.claimed.pop(code, None)
                else:
                    self.claimed[code] = generation
        if before is None:
            self._claims_before.clear()
            self._table_writes.clear()

    def rollback(self) -> None:
        """Forget the writes made since the last commit (a no-op when there are none)."""
        self._lost = None
        if self._open:
            self._open, self._begun, self._held = False, False, []
            self._abandon()
        self._forget_transaction(committed=False)

    def _abandon(self) -> None:
        # after a failed COMMIT SQLite may or may not have rolled back already
        with self._lock:
            if self._db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    self._db.execute("ROLLBACK")

    def _send_held(self) -> None:
        """Execute the writes held so far (BEGIN first) without committing, so that a read
        inside the transaction sees them. Raises :class:`StoreError`: the transaction is
        lost."""
        if self._lost is not None:
            raise StoreError(self._lost)
        held, self._held = self._held, []
        self._order.wait_all()
        with self._lock:
            try:
                if not self._begun:
                    self._db.execute("BEGIN")
                    self._begun = True
                for sql, params in held:
                    self._db.execute(sql, params)
            except sqlite3.Error as error:
                self._abandon()
                self._lost = f"write failed and the transaction was rolled back: {error}"
                raise StoreError(self._lost) from error

    def close(self) -> None:
        """Commit, checkpoint the WAL and close the file."""
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join(5)
        try:
            self.commit()  # (after any batch detached before: it takes the lock itself)
            with self._lock:
                if self.path != ":memory:":
                    self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            with self._lock:
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
            claimed = {c: self.claimed[c] for c in self._table_writes if c in self.claimed}
            try:
                with self._lock, self._db:  # commits, or rolls back on any exception
                    self._db.execute("BEGIN")
                    self._db.execute(sql, params)
                    self._check_fences(claimed)
            finally:
                self._table_writes.clear()
            return
        if not self._open:
            self._open, self._begun = True, False
            if self.on_begin is not None:
                self.on_begin()
        self._held.append((sql, params))

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
        rows = self._read("SELECT generation FROM fences WHERE code = ?", (code,))
        stored = rows[0][0] if rows else None
        if stored != generation:
            raise FencedError(
                (code,), f"table {code} is claimed under generation {stored} > {generation}"
            )
        if self._open and code not in self._claims_before:
            self._claims_before[code] = self.claimed.get(code)
        self.claimed[code] = generation

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
        """Rows of a query; inside a transaction it sees the writes held so far (they are
        executed first). Waits while a batch is being committed by another thread."""
        if self._open and (self._held or not self._begun):
            self._send_held()
        self._order.wait_all()
        with self._lock:
            return self._db.execute(sql, params).fetchall()


class _Batch:
    """A detached transaction of :class:`Store` (see :mod:`server.store.base`)."""

    def __init__(
        self,
        store: Store,
        held: list[tuple[str, tuple[Any, ...]]],
        begun: bool,
        claimed: dict[str, int],
        ticket: int,
    ) -> None:
        self.store, self.held, self.begun, self.claimed = store, held, begun, claimed
        self.ticket = ticket
        self.claims_before: dict[str, int | None] = {}

    def run(self) -> None:
        store = self.store
        db = store._db
        held = self.held
        with store._order.turn(self.ticket), store._lock:
            try:
                if len(held) == 1 and not (self.begun or self.claimed):
                    # one statement, no fence to check: it is a transaction of its own
                    # (the connection is in autocommit), without BEGIN and COMMIT: a
                    # third less of the commit a lone action waits for
                    db.execute(*held[0])
                    return
                if not self.begun:
                    db.execute("BEGIN")
                for sql, params in held:
                    db.execute(sql, params)
                store._check_fences(self.claimed)
                db.execute("COMMIT")
            except FencedError:
                store._abandon()
                raise
            except sqlite3.Error as error:
                store._abandon()
                raise StoreError(f"commit failed: {error}") from error

    def settle(self, committed: bool) -> None:
        self.store._forget_transaction(committed, self.claims_before)
