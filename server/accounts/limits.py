"""Attempt limits of the accounts: sign-ins per account and per address, registrations per
address, each a token bucket (``burst`` at once, then ``burst`` per ``window`` seconds).

    attempts = MemoryAttempts(ALLOWANCES)            # one node: counted in its memory
    attempts = RedisAttempts(url, ALLOWANCES)        # a cluster: server.cluster.redis_limits
    if not await attempts.take(SIGN_IN_ACCOUNT, skeleton): ...   # refused: rate_limited
    await attempts.give_back(SIGN_IN_ACCOUNT, skeleton)          # a right password
    await attempts.close()

Both kinds of :class:`Attempts` have the same buckets and the same answers; the memory
one counts per node, the Redis one once for the whole cluster (an attacker spreading his
attempts over N nodes gets one allowance, not N). Nothing here raises: a Redis counter
that cannot reach Redis counts in memory meanwhile (see its module).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from server.limits import TokenBucket

__all__ = [
    "ALLOWANCES",
    "REGISTER_ADDRESS",
    "SIGN_IN_ACCOUNT",
    "SIGN_IN_ADDRESS",
    "Allowance",
    "Attempts",
    "MemoryAttempts",
]

SIGN_IN_ACCOUNT = "sign_in_account"
SIGN_IN_ADDRESS = "sign_in_address"
REGISTER_ADDRESS = "register_address"


@dataclass(frozen=True)
class Allowance:
    """``burst`` attempts at once, then ``burst`` more per ``window`` seconds."""

    burst: int
    window: float

    @property
    def rate(self) -> float:
        return self.burst / self.window


ALLOWANCES: Mapping[str, Allowance] = {
    SIGN_IN_ACCOUNT: Allowance(5, 900.0),
    SIGN_IN_ADDRESS: Allowance(20, 900.0),
    REGISTER_ADDRESS: Allowance(3, 3600.0),
}
"""The allowances of docs/accounts.md ("Limits against abuse")."""


class Attempts(Protocol):
    """Where attempts are counted (memory, or Redis shared by a cluster's nodes)."""

    async def take(self, kind: str, key: str) -> bool:
        """Spend one attempt of ``key`` (an account's skeleton, an address) in ``kind``
        (one of the allowances' names): False when none is left."""
        ...

    async def give_back(self, kind: str, key: str) -> None:
        """Return one attempt (never above the burst)."""
        ...

    async def close(self) -> None:
        """When the server stops."""
        ...


class MemoryAttempts:
    """:class:`Attempts` counted in this process, ``clock`` its time (seconds; monotonic
    by default, a test's own numbers otherwise). At most ``max_tracked`` keys are kept per
    kind: beyond that the oldest is let go (its owner starts again with a full bucket)."""

    def __init__(
        self,
        allowances: Mapping[str, Allowance] = ALLOWANCES,
        clock: Callable[[], float] = time.monotonic,
        max_tracked: int = 50_000,
    ) -> None:
        self.allowances = allowances
        self.clock = clock
        self.max_tracked = max_tracked
        self._buckets: dict[str, dict[str, TokenBucket]] = {kind: {} for kind in allowances}

    def take_now(self, kind: str, key: str) -> bool:
        """:meth:`take` without awaiting (the Redis counter's fallback uses it)."""
        allowance = self.allowances[kind]
        buckets = self._buckets[kind]
        now = self.clock()
        bucket = buckets.get(key)
        if bucket is None:
            if len(buckets) >= self.max_tracked:
                buckets.pop(next(iter(buckets)))
            bucket = buckets[key] = TokenBucket(allowance.rate, allowance.burst, now)
        return bucket.take(now)

    def give_back_now(self, kind: str, key: str) -> None:
        bucket = self._buckets[kind].get(key)
        if bucket is not None:
            bucket.credit(1)

    async def take(self, kind: str, key: str) -> bool:
        return self.take_now(kind, key)

    async def give_back(self, kind: str, key: str) -> None:
        self.give_back_now(kind, key)

    async def close(self) -> None:
        for buckets in self._buckets.values():
            buckets.clear()
