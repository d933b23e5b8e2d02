"""The accounts' tables, as versioned migrations for both stores.

    migrate(execute, dialect="sqlite")    # on open, inside the store's schema transaction

Kept apart from the games' schema: its own version in ``meta`` (``accounts_schema``), each
migration a list of statements applied once in order. ``execute(sql, params)`` runs one
statement on the store's connection and returns something with ``fetchone()``. Raises
what the driver raises (the store turns it into ``StoreError``); a store whose accounts
schema is newer than this server's raises ``ValueError``.

Tables: ``accounts`` (a registered name: its player id, the name's skeleton, unique, and
the argon2id hash), ``account_sessions`` (the hash of every token an account signed in
with), ``ratings`` (per account and preset), ``rated_games`` (one row per game of an
account: both sides, the result, each side's rating before and after; a casual or
aborted game too, unrated). Times are Unix seconds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

__all__ = ["ACCOUNTS_SCHEMA_VERSION", "MIGRATIONS", "migrate"]

Dialect = Literal["sqlite", "postgres"]

_REAL = {"sqlite": "REAL", "postgres": "DOUBLE PRECISION"}

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # 1: accounts, their sessions, ratings and games
    (
        """CREATE TABLE IF NOT EXISTS accounts (
            player_id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            skeleton TEXT NOT NULL UNIQUE,
            password_hash TEXT NOT NULL,
            created {real} NOT NULL
        )""",
        """CREATE TABLE IF NOT EXISTS account_sessions (
            token_hash TEXT PRIMARY KEY,
            player_id TEXT NOT NULL,
            created {real} NOT NULL
        )""",
        "CREATE INDEX IF NOT EXISTS account_sessions_by_player ON account_sessions (player_id)",
        """CREATE TABLE IF NOT EXISTS ratings (
            player_id TEXT NOT NULL,
            preset TEXT NOT NULL,
            rating {real} NOT NULL,
            deviation {real} NOT NULL,
            volatility {real} NOT NULL,
            games INTEGER NOT NULL,
            wins INTEGER NOT NULL,
            losses INTEGER NOT NULL,
            updated {real} NOT NULL,
            PRIMARY KEY (player_id, preset)
        )""",
        "CREATE INDEX IF NOT EXISTS ratings_board ON ratings (preset, deviation, rating)",
        """CREATE TABLE IF NOT EXISTS rated_games (
            record_id TEXT PRIMARY KEY,
            code TEXT NOT NULL,
            preset TEXT,
            rated INTEGER NOT NULL,
            outcome TEXT NOT NULL,
            winner INTEGER,
            player0 TEXT,
            player1 TEXT,
            name0 TEXT NOT NULL,
            name1 TEXT NOT NULL,
            score0 INTEGER NOT NULL,
            score1 INTEGER NOT NULL,
            before0 {real},
            after0 {real},
            before1 {real},
            after1 {real},
            ended {real} NOT NULL
        )""",
        "CREATE INDEX IF NOT EXISTS rated_games_by_player0 ON rated_games (player0, ended)",
        "CREATE INDEX IF NOT EXISTS rated_games_by_player1 ON rated_games (player1, ended)",
    ),
)

ACCOUNTS_SCHEMA_VERSION = len(MIGRATIONS)


def migrate(execute: Callable[[str, tuple[Any, ...]], Any], dialect: Dialect) -> int:
    """Apply the migrations the store lacks; returns the version it is at now."""
    mark = "?" if dialect == "sqlite" else "%s"
    row = execute(f"SELECT value FROM meta WHERE key = {mark}", ("accounts_schema",)).fetchone()
    stored = 0 if row is None else int(row[0])
    if stored > ACCOUNTS_SCHEMA_VERSION:
        raise ValueError(
            f"its accounts schema is version {stored}, newer than this server's "
            f"{ACCOUNTS_SCHEMA_VERSION}"
        )
    for version in range(stored + 1, ACCOUNTS_SCHEMA_VERSION + 1):
        for statement in MIGRATIONS[version - 1]:
            execute(statement.format(real=_REAL[dialect]), ())
        execute(f"DELETE FROM meta WHERE key = {mark}", ("accounts_schema",))
        execute(
            f"INSERT INTO meta (key, value) VALUES ({mark}, {mark})",
            ("accounts_schema", str(version)),
        )
    return max(stored, ACCOUNTS_SCHEMA_VERSION)
