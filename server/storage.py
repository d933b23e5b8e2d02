"""What the hub needs of a store, and how a server picks one.

``Storage`` names exactly the calls the hub makes; :class:`server.store.Store` (SQLite,
the embedded default) and :class:`server.store_pg.PgStore` (PostgreSQL, for a cluster)
both implement it, with the same guarantees: writes gather in one open transaction
(``on_begin`` is called when it opens), :meth:`Storage.commit` stores them all or raises
:class:`StoreError` (nothing stored, no transaction left open), and a table claimed with
:meth:`Storage.claim_table` is fenced: a commit that writes for it after another node
claimed it raises :class:`FencedError` and stores nothing::

    store = open_store(config, on_begin=hub.schedule_flush)   # SQLite or PostgreSQL
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from server.config import ServerConfig
from server.store import ActionRow, FencedError, PlayerRow, Store, StoreError, TableRow

__all__ = ["FencedError", "Storage", "StoreError", "is_postgres_url", "open_store"]


class Storage(Protocol):
    """The store as the hub uses it (see :mod:`server.store` for each call's contract)."""

    @property
    def write_attempts(self) -> int:
        """Every write tried so far: a caller compares it before and after a request."""
        ...

    def commit(self) -> None: ...

    def rollback(self) -> None: ...

    def close(self) -> None: ...

    def claim_table(self, code: str, generation: int) -> None: ...

    def add_player_hashed(self, player_id: str, name: str, hashed: str) -> None: ...

    def player_by_token(self, token: str) -> PlayerRow | None: ...

    def save_table(self, code: str, data: dict[str, Any], status: str, game_no: int) -> None: ...

    def load_table(self, code: str) -> TableRow | None: ...

    def load_tables(self) -> list[TableRow]: ...

    def append_action(
        self, code: str, game_no: int, index: int, seat: int | None, action: str, seq: int | None
    ) -> None: ...

    def load_actions(self, code: str, game_no: int) -> list[ActionRow]: ...

    def save_record(
        self, record_id: str, code: str, game_no: int, record: dict[str, Any]
    ) -> None: ...

    def record_json(self, record_id: str) -> str | None: ...

    def save_analysis(self, record_id: str, seat: int, level: str, analysis_json: str) -> None: ...

    def analysis_json(self, record_id: str, seat: int, level: str) -> str | None: ...


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
            from server.store_pg import PgStore  # psycopg only when asked for
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
    )
