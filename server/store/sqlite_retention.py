"""The SQLite store's retention queries (the policy: :mod:`server.store.retention`).

Each kind deletes at most ``limit`` rows, with what depends on them, and returns how
many. Times are julian days (as SQLite's ``julianday()`` stores them); "live" tables are
those not closed. The functions read with ``read(sql, params)`` and write with
``write(sql, params)`` (the store's open transaction); they raise ``sqlite3.Error``,
which :meth:`server.store.sqlite.Store.reclaim_step` turns into ``StoreError``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection
from typing import Any

from server.store.policy import Reclaimed, RetentionPolicy

__all__ = ["reclaim_step"]

Read = Callable[[str, tuple[Any, ...]], list[tuple[Any, ...]]]
Write = Callable[[str, tuple[Any, ...]], None]

_INDEXES = (
    "CREATE INDEX IF NOT EXISTS records_by_game ON records (code, game_no)",
    "CREATE INDEX IF NOT EXISTS records_by_age ON records (created)",
    "CREATE INDEX IF NOT EXISTS tables_by_status ON tables (status, updated)",
    "CREATE INDEX IF NOT EXISTS players_by_age ON players (created)",
)


def reclaim_step(
    read: Read,
    write: Write,
    policy: RetentionPolicy,
    now: float,
    live_tables: Collection[str],
    live_players: Collection[str],
) -> Reclaimed:
    """One step of the policy at ``now`` (Unix seconds); see the module."""
    finished = policy.cutoff(policy.keep_finished_days, now)
    unstarted = policy.cutoff(policy.reclaim_days, now)
    batch = policy.batch
    for sql in _INDEXES:  # cheap when they exist
        write(sql, ())
    return Reclaimed.counted(
        _closed_tables(read, write, unstarted, batch),
        _waiting_tables(read, write, unstarted, sorted(live_tables), batch),
        _finished_games(read, write, finished, batch),
        _analyses(read, write, policy.cutoff(policy.keep_analyses_days, now), batch),
        _players(read, write, unstarted, sorted(live_players), batch),
        batch,
    )


def _delete_rows(write: Write, table: str, rowids: list[int]) -> None:
    for start in range(0, len(rowids), 500):
        chunk = rowids[start : start + 500]
        marks = ", ".join("?" * len(chunk))
        write(f"DELETE FROM {table} WHERE rowid IN ({marks})", tuple(chunk))


def _closed_tables(read: Read, write: Write, before: float, limit: int) -> int:
    """Closed tables (and their actions) last changed before ``before``: nothing reads
    them again (their finished games live on in their records)."""
    rows = read(
        "SELECT rowid, code FROM tables WHERE status = 'closed' AND updated < ? LIMIT ?",
        (before, limit),
    )
    for _, code in rows:
        write("DELETE FROM actions WHERE code = ?", (code,))
    _delete_rows(write, "tables", [rowid for rowid, _ in rows])
    return len(rows)


def _waiting_tables(
    read: Read, write: Write, before: float, live_codes: list[str], limit: int
) -> int:
    """Tables still waiting for their first game since before ``before`` (and their
    actions), except those in ``live_codes`` (the server has them in memory)."""
    rows = read(
        "SELECT rowid, code FROM tables WHERE status = 'waiting' AND updated < ? "
        "AND code NOT IN (SELECT value FROM json_each(?)) LIMIT ?",
        (before, json.dumps(live_codes), limit),
    )
    for _, code in rows:
        write("DELETE FROM actions WHERE code = ?", (code,))
    _delete_rows(write, "tables", [rowid for rowid, _ in rows])
    return len(rows)


def _finished_games(read: Read, write: Write, before: float, limit: int) -> int:
    """Game records made before ``before`` with their game's actions and analyses; a
    record a live table still shows (its last game) stays."""
    rows = read(
        "SELECT r.rowid, r.record_id, r.code, r.game_no FROM records r "
        "WHERE r.created < ? AND NOT EXISTS (SELECT 1 FROM tables t "
        "WHERE t.code = r.code AND t.status != 'closed' AND (t.game_no = r.game_no "
        "OR json_extract(t.data, '$.record_id') = r.record_id)) LIMIT ?",
        (before, limit),
    )
    for _, record_id, code, game_no in rows:
        write("DELETE FROM actions WHERE code = ? AND game_no = ?", (code, game_no))
        write("DELETE FROM analyses WHERE record_id = ?", (record_id,))
    _delete_rows(write, "records", [row[0] for row in rows])
    return len(rows)


def _analyses(read: Read, write: Write, before: float, limit: int) -> int:
    """Cached analyses of records made before ``before``, and of records that are gone
    (an analysis is worked out again on request)."""
    rows = read(
        "SELECT a.rowid FROM analyses a LEFT JOIN records r ON r.record_id = a.record_id "
        "WHERE r.record_id IS NULL OR r.created < ? LIMIT ?",
        (before, limit),
    )
    _delete_rows(write, "analyses", [row[0] for row in rows])
    return len(rows)


def _players(read: Read, write: Write, before: float, live_players: list[str], limit: int) -> int:
    """Players stored before ``before`` who sit at no live table, except those in
    ``live_players`` (connected now). A player row is a name and a token's hash: without
    a table there is nothing to come back to."""
    rows = read(
        "SELECT rowid FROM players WHERE created < ? "
        "AND id NOT IN (SELECT value FROM json_each(?)) "
        "AND id NOT IN (SELECT json_extract(s.value, '$.player_id') "
        "FROM tables t, json_each(t.data, '$.seats') s WHERE t.status != 'closed' "
        "AND json_extract(s.value, '$.player_id') IS NOT NULL) LIMIT ?",
        (before, json.dumps(live_players), limit),
    )
    _delete_rows(write, "players", [row[0] for row in rows])
    return len(rows)
