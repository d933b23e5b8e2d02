"""Play now: the seek pool and its pairing policy (pure: the time is a value passed in).

    policy = PairingPolicy()                        # the window: 100 + 20/s, at most 600
    policy.width(entry, now)                        # how far this seeker's window reaches
    match = policy.best_match(entry, candidates, now)   # the closest fitting seeker, or None
    level, rating = nearest_bot(DEFAULT_BOT_ANCHORS, "classic", 1620.0)

    pool = MemoryPool()                             # one node; RedisSeekPool in a cluster
    await pool.add(entry); await pool.claim(entry, match)   # both removed, or neither

A :class:`SeekEntry` is one player seeking one preset, rated or casual, since a wall-clock
time (every node of a cluster compares the same clock). Two entries fit when they seek the
same preset and kind and their ratings differ by no more than the wider of their two
windows: a seeker who has waited longer reaches further, so the one who waited sets the
pace. A guest has no rating: paired as :data:`DEFAULT_RATING`, casual only, with a window
that starts wide (``guest_base``).

Ratings come from outside (:class:`RatingSource`, injected); the bot levels' fixed
ratings are ``bot_anchors`` (preset -> level -> rating), :data:`DEFAULT_BOT_ANCHORS`
until the measured ones are wired in. The error root of play now is
:class:`SeekError`::

    ServerError
    └── SeekError        the seek pool could not be read or written (Redis)
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Protocol

from server.errors import ServerError

__all__ = [
    "BOT_OFFER_SECONDS",
    "DEFAULT_BOT_ANCHORS",
    "DEFAULT_RATING",
    "GuestRatings",
    "MemoryPool",
    "Paired",
    "PairingPolicy",
    "RatingSource",
    "SeekEntry",
    "SeekError",
    "SeekPool",
    "nearest_bot",
]

DEFAULT_RATING = 1500.0
"""The rating a guest (or a player new to a preset) is paired by."""

BOT_OFFER_SECONDS = 20.0
"""After this long alone in the pool, a seeker is offered the nearest bot level."""

DEFAULT_BOT_ANCHORS: Mapping[str, Mapping[str, float]] = {
    "classic": {"easy": 1100.0, "normal": 1500.0, "hard": 1800.0},
    "five-hundred": {"easy": 1100.0, "normal": 1500.0, "hard": 1800.0},
}
"""Placeholder bot ratings (preset -> level -> rating), one per level around the default
rating, until the accounts' measured anchors are passed as ``bot_anchors``."""


class SeekError(ServerError):
    """The seek pool could not be read or written (the message says why)."""


class RatingSource(Protocol):
    """Where a player's rating comes from (the accounts' ratings, injected)."""

    def rating_of(self, player_id: str, preset: str) -> float | None:
        """The player's rating for ``preset``; ``None`` for a guest (not signed in)."""
        ...


class GuestRatings:
    """The :class:`RatingSource` of a server without accounts: everyone is a guest."""

    def rating_of(self, player_id: str, preset: str) -> float | None:
        return None


@dataclass(frozen=True)
class SeekEntry:
    """One player seeking a game. ``since`` is wall-clock seconds; ``node`` the id of
    the node that holds the player's connection ("" on a server on its own)."""

    player_id: str
    name: str
    preset: str
    rated: bool
    rating: float
    guest: bool
    since: float
    node: str = ""

    def to_json(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> SeekEntry:
        """Raises ``ValueError`` (or ``TypeError``) for text that is not an entry."""
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("a seek entry is a JSON object")
        return cls(**data)

    @property
    def pool_key(self) -> str:
        """Which queue the entry waits in: its preset and kind."""
        return f"{self.preset}:{'rated' if self.rated else 'casual'}"


@dataclass(frozen=True)
class PairingPolicy:
    """The rating window: ``base`` points either side at once, ``per_second`` more for
    every second waited, at most ``most``; a guest's starts at ``guest_base``."""

    base: float = 100.0
    per_second: float = 20.0
    most: float = 600.0
    guest_base: float = 400.0

    def width(self, entry: SeekEntry, now: float) -> float:
        """How far from its rating ``entry`` accepts an opponent at time ``now``."""
        start = self.guest_base if entry.guest else self.base
        waited = max(0.0, now - entry.since)
        return min(self.most, max(start, self.base + self.per_second * waited))

    def fits(self, a: SeekEntry, b: SeekEntry, now: float) -> bool:
        """Whether ``a`` and ``b`` may be paired now."""
        if a.player_id == b.player_id or a.pool_key != b.pool_key:
            return False
        reach = max(self.width(a, now), self.width(b, now))
        return abs(a.rating - b.rating) <= reach

    def best_match(
        self, entry: SeekEntry, candidates: Iterable[SeekEntry], now: float
    ) -> SeekEntry | None:
        """The fitting candidate closest in rating (the longer waiting one on a tie)."""
        fitting = [c for c in candidates if self.fits(entry, c, now)]
        if not fitting:
            return None
        return min(fitting, key=lambda c: (abs(c.rating - entry.rating), c.since, c.player_id))


def nearest_bot(
    anchors: Mapping[str, Mapping[str, float]], preset: str, rating: float
) -> tuple[str, float] | None:
    """The bot level whose rating for ``preset`` is nearest ``rating``: (level, its
    rating); ``None`` when ``anchors`` has no level for the preset."""
    levels = anchors.get(preset, {})
    if not levels:
        return None
    level = min(levels, key=lambda name: (abs(levels[name] - rating), levels[name]))
    return level, levels[level]


@dataclass(frozen=True)
class Paired:
    """A pair made on another node: ``player_id`` (here) is to join ``table``."""

    player_id: str
    table: str
    opponent: str
    preset: str
    rated: bool


class SeekPool(Protocol):
    """The waiting seekers (one node's memory, or Redis shared by the cluster).

    Every method raises :class:`SeekError` when the pool cannot be reached."""

    node_id: str

    async def start(self) -> None:
        """Before the first seek (connects to Redis)."""
        ...

    async def close(self) -> None:
        """When the server stops."""
        ...

    async def add(self, entry: SeekEntry) -> None:
        """Put ``entry`` in (replacing the player's earlier seek)."""
        ...

    async def remove(self, player_id: str) -> None:
        """Take the player's seek out, if any."""
        ...

    async def candidates(self, entry: SeekEntry, reach: float) -> list[SeekEntry]:
        """The other seekers of ``entry``'s queue within ``reach`` of its rating."""
        ...

    async def queue(self, pool_key: str) -> list[SeekEntry]:
        """Every seeker of one queue (a preset and kind: :attr:`SeekEntry.pool_key`)."""
        ...

    async def claim(self, a: SeekEntry, b: SeekEntry) -> bool:
        """Take both out if both are still in (True), else change nothing (False)."""
        ...

    async def tell(self, paired: Paired, node: str) -> None:
        """Tell ``node`` that its seeker was paired (after the table can be found)."""
        ...

    def listen(self, on_paired: Callable[[Paired], None]) -> None:
        """``on_paired`` is called for each pair another node made for a seeker here."""
        ...


class MemoryPool:
    """The :class:`SeekPool` of a server on its own: every seeker is here. Each queue is
    kept sorted by rating, so the seekers within reach are a slice, not a scan."""

    node_id = ""

    def __init__(self) -> None:
        self.entries: dict[str, SeekEntry] = {}
        self._queues: dict[str, list[tuple[float, str]]] = {}  # pool key -> (rating, id)

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        self.entries.clear()
        self._queues.clear()

    async def add(self, entry: SeekEntry) -> None:
        self._take_out(entry.player_id)
        self.entries[entry.player_id] = entry
        bisect.insort(self._queues.setdefault(entry.pool_key, []), (entry.rating, entry.player_id))

    async def remove(self, player_id: str) -> None:
        self._take_out(player_id)

    def _take_out(self, player_id: str) -> None:
        old = self.entries.pop(player_id, None)
        if old is not None:
            queue = self._queues[old.pool_key]
            del queue[bisect.bisect_left(queue, (old.rating, player_id))]

    async def candidates(self, entry: SeekEntry, reach: float) -> list[SeekEntry]:
        queue = self._queues.get(entry.pool_key, [])
        low = bisect.bisect_left(queue, (entry.rating - reach, ""))
        out: list[SeekEntry] = []
        for rating, player_id in queue[low:]:
            if rating > entry.rating + reach:
                break
            if player_id != entry.player_id:
                out.append(self.entries[player_id])
        return out

    async def queue(self, pool_key: str) -> list[SeekEntry]:
        return [self.entries[player_id] for _, player_id in self._queues.get(pool_key, [])]

    async def claim(self, a: SeekEntry, b: SeekEntry) -> bool:
        if self.entries.get(a.player_id) != a or self.entries.get(b.player_id) != b:
            return False
        self._take_out(a.player_id)
        self._take_out(b.player_id)
        return True

    async def tell(self, paired: Paired, node: str) -> None:
        return None  # every seeker is on this node: nobody else to tell

    def listen(self, on_paired: Callable[[Paired], None]) -> None:
        return None
