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
committing between steps, so play is never held up for long. Both stores carry it out
(SQLite, and PostgreSQL under an advisory lock so that one node at a time reclaims)::

    policy = RetentionPolicy(keep_finished_days=90)
    counts = reclaim_step(store, policy, now=time.time(), live_tables=[...], live_players=[...])
    counts.total, counts.more      # rows deleted; whether a step found a full batch

The clock is a parameter (Unix seconds), so tests move time instead of waiting.
"""

from __future__ import annotations

from collections.abc import Collection

from server.store.base import Storage
from server.store.policy import Reclaimed, RetentionPolicy, julian_day

__all__ = ["Reclaimed", "RetentionPolicy", "julian_day", "reclaim_all", "reclaim_step"]


def reclaim_step(
    store: Storage,
    policy: RetentionPolicy,
    now: float,
    live_tables: Collection[str] = (),
    live_players: Collection[str] = (),
) -> Reclaimed:
    """Delete up to ``policy.batch`` rows of each kind that ``policy`` lets go at ``now``.

    ``live_tables``/``live_players`` are the table codes and player ids the server holds
    in memory and must keep. The writes go into the store's transaction (the caller
    commits, as for any write); raises :class:`~server.store.base.StoreError` if they fail.
    """
    return store.reclaim_step(policy, now, live_tables, live_players)


def reclaim_all(store: Storage, policy: RetentionPolicy, now: float) -> Reclaimed:
    """Reclaim everything ``policy`` lets go at ``now``, committing after each step (for
    a store no server holds in memory: at start-up, or from a script)."""
    total = Reclaimed(more=True)
    while total.more:
        total = total + reclaim_step(store, policy, now)
        store.commit()
    return total
