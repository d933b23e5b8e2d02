"""Small helpers of the PostgreSQL store (:mod:`server.store.pg`) about its connection:
the address shown without its password, noticing a connection the server closed, and one
line for an error. psycopg is imported here only by that store."""

from __future__ import annotations

import select
from typing import Any

import psycopg
from psycopg import conninfo

__all__ = ["display", "notice_close", "reason"]


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
