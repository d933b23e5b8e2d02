"""The store: everything the server keeps on disk, behind one protocol.

    store = open_store(config, on_begin=schedule_flush)   # SQLite or PostgreSQL
    store.append_action(code, game_no, index, seat, action, seq)
    store.commit()                  # StoreError / FencedError: nothing of it is stored

Parts: :mod:`~server.store.base` (the ``Storage`` protocol, its rows and errors),
:mod:`~server.store.sqlite` (the embedded default; with its retention queries and its
online backup), :mod:`~server.store.pg` (PostgreSQL for a cluster; psycopg is imported
only when such a store is opened), :mod:`~server.store.policy` and
:mod:`~server.store.retention` (what a long-running server keeps). Nothing outside this
package sees a driver's error type: every failure is a :class:`StoreError`.
"""

from __future__ import annotations

from collections.abc import Callable

from server.config import ServerConfig
from server.store.base import (
    ActionRow,
    FencedError,
    PlayerRow,
    Storage,
    StoreError,
    TableRow,
    token_hash,
)
from server.store.policy import Reclaimed, RetentionPolicy
from server.store.sqlite import Store

__all__ = [
    "ActionRow",
    "FencedError",
    "PlayerRow",
    "Reclaimed",
    "RetentionPolicy",
    "Storage",
    "Store",
    "StoreError",
    "TableRow",
    "is_postgres_url",
    "open_store",
    "token_hash",
]


def is_postgres_url(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://"))


def open_store(config: ServerConfig, on_begin: Callable[[], None] | None = None) -> Storage:
    """The server's store: PostgreSQL when ``config.store_url`` is a ``postgresql://`` URL,
    else SQLite at ``config.database``; in both, writes gather until ``commit``.

    Raises :class:`StoreError` (one line) when it cannot be opened or the URL is not one
    this server knows.
    """
    if config.store_url:
        if not is_postgres_url(config.store_url):
            raise StoreError(
                f"unknown store {config.store_url!r}: give a postgresql://USER@HOST:PORT/DB "
                "address (or --db PATH for SQLite)"
            )
        try:
            from server.store.pg import PgStore  # psycopg only when asked for
        except ImportError as error:
            raise StoreError(
                f"the PostgreSQL store needs psycopg ({error}): pip install 'spades2[cluster]'"
            ) from None

        return PgStore(config.store_url, autocommit=False, on_begin=on_begin)
    return Store(
        config.database,
        autocommit=False,
        on_begin=on_begin,
        wal_limit_bytes=config.wal_limit_bytes,
        quick_commits=True,  # a commit that waits for no disk flush runs on the loop
    )
