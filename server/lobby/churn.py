"""Tables made and given up: creations per address, forfeits per player and address,
over time.

    churn = Churn(config)
    churn.check_create(address, now)            # raises RequestError rate_limited
    churn.check_player(player_id, now)          # raises RequestError rate_limited
    churn.forfeited("p1", "203.0.113.7", now)   # a game given up (address: may be None)

Creating a table with the bot and leaving at once costs the server a table, a deal and
their rows each time (and a record, when the player made a move first). Each address
may create ``creations_burst_per_address`` tables at once and
``creations_per_minute_per_address`` a minute after that; a player or an address that
gave up ``forfeits_per_hour`` games (leaving, or letting the hold run out) within the
last hour creates no table until the oldest of those is an hour old. Times are the
caller's clock, in seconds.
"""

from __future__ import annotations

from collections import deque
from typing import Final

from server.config import ServerConfig
from server.errors import RequestError
from server.limits import TokenBucket

__all__ = ["Churn"]

WINDOW_SECONDS: Final = 3600.0
_REMEMBERED: Final = 10_000  # keys kept before those at rest are swept


def _default_budget(config: ServerConfig) -> int:
    """A fifth of the tables one address may hold, at least 20 (the budgets' default)."""
    held = config.max_tables_per_address
    held = held if held is not None else max(4, config.max_tables // 5)
    return max(20, held // 5)


class Churn:
    """Creations and forfeits, counted (see the module)."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self._creations: dict[str, TokenBucket] = {}
        self._forfeits: dict[str, deque[float]] = {}  # "player:ID" / "address:A" -> times
        burst = config.creations_burst_per_address
        self._burst = _default_budget(config) if burst is None else burst
        given = config.forfeits_per_hour
        self._forfeit_limit = _default_budget(config) if given is None else given

    def check_create(self, address: str, now: float) -> None:
        """Count a new table for ``address``; raises ``rate_limited`` beyond its budget
        or when it gave up too many games lately."""
        self._check_forfeits(f"address:{address}", now, "your network address")
        if len(self._creations) >= _REMEMBERED:
            self._creations = {
                key: bucket
                for key, bucket in self._creations.items()
                if bucket.tokens + (now - bucket.last) * bucket.rate < bucket.burst
            }
        bucket = self._creations.get(address)
        if bucket is None:
            rate = self.config.creations_per_minute_per_address / 60.0
            bucket = self._creations[address] = TokenBucket(rate, self._burst, now=now)
        if not bucket.take(now):
            raise RequestError(
                "rate_limited", "your network address created many tables just now; slow down"
            )

    def check_player(self, player_id: str, now: float) -> None:
        """Raises ``rate_limited`` when ``player_id`` gave up too many games lately."""
        self._check_forfeits(f"player:{player_id}", now, "you")

    def forfeited(self, player_id: str | None, address: str | None, now: float) -> None:
        """A game was given up by ``player_id``; ``address``: the table's creator, when
        the forfeit is theirs (a bot table)."""
        keys = [f"player:{player_id}"] if player_id is not None else []
        if address is not None:
            keys.append(f"address:{address}")
        if len(self._forfeits) >= _REMEMBERED:
            self._forfeits = {
                key: times
                for key, times in self._forfeits.items()
                if times and now - times[-1] < WINDOW_SECONDS
            }
        for key in keys:
            times = self._forfeits.setdefault(key, deque(maxlen=max(1, self._forfeit_limit)))
            times.append(now)

    def _check_forfeits(self, key: str, now: float, who: str) -> None:
        times = self._forfeits.get(key)
        limit = self._forfeit_limit
        if times is None or limit <= 0:  # 0: no limit
            return
        while times and now - times[0] >= WINDOW_SECONDS:
            times.popleft()
        if len(times) >= limit:
            wait = WINDOW_SECONDS - (now - times[0])
            raise RequestError(
                "rate_limited",
                f"{who} gave up {len(times)} games in the last hour: "
                f"no new table for {max(1.0, wait / 60):.0f} min",
            )
