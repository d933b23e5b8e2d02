"""How many ``/report`` lines the host takes, and from whom.

    budget = ReportBudget()                  # or ReportBudget.from_config(config)
    reason = budget.refusal(player_id, now, address="203.0.113.7", table="K7QX2M9A",
                            seated=True)
    if reason is not None: ...      # refused: ``reason`` says which budget, truthfully

A player may report once every ``REPORT_COOLDOWN_SECONDS`` (the server's
``report_cooldown_seconds``); an address has a budget of its own (its
``reports_per_minute_per_address`` and ``report_burst_per_address``), so one address
cannot spend anyone else's. A seat of a game is limited only by those two: whatever
others send, the two players of a table can always report each other. Spectators
share a budget per table and one for the whole server, so that watchers cannot flood
the reports file. Every refusal names the budget that refused
and when to try again. Times are the caller's clock, in seconds.
"""

from __future__ import annotations

from typing import Final

from server.config import ServerConfig
from server.limits import TokenBucket

__all__ = ["REPORT_COOLDOWN_SECONDS", "ReportBudget"]

REPORT_COOLDOWN_SECONDS: Final = 30.0  # one report per player per 30 s
ADDRESS_REPORTS_PER_SECOND: Final = 1 / 20  # an address: one every 20 s...
ADDRESS_REPORT_BURST: Final = 3  # ...after a burst of 3
TABLE_REPORTS_PER_SECOND: Final = 1 / 20  # the spectators of one table
TABLE_REPORT_BURST: Final = 3
SERVER_REPORTS_PER_SECOND: Final = 0.5  # every spectator of the server
SERVER_REPORT_BURST: Final = 20
_REMEMBERED: Final = 10_000  # keys kept before the ones at rest are forgotten


class _Buckets:
    """A token bucket per key, created full; keys whose bucket is full again are swept."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self._buckets: dict[str, TokenBucket] = {}

    def wait(self, key: str, now: float) -> float:
        """Seconds until ``key`` has a token (``0``: it has one now; nothing is spent)."""
        bucket = self._buckets.get(key)
        if bucket is None:
            return 0.0
        tokens = min(bucket.burst, bucket.tokens + max(0.0, now - bucket.last) * bucket.rate)
        return 0.0 if tokens >= 1.0 else (1.0 - tokens) / bucket.rate

    def take(self, key: str, now: float) -> None:
        if len(self._buckets) >= _REMEMBERED:
            self._buckets = {
                k: b
                for k, b in self._buckets.items()
                if b.tokens + max(0.0, now - b.last) * b.rate < b.burst
            }
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = TokenBucket(self.rate, self.burst, now=now)
        bucket.take(now)


class ReportBudget:
    """The budgets of ``/report`` (see the module)."""

    def __init__(
        self,
        cooldown: float = REPORT_COOLDOWN_SECONDS,
        address_per_second: float = ADDRESS_REPORTS_PER_SECOND,
        address_burst: int = ADDRESS_REPORT_BURST,
    ) -> None:
        self.cooldown = cooldown
        self._last: dict[str, float] = {}  # player id -> when they last reported
        self._addresses = _Buckets(address_per_second, address_burst)
        self._tables = _Buckets(TABLE_REPORTS_PER_SECOND, TABLE_REPORT_BURST)
        self._server = _Buckets(SERVER_REPORTS_PER_SECOND, SERVER_REPORT_BURST)

    @classmethod
    def from_config(cls, config: ServerConfig) -> ReportBudget:
        """The budgets ``config`` sets (``report_cooldown_seconds``,
        ``reports_per_minute_per_address``, ``report_burst_per_address``)."""
        return cls(
            config.report_cooldown_seconds,
            config.reports_per_minute_per_address / 60.0,
            config.report_burst_per_address,
        )

    def refusal(
        self, player_id: str, now: float, address: str = "", table: str = "", seated: bool = False
    ) -> str | None:
        """Why a report from ``player_id`` is refused now, or ``None`` (then it is
        counted against each budget it draws on)."""
        last = self._last.get(player_id)
        if last is not None and now - last < self.cooldown:
            wait = self.cooldown - (now - last)
            return f"you reported less than {self.cooldown:g} s ago: try again in {wait:.0f} s"
        checks = [(self._addresses, address, "your network address sent several reports")]
        if not seated:
            checks.append((self._tables, table, "this table's spectators sent several reports"))
            checks.append((self._server, "", "spectators sent many reports to this server"))
        for buckets, key, why in checks:
            wait = buckets.wait(key, now)
            if wait > 0.0:
                return f"{why} just now: try again in {max(1.0, wait):.0f} s"
        for buckets, key, _ in checks:
            buckets.take(key, now)
        if len(self._last) >= _REMEMBERED:  # forget the cooldowns that are over
            self._last = {
                key: when for key, when in self._last.items() if now - when < self.cooldown
            }
        self._last[player_id] = now
        return None
