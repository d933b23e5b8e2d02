"""Limits: the one token bucket, and what one network address may hold of the server.

    bucket = TokenBucket(rate=20.0, burst=40)      # requests, chat, pings, reports
    if not bucket.take(): ...                      # refused
    limits = AddressLimits(config)
    if not limits.connect(address): ...          # refuse: server_full, close 1013
    limits.disconnect(address)
    limits.check_new_table(address, tables, bot=True)   # raises LimitError

One client must not take every connection, every table slot or every bot: each address
may hold at most a share of them (``ServerConfig.max_connections_per_address`` and
friends; by default a quarter of the connections, a fifth of the tables and a fiftieth
of the tables with a bot, at least 4). Behind a reverse proxy every client has the
proxy's address, so raise these there (docs/hosting.md: "TLS and reverse proxies").
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Protocol

from server.config import ServerConfig
from server.errors import ServerError

__all__ = ["AddressLimits", "LimitError", "TokenBucket"]


class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` saved up; starts full.

    ``take(now)`` spends one if there is one (``now``: a clock of the caller's, seconds;
    default ``time.monotonic()``); ``credit(count)`` gives tokens back."""

    def __init__(self, rate: float, burst: float, now: float | None = None) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.last = time.monotonic() if now is None else now

    def credit(self, count: int) -> None:
        """Give back ``count`` tokens (never above ``burst``): the server asked for a reply."""
        self.tokens = min(self.burst, self.tokens + count)

    def take(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        self.tokens = min(self.burst, self.tokens + max(0.0, now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class _Seat(Protocol):
    @property
    def kind(self) -> str: ...


class Table(Protocol):
    """A table as the limits see it: who made it, its status and seats."""

    @property
    def address(self) -> str | None: ...

    @property
    def status(self) -> str: ...

    @property
    def seats(self) -> Sequence[_Seat]: ...


class LimitError(ServerError):
    """An address is at one of its limits; ``str(error)`` says which, for the client."""


class AddressLimits:
    """Connection counts by address, and the table checks (tables carry their address)."""

    def __init__(self, config: ServerConfig) -> None:
        self.max_connections = config.max_connections_per_address or max(
            4, config.max_connections // 4
        )
        self.max_tables = config.max_tables_per_address or max(4, config.max_tables // 5)
        self.max_bot_tables = config.max_bot_tables_per_address or max(4, config.max_tables // 50)
        self.connections: dict[str, int] = {}

    def connect(self, address: str) -> bool:
        """Count a new connection from ``address``; ``False`` (not counted) if at its limit."""
        held = self.connections.get(address, 0)
        if held >= self.max_connections:
            return False
        self.connections[address] = held + 1
        return True

    def disconnect(self, address: str) -> None:
        held = self.connections.get(address, 0) - 1
        if held > 0:
            self.connections[address] = held
        else:
            self.connections.pop(address, None)

    def check_new_table(self, address: str, tables: Iterable[Table], bot: bool) -> None:
        """Raise :class:`LimitError` if ``address`` may not hold one more table (with a bot
        in it when ``bot``): every table in memory counts, finished ones too."""
        held = with_bot = 0
        for table in tables:
            if table.address == address:
                held += 1
                with_bot += _has_bot(table)
        if held >= self.max_tables:
            raise LimitError("your address holds as many tables as one address may")
        if bot and with_bot >= self.max_bot_tables:
            raise LimitError("your address has the bot at as many tables as one address may")

    def check_bot(self, address: str, tables: Iterable[Table]) -> None:
        """Raise :class:`LimitError` if ``address`` may not bring the bot to one more table."""
        with_bot = sum(_has_bot(table) for table in tables if table.address == address)
        if with_bot >= self.max_bot_tables:
            raise LimitError("your address has the bot at as many tables as one address may")


def _has_bot(table: Table) -> bool:
    """An unfinished table where the bot plays (bot work that an address causes)."""
    return table.status != "finished" and any(seat.kind == "bot" for seat in table.seats)
