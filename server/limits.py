"""Limits: the one token bucket, and what one network address may hold of the server.

    bucket = TokenBucket(rate=20.0, burst=40)      # requests, chat, pings, reports
    if not bucket.take(): ...                      # refused
    share = address_share("2001:db8::1")           # "2001:db8::/64": what limits count
    limits = AddressLimits(config)
    if not limits.connect(address): ...            # refuse: server_full, close 1013
    limits.disconnect(address)
    limits.check_new_table(address, tables, bot=True)   # raises LimitError
    budgets = AddressBudgets(config)
    if not budgets.take(address): ...              # the address's shared request budget
    budgets.wait(address, now, tokens=75)          # seconds until it holds 75
    rates = ConnectRates(config)
    if not rates.admit(host): ...                  # shed the new TCP connection

One client must not take every connection, every table slot or every bot: each address
may hold at most a share of them (``ServerConfig.max_connections_per_address`` and
friends; by default a quarter of the connections, a fifth of the tables and a fiftieth
of the tables with a bot, at least 4). An *address* here is a share
(:func:`address_share`): an IPv4 address, or an IPv6 network (``/64`` by default), since
one host holds a whole /64. A few addresses together must not take everything either:
the last ``share_reserve`` of the connections and of the tables are kept for addresses
that hold none. Behind a reverse proxy every client has the proxy's address, so raise
these there or trust the proxy (docs/hosting.md: "TLS and reverse proxies").
"""

from __future__ import annotations

import functools
import ipaddress
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

from server.config import ServerConfig
from server.errors import ServerError

__all__ = [
    "DEFAULT_IPV6_PREFIX",
    "AddressBudgets",
    "AddressLimits",
    "ConnectRates",
    "LimitError",
    "TokenBucket",
    "action_bucket",
    "address_share",
]

DEFAULT_IPV6_PREFIX = 64
"""IPv6 addresses of one /64 are one share (``ServerConfig.ipv6_share_prefix``)."""


class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` saved up; starts full.

    ``take(now)`` spends one if there is one (``now``: a clock of the caller's, seconds;
    default ``time.monotonic()``); ``credit(count)`` gives tokens back."""

    __slots__ = ("burst", "last", "rate", "tokens")

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

    def wait(self, now: float | None = None, tokens: float = 1.0) -> float:
        """Seconds until the bucket holds ``tokens`` (at most ``burst``; default one:
        until ``take`` would succeed); 0.0: now, ``inf`` if it never refills."""
        now = time.monotonic() if now is None else now
        wanted = min(self.burst, tokens)
        held = min(self.burst, self.tokens + max(0.0, now - self.last) * self.rate)
        if held >= wanted:
            return 0.0
        return (wanted - held) / self.rate if self.rate > 0 else float("inf")

    def full(self, now: float) -> bool:
        """Whether the bucket would be full at ``now`` (nothing left to remember)."""
        return self.tokens + max(0.0, now - self.last) * self.rate >= self.burst


@functools.lru_cache(maxsize=4096)
def address_share(address: str, ipv6_prefix: int = DEFAULT_IPV6_PREFIX) -> str:
    """The share ``address`` counts toward: an IPv4 address itself, an IPv6 address's
    ``/ipv6_prefix`` network (``"2001:db8:1:2::/64"``). Idempotent (a share is its own
    share); text that is no IP address is returned as it is (``"?"``)."""
    text = address.strip()
    try:
        if "/" in text:
            network = ipaddress.ip_network(text, strict=False)
            if network.version == 4:
                return str(network.network_address) if network.prefixlen == 32 else str(network)
            prefix = min(network.prefixlen, ipv6_prefix)
            return str(network.supernet(new_prefix=prefix))
        parsed = ipaddress.ip_address(text)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        return str(parsed.ipv4_mapped)
    if parsed.version == 4:
        return str(parsed)
    return str(ipaddress.ip_network(f"{parsed}/{ipv6_prefix}", strict=False))


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


def _reserve(total: int, part: float) -> int:
    """The slots of ``total`` kept for addresses holding none: at least one (if any),
    none when ``part`` is 0."""
    if part <= 0:
        return 0
    return min(max(0, total - 1), max(1, int(total * part)))


class AddressLimits:
    """Connection counts by share, and the table checks (tables carry their address)."""

    def __init__(self, config: ServerConfig) -> None:
        self.max_connections = config.max_connections_per_address or max(
            4, config.max_connections // 4
        )
        self.max_tables = config.max_tables_per_address or max(4, config.max_tables // 5)
        self.max_bot_tables = config.max_bot_tables_per_address or max(4, config.max_tables // 50)
        self.prefix = config.ipv6_share_prefix
        # an address holding some may fill the server up to here, not further
        self.connections_open_to_holders = config.max_connections - _reserve(
            config.max_connections, config.share_reserve
        )
        self.tables_open_to_holders = config.max_tables - _reserve(
            config.max_tables, config.share_reserve
        )
        self.connections: dict[str, int] = {}  # by share
        self.total_connections = 0

    def share(self, address: str) -> str:
        """What ``address`` counts as (see :func:`address_share`)."""
        return address_share(address, self.prefix)

    def connect(self, address: str) -> bool:
        """Count a new connection from ``address``; ``False`` (not counted) if at its limit,
        or if it holds some and only the reserve for newcomers is left."""
        share = self.share(address)
        held = self.connections.get(share, 0)
        if held >= self.max_connections:
            return False
        if held and self.total_connections >= self.connections_open_to_holders:
            return False
        self.connections[share] = held + 1
        self.total_connections += 1
        return True

    def disconnect(self, address: str) -> None:
        share = self.share(address)
        held = self.connections.get(share, 0)
        if held <= 0:
            return
        self.total_connections -= 1
        if held > 1:
            self.connections[share] = held - 1
        else:
            del self.connections[share]

    def check_new_table(self, address: str, tables: Iterable[Table], bot: bool) -> None:
        """Raise :class:`LimitError` if ``address`` may not hold one more table (with a bot
        in it when ``bot``): every table in memory counts, finished ones too; an address
        that holds some may not take the tables kept for newcomers."""
        share = self.share(address)
        held = with_bot = total = 0
        for table in tables:
            total += 1
            if table.address is not None and self.share(table.address) == share:
                held += 1
                with_bot += _has_bot(table)
        if held >= self.max_tables:
            raise LimitError("your address holds as many tables as one address may")
        if held and total >= self.tables_open_to_holders:
            raise LimitError(
                "the server keeps its last tables for addresses that hold none; "
                "your address holds some"
            )
        if bot and with_bot >= self.max_bot_tables:
            raise LimitError("your address has the bot at as many tables as one address may")

    def check_bot(self, address: str, tables: Iterable[Table]) -> None:
        """Raise :class:`LimitError` if ``address`` may not bring the bot to one more table."""
        share = self.share(address)
        with_bot = sum(
            _has_bot(table)
            for table in tables
            if table.address is not None and self.share(table.address) == share
        )
        if with_bot >= self.max_bot_tables:
            raise LimitError("your address has the bot at as many tables as one address may")


class AddressBudgets:
    """The request budget each share spends from, whichever of its connections asks
    (``address_messages_per_second``, ``address_burst``); on top of each connection's."""

    CHECK_EVERY = 4096  # buckets kept before the full ones (idle shares) are dropped

    def __init__(self, config: ServerConfig) -> None:
        self.rate = config.address_messages_per_second or 5 * config.rate_messages_per_second
        self.burst = config.address_burst or 5 * config.rate_burst
        self.prefix = config.ipv6_share_prefix
        self.buckets: dict[str, TokenBucket] = {}

    def take(self, address: str, now: float | None = None) -> bool:
        """Spend one request of ``address``'s share; ``False`` when it has none left."""
        now = time.monotonic() if now is None else now
        share = address_share(address, self.prefix)
        bucket = self.buckets.get(share)
        if bucket is None:
            if len(self.buckets) >= self.CHECK_EVERY:
                self._drop_idle(now)
            bucket = self.buckets[share] = TokenBucket(self.rate, self.burst, now)
        return bucket.take(now)

    def wait(self, address: str, now: float, tokens: float = 1.0) -> float:
        """Seconds until ``address``'s share holds ``tokens`` (0.0: now, or no bucket)."""
        bucket = self.buckets.get(address_share(address, self.prefix))
        return 0.0 if bucket is None else bucket.wait(now, tokens)

    def _drop_idle(self, now: float) -> None:
        # a full bucket is the same as none: forgetting it changes nothing
        for share in [s for s, bucket in self.buckets.items() if bucket.full(now)]:
            del self.buckets[share]


class ConnectRates:
    """New TCP connections each share may open (``connects_per_second_per_address``,
    ``connects_burst_per_address``; a rate of 0: no bound), checked before anything is
    built for a connection. Trusted proxies (``trusted_proxies``) have no bound: their
    connections are everyone's. ``shed`` counts the connections refused.

    ``clock``: seconds, ``time.monotonic`` by default (a test's own clock)."""

    CHECK_EVERY = 4096  # buckets kept before the full ones (idle shares) are dropped

    def __init__(self, config: ServerConfig, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = config.connects_per_second_per_address
        self.burst = max(1, config.connects_burst_per_address)
        self.prefix = config.ipv6_share_prefix
        self.exempt = {address_share(proxy, self.prefix) for proxy in config.trusted_proxies}
        self.clock = clock
        self.buckets: dict[str, TokenBucket] = {}
        self._check_at = self.CHECK_EVERY
        self.shed = 0

    def admit(self, host: str) -> bool:
        """Spend one connection of ``host``'s share; ``False`` (counted in ``shed``) when
        it has none left."""
        if self.rate <= 0:
            return True
        share = address_share(host, self.prefix)
        if share in self.exempt:
            return True
        now = self.clock()
        bucket = self.buckets.get(share)
        if bucket is None:
            if len(self.buckets) >= self._check_at:
                for idle in [s for s, b in self.buckets.items() if b.full(now)]:
                    del self.buckets[idle]  # a full bucket is the same as none
                # many busy shares (one /48's networks): the next pass when they double,
                # so that each new share costs the same whatever their number
                self._check_at = max(self.CHECK_EVERY, 2 * len(self.buckets))
            bucket = self.buckets[share] = TokenBucket(self.rate, self.burst, now)
        if bucket.take(now):
            return True
        self.shed += 1
        return False


def action_bucket(config: ServerConfig) -> TokenBucket:
    """One player's ``act`` budget (``actions_per_second``, ``actions_burst``; by default
    a third of a connection's message rate and half its burst)."""
    rate = config.actions_per_second or config.rate_messages_per_second / 3
    burst = config.actions_burst or max(1, config.rate_burst // 2)
    return TokenBucket(rate, burst)


def _has_bot(table: Table) -> bool:
    """An unfinished table where the bot plays (bot work that an address causes)."""
    return table.status != "finished" and any(seat.kind == "bot" for seat in table.seats)
