"""What a long-running server keeps, and reclaiming the rest.

The policy (each a ``spades serve`` flag; ``0`` keeps that kind for ever):

- ``keep_finished_days`` (365): a finished game's record, the actions it was rebuilt
  from, and its analyses go this long after the game ended. A record that a live table
  still shows (its last game) stays, whatever its age.
- ``reclaim_days`` (7): a closed table (everyone left, or abandoned) and a table still
  waiting for its first game go once unchanged for this long, with their actions (a
  finished game lives on in its record; an abandoned unfinished one had none); so does a
  player stored this long ago who sits at no live table (a player row is a name and a
  token's hash: without a table there is nothing to come back to; coming back, their
  client starts a new session). A table the server holds in memory and a connected
  player are never touched.
- ``keep_analyses_days`` (30): cached analyses of games older than this go (they are
  worked out again on request), as do analyses whose record is gone.

The server reclaims at start (before loading its tables) and every
``retention_interval_seconds`` (an hour), at most ``batch`` rows of a kind per step,
committing between steps, so play is never held up for long::

    policy = RetentionPolicy(keep_finished_days=90)
    counts = reclaim_step(store, policy, now=time.time(), live_tables=[...], live_players=[...])
    counts.total, counts.more      # rows deleted; whether a step found a full batch

The clock is a parameter (Unix seconds), so tests move time instead of waiting.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from server.store import Store

__all__ = ["Reclaimed", "RetentionPolicy", "julian_day", "reclaim_all", "reclaim_step"]

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


@dataclass(frozen=True)
class Reclaimed:
    """Rows deleted by one step (or a whole run), by kind."""

    closed_tables: int = 0
    waiting_tables: int = 0
    finished_games: int = 0
    analyses: int = 0
    players: int = 0
    more: bool = False  # some kind filled its batch: call again

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


def reclaim_step(
    store: Store,
    policy: RetentionPolicy,
    now: float,
    live_tables: Collection[str] = (),
    live_players: Collection[str] = (),
) -> Reclaimed:
    """Delete up to ``policy.batch`` rows of each kind that ``policy`` lets go at ``now``.

    ``live_tables``/``live_players`` are the table codes and player ids the server holds
    in memory and must keep. The writes go into the store's transaction (the caller
    commits, as for any write); raises :class:`~server.store.StoreError` if they fail.
    """
    finished = policy.cutoff(policy.keep_finished_days, now)
    unstarted = policy.cutoff(policy.reclaim_days, now)
    batch = policy.batch
    store.prepare_retention()
    counts = Reclaimed(
        closed_tables=store.reclaim_closed_tables(unstarted, batch),
        waiting_tables=store.reclaim_waiting_tables(unstarted, sorted(live_tables), batch),
        finished_games=store.reclaim_finished_games(finished, batch),
        analyses=store.reclaim_analyses(policy.cutoff(policy.keep_analyses_days, now), batch),
        players=store.reclaim_players(unstarted, sorted(live_players), batch),
    )
    more = batch in (
        counts.closed_tables,
        counts.waiting_tables,
        counts.finished_games,
        counts.analyses,
        counts.players,
    )
    return Reclaimed(
        counts.closed_tables,
        counts.waiting_tables,
        counts.finished_games,
        counts.analyses,
        counts.players,
        more,
    )


def reclaim_all(store: Store, policy: RetentionPolicy, now: float) -> Reclaimed:
    """Reclaim everything ``policy`` lets go at ``now``, committing after each step (for
    a store no server holds in memory: at start-up, or from a script)."""
    total = Reclaimed(more=True)
    while total.more:
        total = total + reclaim_step(store, policy, now)
        store.commit()
    return total
