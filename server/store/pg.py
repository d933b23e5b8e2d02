"""The PostgreSQL store: the SQLite store's API and guarantees on a shared database.

psycopg 3, synchronous: the hub commits once per turn of its event loop, before any frame
of that turn leaves, and that commit point is one synchronous call (as with SQLite). An
async driver (asyncpg) would turn every store call of the hub into an ``await`` and open
the game loop to interleavings between "applied" and "stored"; the synchronous calls keep
the hub store-agnostic. Writes gather in one open transaction (``on_begin`` is called when
it opens) and :meth:`PgStore.commit` commits them::

    store = PgStore("postgresql://spades@127.0.0.1:5432/spades", autocommit=False)
    store.claim_table("K7QX2M9A", generation=3)       # fencing: see claim_table
    store.append_action("K7QX2M9A", game_no=1, index=1, seat=None, action="deal ...", seq=None)
    store.commit()                                     # StoreError / FencedError: nothing stored

A turn's writes are held in memory and sent at its commit together with BEGIN, the
fence check and COMMIT, in one pipeline (one round trip per turn of the hub's loop, however
many actions it holds); a read inside the turn sends the writes held so far first, so it
sees them. Any failed statement loses the whole turn (PostgreSQL aborts the transaction):
the error is a :class:`StoreError` at the commit and the caller restores from the store.
A connection the server closed (a restart, a terminated backend) is noticed before a turn
is sent on it and opened again, so that turn is not lost; one lost in the middle of a
commit loses that turn only. The schema is created on open (idempotent, under an advisory
lock so that nodes starting together do not race) and carries a version in ``meta``.

psycopg is imported here only: the embedded SQLite server never needs it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection
from typing import Any

import psycopg

from server.store import pg_retention
from server.store.accounts_rows import AccountRows
from server.store.base import (
    CommitBatch,
    FencedError,
    StoreError,
)
from server.store.game_rows import GameRows
from server.store.order import BatchOrder
from server.store.pg_link import create_schema
from server.store.pg_link import display as _display
from server.store.pg_link import notice_close as _notice_close
from server.store.pg_link import reason as _reason
from server.store.pg_schema import CLAIM, FENCED, SCHEMA_VERSION
from server.store.policy import Reclaimed, RetentionPolicy

__all__ = ["SCHEMA_VERSION", "PgStore"]


class PgStore:
    """All persistent state in one PostgreSQL database. Use it from one thread (a detached
    batch may run in another: see :mod:`server.store.base`).

    ``PgStore(dsn)`` raises :class:`StoreError` (one line: the address without its password
    and what is wrong) when the database cannot be reached, written or understood.
    """

    threaded_commits = True  # a commit waits for the server: worth a worker thread

    def __init__(
        self,
        dsn: str,
        autocommit: bool = True,
        on_begin: Callable[[], None] | None = None,
        connect_timeout: float = 5.0,
    ) -> None:
        self.dsn = dsn
        self.display = _display(dsn)
        self.autocommit = autocommit
        self.on_begin = on_begin
        self.connect_timeout = connect_timeout
        self.write_attempts = 0  # every write tried, so a caller can tell who wrote
        # for the benchmark's per-action figures: statements run, exchanges with the server
        self.statements = 0
        self.round_trips = 0
        self.claimed: dict[str, int] = {}  # table code -> lease generation this node holds
        self._table_writes: set[str] = set()  # tables written in the open transaction
        self._held: list[tuple[str, tuple[Any, ...] | None]] = []  # writes not sent yet
        self._begun = False  # BEGIN of the open transaction sent
        self._open = False
        self._lost: str | None = None  # why the open transaction's writes were lost
        self._claims: psycopg.Connection[Any] | None = None
        self.accounts = AccountRows(self._read, self._write, "%s")
        # the game's rows: one SQL for both stores (server/store/game_rows.py), bound as
        # this store's own methods, which the Storage protocol names
        games = GameRows(self._read, self._write, "%s", now="clock_timestamp()")
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
        # the hub connection is used by the loop's thread and by the commit worker's
        self._lock = threading.RLock()
        self._order = BatchOrder()  # detached batches run in order, before the loop's reads
        try:
            self._db = self._connect()
        except psycopg.Error as error:
            raise StoreError(f"cannot open the store {self.display}: {_reason(error)}") from None
        try:
            create_schema(self._db, self.display)
        except psycopg.Error as error:
            self._db.close()
            raise StoreError(f"cannot open the store {self.display}: {_reason(error)}") from None
        except StoreError:
            self._db.close()
            raise

    # ---- connection -------------------------------------------------------------------

    def _connect(self) -> psycopg.Connection[Any]:
        # autocommit at the driver level: this class says BEGIN and COMMIT itself, so a
        # read between turns never leaves a transaction open
        connection = psycopg.connect(
            self.dsn,
            autocommit=True,
            connect_timeout=max(1, round(self.connect_timeout)),
            # a dead peer fails a call within seconds instead of hanging the event loop
            tcp_user_timeout=int(self.connect_timeout * 1000),
            keepalives_idle=5,
            keepalives_interval=2,
            keepalives_count=3,
            application_name="spades",
        )
        # the event loop waits while a statement waits for a row lock (another node's
        # commit or claim on the same table, which takes milliseconds): bound that wait,
        # a turn that hits it is refused and retried (set here, not as a connection
        # option, so that options given in the URL are kept)
        connection.execute("SET lock_timeout = '5s'")
        return connection

    def _usable(self) -> psycopg.Connection[Any]:
        """The connection, opened again if it was lost (only outside a transaction)."""
        if not (self._db.closed or self._db.broken):
            _notice_close(self._db)
        if self._db.closed or self._db.broken:
            self._db.close()
            self._db = self._connect()
        return self._db

    def _execute(self, sql: str, params: tuple[Any, ...] | None = None) -> psycopg.Cursor[Any]:
        self.statements += 1
        self.round_trips += 1
        return self._db.execute(sql, params)

    def _send(self, statements: list[tuple[str, tuple[Any, ...] | None]]) -> None:
        """Run ``statements`` in one exchange with the server (libpq's pipeline mode):
        the server answers them all at once, and stops at the first that fails (raised)."""
        self.statements += len(statements)
        self.round_trips += 1
        with self._db.pipeline(), self._db.cursor() as cursor:
            for sql, params in statements:
                cursor.execute(sql, params)

    def _read(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """Rows of a query; it sees this store's own uncommitted writes (those held back
        are sent first). Outside a transaction a lost connection is opened again once.

        Raises :class:`StoreError` when the database cannot answer.
        """
        if self._open:
            self._send_held()
        self._order.wait_all()
        for attempt in (1, 2):
            try:
                with self._lock:
                    if not self._open:
                        self._usable()
                    return self._execute(sql, params).fetchall()
            except psycopg.OperationalError as error:
                if self._open or attempt == 2:
                    raise StoreError(f"read failed: {_reason(error)}") from error
            except psycopg.Error as error:
                raise StoreError(f"read failed: {_reason(error)}") from error
        raise AssertionError("unreachable")

    # ---- transactions -----------------------------------------------------------------
    #
    # Writes are held in memory until the commit (or a read) and then sent together with
    # BEGIN, the fence check and COMMIT in one pipeline: one round trip per turn of the
    # hub's loop however many actions it holds. Nothing of a transaction reaches the
    # server before its commit is asked for, so a lost turn has nothing to undo there.

    def _write(self, sql: str, params: tuple[Any, ...], table: str | None = None) -> None:
        self.write_attempts += 1
        if self._lost is not None:
            # the transaction is gone: a write now would start a new one and store half
            # of this turn; refuse until the caller has committed (and heard of the loss)
            raise StoreError(self._lost)
        if table is not None:
            self._table_writes.add(table)
        self._begin()
        self._held.append((sql, params))
        if self.autocommit:
            self.commit()

    def _begin(self) -> None:
        """Open a transaction here (sent with the first statement that needs it)."""
        if not self._open:
            self._open, self._begun = True, False
            if not self.autocommit and self.on_begin is not None:
                self.on_begin()

    def _send_held(self) -> None:
        """Send the writes held so far (with BEGIN when not sent yet) without committing.
        Raises :class:`StoreError` (the transaction is lost) when one fails."""
        if self._lost is not None:
            raise StoreError(self._lost)
        if not self._held and self._begun:
            return
        statements: list[tuple[str, tuple[Any, ...] | None]] = []
        if not self._begun:
            statements.append(("BEGIN", None))
        statements.extend(self._held)
        self._held = []
        self._order.wait_all()
        try:
            with self._lock:
                if not self._begun:
                    self._usable()  # nothing sent yet: a lost connection may be replaced
                self._begun = True
                self._send(statements)
        except psycopg.Error as error:
            self._lost = f"write failed and the transaction was rolled back: {_reason(error)}"
            raise StoreError(self._lost) from error

    def commit(self) -> None:
        """Commit the writes made since the last commit (``autocommit=False``), here.

        The fences of the claimed tables written (see :meth:`claim_table`) are checked
        inside the transaction, just before COMMIT. Raises :class:`FencedError` (nothing
        stored) when one was claimed by another node since, :class:`StoreError` when the
        writes are lost (a write failed, the connection went, the COMMIT failed). Either
        way no transaction is left open.
        """
        batch = self.detach()
        if batch is not None:
            batch.run()

    def detach(self) -> CommitBatch | None:
        """The open transaction as a batch (see :mod:`server.store.base`); ``None`` when
        nothing is open. Raises :class:`StoreError` when its writes were lost already."""
        lost, self._lost = self._lost, None
        if lost is not None:
            self._close_transaction()
            raise StoreError(lost)
        if not self._open:
            return None
        statements: list[tuple[str, tuple[Any, ...] | None]] = []
        if not self._begun:
            statements.append(("BEGIN", None))
        statements.extend(self._held)
        codes = sorted(code for code in self._table_writes if code in self.claimed)
        if codes:
            generations = [self.claimed[code] for code in codes]
            statements.append(("SELECT spades_check_fences(%s, %s)", (codes, generations)))
        statements.append(("COMMIT", None))
        batch = _Batch(self, statements, self._begun, self._order.ticket())
        self._open, self._begun, self._held = False, False, []
        self._table_writes.clear()
        return batch

    def rollback(self) -> None:
        """Forget the writes made since the last commit (a no-op when there are none)."""
        self._lost = None
        if self._open:
            self._close_transaction()

    def _close_transaction(self) -> None:
        """Forget the open transaction here and on the server (rolled back)."""
        self._open = False
        self._begun = False
        self._held = []
        self._table_writes.clear()
        self._roll_back_connection()

    def _roll_back_connection(self) -> None:
        with self._lock:
            if self._db.closed or self._db.broken:
                return  # the server rolled it back when the connection went
            if self._db.pgconn.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                try:
                    self._execute("ROLLBACK")
                except psycopg.Error:
                    self._db.close()  # opened again at the next call

    def close(self) -> None:
        """Commit and close the connections."""
        try:
            self.commit()
        finally:
            with self._lock:
                self._db.close()
            if self._claims is not None:
                self._claims.close()

    # ---- fencing ----------------------------------------------------------------------

    def claim_table(self, code: str, generation: int) -> None:
        """This node now runs table ``code`` under lease ``generation``.

        ``generation`` comes from the table's lease and grows with each new owner. It is
        stored (committed at once, on a connection of its own, whatever the hub's open
        transaction holds) as the table's fence, which only ever grows; from now on every
        commit that writes for ``code`` checks, inside its transaction, that the fence is
        still ``generation``. Claim first, then load the table: a commit of the previous
        owner either finished before the claim (and is loaded) or is refused.

        Raises :class:`FencedError` when a higher generation is stored already (claiming
        the same generation again is allowed), :class:`StoreError` when the store fails.
        """
        for attempt in (1, 2):
            try:
                if self._claims is None or self._claims.closed or self._claims.broken:
                    if self._claims is not None:
                        self._claims.close()
                    self._claims = self._connect()
                self.statements += 1
                self.round_trips += 1
                row = self._claims.execute(CLAIM, (code, generation)).fetchone()
                break
            except psycopg.OperationalError as error:
                if attempt == 2:
                    raise StoreError(f"cannot claim table {code}: {_reason(error)}") from error
            except psycopg.Error as error:
                raise StoreError(f"cannot claim table {code}: {_reason(error)}") from error
        if row is None:
            raise FencedError(
                (code,), f"table {code} is claimed under a generation above {generation}"
            )
        self.claimed[code] = generation

    # ---- retention (the queries: server/store/pg_retention.py) ------------------------

    def reclaim_step(
        self,
        policy: RetentionPolicy,
        now: float,
        live_tables: Collection[str] = (),
        live_players: Collection[str] = (),
    ) -> Reclaimed:
        """See :meth:`server.store.base.Storage.reclaim_step`. Only the node holding the
        retention lock (a PostgreSQL advisory lock, taken inside the open transaction and
        let go at its commit) reclaims; another node's step at the same time finds nothing
        to do. Raises :class:`StoreError`."""
        self._begin()
        if not self._read(pg_retention.TRY_LOCK, ())[0][0]:
            return Reclaimed()
        return pg_retention.reclaim_step(
            self._read, self._write, policy, now, live_tables, live_players
        )


class _Batch:
    """A detached transaction of :class:`PgStore` (see :mod:`server.store.base`): its
    statements from BEGIN (unless sent already) to COMMIT, sent in one pipeline."""

    def __init__(
        self,
        store: PgStore,
        statements: list[tuple[str, tuple[Any, ...] | None]],
        begun: bool,
        ticket: int,
    ) -> None:
        self.store, self.statements, self.begun, self.ticket = store, statements, begun, ticket

    def run(self) -> None:
        store = self.store
        with store._order.turn(self.ticket), store._lock:
            try:
                if not self.begun:
                    store._usable()  # nothing sent yet: a lost connection may be replaced
                store._send(self.statements)
            except psycopg.Error as error:
                store._roll_back_connection()
                if error.sqlstate == FENCED:
                    stale = tuple((error.diag.message_detail or "").split(","))
                    raise FencedError(
                        stale, f"tables claimed by another node since: {', '.join(stale)}"
                    ) from None
                raise StoreError(f"commit failed: {_reason(error)}") from error

    def settle(self, committed: bool) -> None:
        """Nothing to give back: a claim is committed at once, on its own connection."""
