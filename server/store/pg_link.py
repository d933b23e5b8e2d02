"""Small helpers of the PostgreSQL store (:mod:`server.store.pg`) about its connection:
the schema made or checked at open, the address shown without its password, noticing a
connection the server closed, and one line for an error. psycopg is imported here only
by that store."""

from __future__ import annotations

import select
from typing import Any

import psycopg
from psycopg import conninfo

from server.store import accounts_schema
from server.store.base import StoreError
from server.store.pg_schema import SCHEMA, SCHEMA_VERSION

__all__ = ["create_schema", "display", "notice_close", "reason"]


def create_schema(db: psycopg.Connection[Any], shown: str) -> None:
    """Make the tables (one node at a time) and check the stored schema's version.
    Raises :class:`StoreError` for a store newer than this server (``shown`` names it)."""
    with db.transaction():
        db.execute("SELECT pg_advisory_xact_lock(hashtext('spades schema'))")
        for statement in SCHEMA:
            db.execute(statement)
        db.execute(
            "INSERT INTO meta (key, value) VALUES ('schema_version', %s) "
            "ON CONFLICT (key) DO NOTHING",
            (str(SCHEMA_VERSION),),
        )
        row = db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        stored = int(row[0])  # type: ignore[index]
        if stored > SCHEMA_VERSION:
            raise StoreError(
                f"cannot open the store {shown}: its schema is version {stored}, "
                f"newer than this server's {SCHEMA_VERSION}"
            )
        try:
            accounts_schema.migrate(db.execute, "postgres")
        except ValueError as error:
            raise StoreError(f"cannot open the store {shown}: {error}") from None
        db.execute(
            "INSERT INTO meta (key, value) VALUES ('opened', now()::text) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value"
        )


def display(dsn: str) -> str:
    """The DSN without its password, for messages and logs."""
    try:
        parts = conninfo.conninfo_to_dict(dsn)
    except psycopg.ProgrammingError:
        return "postgresql://(unparsable address)"
    user = f"{parts['user']}@" if parts.get("user") else ""
    port = f":{parts['port']}" if parts.get("port") else ""
    return f"postgresql://{user}{parts.get('host', '')}{port}/{parts.get('dbname', '')}"


def notice_close(connection: psycopg.Connection[Any]) -> None:
    """Read what an idle connection has been sent, without waiting: a server that ended
    the session (restarted, or the backend was terminated) has sent an error and closed
    it, and libpq marks the connection bad, so it is replaced before a turn is sent on
    it rather than losing that turn. A silent network stays unnoticed until used."""
    for _ in range(4):
        if connection.broken:
            return
        try:
            readable, _, _ = select.select([connection.fileno()], [], [], 0)
        except (OSError, ValueError, psycopg.Error):
            return
        if not readable:
            return
        try:
            connection.pgconn.consume_input()
        except psycopg.Error:
            return  # the connection is bad now: psycopg reports it as broken
        if connection.pgconn.status != psycopg.pq.ConnStatus.OK:
            return


def reason(error: BaseException) -> str:
    """One line for a log or a StoreError: the server's primary message only (its DETAIL
    may quote row values, a token hash say, that have no business in a log)."""
    text = str(error)
    if isinstance(error, psycopg.Error) and error.diag.message_primary:
        text = error.diag.message_primary
    return " ".join(text.split()) or type(error).__name__
