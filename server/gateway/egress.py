"""A byte budget per address for the large answers (``record``, ``analysis``).

    budget = ByteBudget(rate=65536.0, burst=1048576)
    if not budget.allows(address, now): ...     # refuse: rate_limited
    budget.spend(address, len(data), now)       # after sending: may go into debt

A 44-byte request can be answered with tens of kilobytes: without a budget a few
connections make the server send megabytes a second. Each address has ``burst`` bytes,
refilled at ``rate`` a second; an answer is allowed while the address is not in debt
and its size is then spent (an answer larger than what is left puts the address in
debt, so the next ones wait). Addresses whose budget is full again are forgotten.
"""

from __future__ import annotations

__all__ = ["ByteBudget"]

_FORGET_AFTER = 4096  # addresses remembered before the full ones are swept


class ByteBudget:
    """Bytes each address may be sent, as a token bucket that may go into debt."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self._left: dict[str, tuple[float, float]] = {}  # address -> (bytes left, when)

    def left(self, address: str, now: float) -> float:
        """Bytes ``address`` may still be sent now (negative: in debt)."""
        entry = self._left.get(address)
        if entry is None:
            return self.burst
        left, when = entry
        return min(self.burst, left + max(0.0, now - when) * self.rate)

    def allows(self, address: str, now: float) -> bool:
        """Whether an answer may go to ``address`` now (it is not in debt)."""
        return self.left(address, now) > 0.0

    def seconds_until_allowed(self, address: str, now: float) -> float:
        """How long ``address`` must wait for its next answer (``0``: none)."""
        left = self.left(address, now)
        return 0.0 if left > 0.0 else (1.0 - left) / self.rate

    def spend(self, address: str, size: int, now: float) -> None:
        """``size`` bytes were sent to ``address``."""
        if len(self._left) >= _FORGET_AFTER:
            self._left = {
                key: value for key, value in self._left.items() if self.left(key, now) < self.burst
            }
        self._left[address] = (self.left(address, now) - size, now)
