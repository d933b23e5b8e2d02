"""Whether a new TCP connection may have a handshake at all, decided on the raw socket.

    admission = Admission(config, fd_limit)
    reason = admission.refusal(host)        # None: admit; else a key of SHED_REASONS
    if reason is not None:
        sock.close(); admission.note_shed(reason)
    else:
        admission.admit(connection, host)   # counted: open, half-open
        ...
        admission.handshake_over(connection)   # no longer half-open
        admission.gone(connection)             # closed (again: no effect)

Three bounds, in this order: the open descriptors (``fd_limit`` less :data:`FD_RESERVE`),
the address's connection rate (:class:`~server.limits.ConnectRates`) and the address's
handshakes in progress (:class:`~server.net.frontdoor.HalfOpen`). ``shed`` counts the
connections refused by each; :class:`~server.net.frontdoor.RefusalTally` logs them at
most once a second. Nothing here raises.
"""

from __future__ import annotations

import logging
from collections import Counter
from typing import Final

from server.config import ServerConfig
from server.limits import ConnectRates
from server.net.frontdoor import HalfOpen, RefusalTally

__all__ = ["FD_RESERVE", "SHED_REASONS", "Admission"]

FD_RESERVE: Final = 128
"""Descriptors kept free of connections: the store, bot worker pools, logs, listeners."""

SHED_REASONS: Final = {
    "open_files": "shed near the open-file limit",
    "connect_rate": "shed: connections from one address too fast",
    "half_open": "shed: too many handshakes from one address",
}
"""The keys of :attr:`Admission.shed` and the words of the log line for each."""


class Admission:
    """The bounds a new connection meets before anything is built for it (see the module).

    ``live``: the connections admitted and not yet gone; ``shed``: the connections refused,
    by reason (every key of :data:`SHED_REASONS` present)."""

    def __init__(
        self, config: ServerConfig, fd_limit: int = 0, logger: logging.Logger | None = None
    ) -> None:
        self.budget = fd_limit - FD_RESERVE if fd_limit > 0 else 0
        self.rates = ConnectRates(config)
        self.half_open = HalfOpen(config.max_half_open_per_address, config.trusted_proxies)
        self.refusals = RefusalTally(logger or logging.getLogger("server"))
        self.live: set[object] = set()
        self.shed: Counter[str] = Counter({reason: 0 for reason in SHED_REASONS})

    def refusal(self, host: str) -> str | None:
        """Why a new connection from ``host`` is refused (a key of :data:`SHED_REASONS`),
        or ``None``: it may be admitted. Spends one of the address's connection rate
        when the descriptors allow it."""
        if self.budget and len(self.live) >= self.budget:
            return "open_files"
        if not self.rates.admit(host):
            return "connect_rate"
        if not self.half_open.room(host):
            return "half_open"
        return None

    def note_shed(self, reason: str) -> None:
        """Count one connection refused for ``reason`` (and log it, at most once a second)."""
        self.shed[reason] += 1
        self.refusals.note(SHED_REASONS.get(reason, reason))

    def admit(self, connection: object, host: str) -> None:
        """Count ``connection`` from ``host`` as open and half-open (after :meth:`refusal`
        said ``None``, in the same turn of the loop)."""
        self.live.add(connection)
        self.half_open.admit(connection, host)

    def handshake_over(self, connection: object) -> None:
        """``connection``'s handshake ended, however it ended."""
        self.half_open.release(connection)

    def gone(self, connection: object) -> None:
        """``connection`` is closed (or never opened)."""
        self.live.discard(connection)
        self.half_open.release(connection)
