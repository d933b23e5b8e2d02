"""The game's rows in either store: players, tables, actions, records and analyses.

    rows = GameRows(read, write, "?", now="julianday('now')")     # SQLite
    rows = GameRows(read, write, "%s", now="clock_timestamp()")   # PostgreSQL
    rows.save_table("ABCD", data, "playing", 1)
    rows.load_tables()                 # -> [TableRow, ...], least recently updated first

One class holds the SQL both databases accept (``INSERT ... ON CONFLICT ... DO UPDATE``),
so the two stores cannot drift apart; each store binds these methods as its own (the
:class:`~server.store.base.Storage` protocol names them). ``write`` joins the store's
open transaction and takes the table code a write is for (``table=``), which the store
fences; ``read`` sees that transaction's writes. Every call may raise
:class:`~server.store.base.StoreError` (the store turns its driver's errors into one).
The schemas: :mod:`server.store.sqlite_schema`, :mod:`server.store.pg_schema`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Protocol

from server.store.base import ActionRow, PlayerRow, TableRow, token_hash

__all__ = ["GameRows"]

Read = Callable[[str, tuple[Any, ...]], list[tuple[Any, ...]]]


class Write(Protocol):
    def __call__(self, sql: str, params: tuple[Any, ...], table: str | None = None) -> None: ...


class GameRows:
    """The SQL of the game's rows over a store's ``read`` and ``write``.

    ``placeholder`` is the driver's parameter mark (``?`` or ``%s``); ``now`` the SQL
    expression a table's ``updated`` column takes on each save.
    """

    def __init__(self, read: Read, write: Write, placeholder: str, now: str) -> None:
        self._read = read
        self._write = write
        self._now = now
        self._p = placeholder

    def _marks(self, count: int) -> str:
        return ", ".join([self._p] * count)

    # ---- players ----------------------------------------------------------------------

    def add_player(self, player_id: str, name: str, token: str) -> None:
        """Store a player by its token (only the token's hash is kept)."""
        self.add_player_hashed(player_id, name, token_hash(token))

    def add_player_hashed(self, player_id: str, name: str, hashed: str) -> None:
        """Store a player by the SHA-256 of its token (see :func:`token_hash`)."""
        self._write(
            f"INSERT INTO players (id, name, token_hash) VALUES ({self._marks(3)})",
            (player_id, name, hashed),
        )

    def player_by_token(self, token: str) -> PlayerRow | None:
        rows = self._read(
            f"SELECT id, name FROM players WHERE token_hash = {self._p}", (token_hash(token),)
        )
        return PlayerRow(rows[0][0], rows[0][1]) if rows else None

    def player_count(self) -> int:
        return int(self._read("SELECT count(*) FROM players", ())[0][0])

    # ---- tables and actions -----------------------------------------------------------

    def save_table(self, code: str, data: dict[str, Any], status: str, game_no: int) -> None:
        self._write(
            f"INSERT INTO tables (code, data, status, game_no) VALUES ({self._marks(4)}) "
            "ON CONFLICT (code) DO UPDATE SET data = excluded.data, status = excluded.status, "
            f"game_no = excluded.game_no, updated = {self._now}",
            (code, json.dumps(data), status, game_no),
            table=code,
        )

    def load_table(self, code: str) -> TableRow | None:
        """The stored row of table ``code`` (whatever its status), or ``None``."""
        rows = self._read(
            f"SELECT code, data, status, game_no FROM tables WHERE code = {self._p}", (code,)
        )
        return TableRow(rows[0][0], str(rows[0][1]), rows[0][2], rows[0][3]) if rows else None

    def load_tables(self) -> list[TableRow]:
        """Every table that is not closed, least recently updated first."""
        rows = self._read(
            "SELECT code, data, status, game_no FROM tables WHERE status != 'closed' "
            "ORDER BY updated, code",
            (),
        )
        return [TableRow(code, str(data), status, game_no) for code, data, status, game_no in rows]

    def append_action(
        self, code: str, game_no: int, index: int, seat: int | None, action: str, seq: int | None
    ) -> None:
        """Store one accepted action (``index`` is the state version it produced)."""
        self._write(
            "INSERT INTO actions (code, game_no, idx, seat, action, seq) "
            f"VALUES ({self._marks(6)})",
            (code, game_no, index, seat, action, seq),
            table=code,
        )

    def load_actions(self, code: str, game_no: int) -> list[ActionRow]:
        rows = self._read(
            "SELECT idx, seat, action, seq FROM actions "
            f"WHERE code = {self._p} AND game_no = {self._p} ORDER BY idx",
            (code, game_no),
        )
        return [ActionRow(idx, seat, action, seq) for idx, seat, action, seq in rows]

    # ---- records ----------------------------------------------------------------------

    def save_record(self, record_id: str, code: str, game_no: int, record: dict[str, Any]) -> None:
        """Store a game's record; saving it again replaces it and keeps its age."""
        self._write(
            f"INSERT INTO records (record_id, code, game_no, record) VALUES ({self._marks(4)}) "
            "ON CONFLICT (record_id) DO UPDATE SET code = excluded.code, "
            "game_no = excluded.game_no, record = excluded.record",
            (record_id, code, game_no, json.dumps(record)),
            table=code,
        )

    def record_json(self, record_id: str) -> str | None:
        rows = self._read(f"SELECT record FROM records WHERE record_id = {self._p}", (record_id,))
        return str(rows[0][0]) if rows else None

    # ---- analyses (a cache: each is worked out again from its record if lost) ---------

    def save_analysis(self, record_id: str, seat: int, level: str, analysis_json: str) -> None:
        self._write(
            f"INSERT INTO analyses (record_id, seat, level, analysis) VALUES ({self._marks(4)}) "
            "ON CONFLICT (record_id, seat, level) DO UPDATE SET analysis = excluded.analysis",
            (record_id, seat, level, analysis_json),
        )

    def analysis_json(self, record_id: str, seat: int, level: str) -> str | None:
        rows = self._read(
            "SELECT analysis FROM analyses "
            f"WHERE record_id = {self._p} AND seat = {self._p} AND level = {self._p}",
            (record_id, seat, level),
        )
        return str(rows[0][0]) if rows else None
