"""The read-only ratings lookup other parts are given (the seek pool, the lobby).

    ratings: Ratings = ...                      # injected; server.app builds the stored one
    ratings.rating_of(player_id, "classic")     # -> Rating, or None for a guest
    BOT_ANCHORS["classic"]["hard"]              # -> the bot level's fixed Rating

An account without a game in a preset has :data:`~server.accounts.glicko2.DEFAULT`
there (1500, deviation 350: provisional). :class:`MemoryRatings` is a dict-backed lookup
for tests and for callers without a store.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from server.accounts.anchors import BOT_ANCHORS
from server.accounts.glicko2 import DEFAULT, Rating

__all__ = ["BOT_ANCHORS", "MemoryRatings", "Rating", "Ratings", "SeekRatings"]


class Ratings(Protocol):
    def rating_of(self, player_id: str, preset: str) -> Rating | None:
        """The account's current rating in ``preset``; None when ``player_id`` is a guest
        (no account). May raise ``StoreError`` when it reads the store."""
        ...


class MemoryRatings:
    """Ratings kept in a dict: ``set`` an account's rating, or ``add`` an account at the start."""

    def __init__(self) -> None:
        self._accounts: set[str] = set()
        self._ratings: dict[tuple[str, str], Rating] = {}

    def add(self, player_id: str) -> None:
        self._accounts.add(player_id)

    def set(self, player_id: str, preset: str, rating: Rating) -> None:
        self._accounts.add(player_id)
        self._ratings[(player_id, preset)] = rating

    def rating_of(self, player_id: str, preset: str) -> Rating | None:
        if player_id not in self._accounts:
            return None
        return self._ratings.get((player_id, preset), DEFAULT)


class SeekRatings:
    """The accounts' ratings as play now reads them: a number, or None for a guest.

    ``SeekDesk(lobby, pool, SeekRatings(ratings), bot_anchors=SeekRatings.anchors())``.
    Raises what ``ratings.rating_of`` raises (``StoreError``)."""

    def __init__(self, ratings: Ratings) -> None:
        self._ratings = ratings

    def rating_of(self, player_id: str, preset: str) -> float | None:
        rating = self._ratings.rating_of(player_id, preset)
        return None if rating is None else rating.rating

    @staticmethod
    def anchors() -> Mapping[str, Mapping[str, float]]:
        """The bots' fixed ratings (preset -> level -> rating), as play now offers them."""
        return {
            preset: {level: anchor.rating for level, anchor in levels.items()}
            for preset, levels in BOT_ANCHORS.items()
        }
