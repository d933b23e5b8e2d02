"""The PostgreSQL store's retention queries (the policy: :mod:`server.store.retention`).

The same rules as the SQLite store's (:mod:`server.store.sqlite_retention`), in
PostgreSQL's SQL: times are ``TIMESTAMPTZ``, cutoffs are given as Unix seconds, and a kind
kept for ever (a cutoff of ``None``) is not queried. :data:`TRY_LOCK` is the advisory
lock one node at a time holds while it reclaims. ``read``/``write`` are the store's
(:class:`server.store.pg.PgStore`); they raise ``StoreError``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from server.store.policy import Reclaimed, RetentionPolicy

__all__ = ["TRY_LOCK", "reclaim_step"]

TRY_LOCK = "SELECT pg_try_advisory_xact_lock(hashtext('spades retention'))"

Read = Callable[[str, tuple[Any, ...]], list[tuple[Any, ...]]]
Write = Callable[[str, tuple[Any, ...]], None]


def reclaim_step(
    read: Read,
    write: Write,
    policy: RetentionPolicy,
    now: float,
    live_tables: Collection[str],
    live_players: Collection[str],
) -> Reclaimed:
    """One step of the policy at ``now`` (Unix seconds), inside the open transaction."""
    finished = policy.unix_cutoff(policy.keep_finished_days, now)
    unstarted = policy.unix_cutoff(policy.reclaim_days, now)
    analysed = policy.unix_cutoff(policy.keep_analyses_days, now)
    batch = policy.batch
    closed = waiting = games = players = 0
    if unstarted is not None:
        closed = _tables(read, write, "closed", unstarted, [], batch)
        waiting = _tables(read, write, "waiting", unstarted, sorted(live_tables), batch)
        players = _players(read, write, unstarted, sorted(live_players), batch)
    if finished is not None:
        games = _finished_games(read, write, finished, batch)
    analyses = _analyses(read, write, analysed, batch)
    return Reclaimed.counted(closed, waiting, games, analyses, players, batch)


def _tables(
    read: Read, write: Write, status: str, before: float, live: list[str], limit: int
) -> int:
    """Tables of ``status`` unchanged since before ``before`` (and their actions), except
    ``live`` ones (the server has them in memory)."""
    rows = read(
        "SELECT code FROM tables WHERE status = %s AND updated < to_timestamp(%s) "
        "AND NOT (code = ANY(%s)) ORDER BY code LIMIT %s",
        (status, before, live, limit),
    )
    codes = [row[0] for row in rows]
    if codes:
        write("DELETE FROM actions WHERE code = ANY(%s)", (codes,))
        write("DELETE FROM tables WHERE code = ANY(%s)", (codes,))
    return len(codes)


def _finished_games(read: Read, write: Write, before: float, limit: int) -> int:
    """Game records made before ``before`` with their game's actions and analyses; a
    record a live table still shows (its last game) stays."""
    rows = read(
        "SELECT r.record_id, r.code, r.game_no FROM records r "
        "WHERE r.created < to_timestamp(%s) AND NOT EXISTS (SELECT 1 FROM tables t "
        "WHERE t.code = r.code AND t.status != 'closed' AND (t.game_no = r.game_no "
        "OR (t.data::jsonb ->> 'record_id') = r.record_id)) ORDER BY r.record_id LIMIT %s",
        (before, limit),
    )
    for record_id, code, game_no in rows:
        write("DELETE FROM actions WHERE code = %s AND game_no = %s", (code, game_no))
        write("DELETE FROM analyses WHERE record_id = %s", (record_id,))
    if rows:
        write("DELETE FROM records WHERE record_id = ANY(%s)", ([row[0] for row in rows],))
    return len(rows)


def _analyses(read: Read, write: Write, before: float | None, limit: int) -> int:
    """Cached analyses of records made before ``before``, and of records that are gone."""
    rows = read(
        "SELECT a.record_id, a.seat, a.level FROM analyses a "
        "LEFT JOIN records r ON r.record_id = a.record_id "
        "WHERE r.record_id IS NULL OR (%s::float8 IS NOT NULL "
        "AND r.created < to_timestamp(%s::float8)) LIMIT %s",
        (before, before, limit),
    )
    for record_id, seat, level in rows:
        write(
            "DELETE FROM analyses WHERE record_id = %s AND seat = %s AND level = %s",
            (record_id, seat, level),
        )
    return len(rows)


def _players(read: Read, write: Write, before: float, live: list[str], limit: int) -> int:
    """Players stored before ``before`` who sit at no live table, except ``live`` ones
    (connected now)."""
    rows = read(
        "SELECT id FROM players WHERE created < to_timestamp(%s) AND NOT (id = ANY(%s)) "
        "AND id NOT IN (SELECT s ->> 'player_id' FROM tables t, "
        "jsonb_array_elements(t.data::jsonb -> 'seats') s WHERE t.status != 'closed' "
        "AND s ->> 'player_id' IS NOT NULL) ORDER BY id LIMIT %s",
        (before, live, limit),
    )
    ids = [row[0] for row in rows]
    if ids:
        write("DELETE FROM players WHERE id = ANY(%s)", (ids,))
    return len(ids)
