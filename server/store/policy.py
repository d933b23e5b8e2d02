"""What a long-running server keeps: the retention policy and the counts of a step.

Pure values (no store): :mod:`server.store.retention` explains the policy and runs it;
each store (:meth:`server.store.base.Storage.reclaim_step`) carries it out in its own SQL.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Reclaimed", "RetentionPolicy", "julian_day"]

_UNIX_EPOCH_JULIAN = 2440587.5
_NEVER = -1.0  # a cutoff before every stored time: nothing of that kind goes


def julian_day(unix_seconds: float) -> float:
    """Unix seconds as a julian day number (how the store keeps its times)."""
    return unix_seconds / 86400.0 + _UNIX_EPOCH_JULIAN


@dataclass(frozen=True)
class RetentionPolicy:
    """How long each kind of row is kept, in days (``0``: for ever); see the module."""

    keep_finished_days: float = 365.0
    reclaim_days: float = 7.0
    keep_analyses_days: float = 30.0
    batch: int = 500

    def cutoff(self, days: float, now: float) -> float:
        """The julian day before which rows kept ``days`` days go (``0``: none go)."""
        return _NEVER if days <= 0 else julian_day(now) - days

    def unix_cutoff(self, days: float, now: float) -> float | None:
        """Unix seconds before which rows kept ``days`` days go, or ``None`` (``0``: none go)."""
        return None if days <= 0 else now - days * 86400.0


@dataclass(frozen=True)
class Reclaimed:
    """Rows deleted by one step (or a whole run), by kind."""

    closed_tables: int = 0
    waiting_tables: int = 0
    finished_games: int = 0
    analyses: int = 0
    players: int = 0
    more: bool = False  # some kind filled its batch: call again

    @classmethod
    def counted(
        cls, closed: int, waiting: int, finished: int, analyses: int, players: int, batch: int
    ) -> Reclaimed:
        """One step's counts; ``more`` when some kind filled its batch of ``batch`` rows."""
        more = batch in (closed, waiting, finished, analyses, players)
        return cls(closed, waiting, finished, analyses, players, more)

    @property
    def total(self) -> int:
        return (
            self.closed_tables
            + self.waiting_tables
            + self.finished_games
            + self.analyses
            + self.players
        )

    def __add__(self, other: Reclaimed) -> Reclaimed:
        return Reclaimed(
            self.closed_tables + other.closed_tables,
            self.waiting_tables + other.waiting_tables,
            self.finished_games + other.finished_games,
            self.analyses + other.analyses,
            self.players + other.players,
            other.more,
        )
