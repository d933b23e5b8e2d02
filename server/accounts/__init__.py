"""Accounts and ratings: registered names with passwords, Glicko-2 ratings per preset,
the bots' fixed ratings, profiles and the leaderboard.

Errors: a refused request about an account is a :class:`server.errors.RequestError`
(its ``code`` the protocol's error code); the store's failures are ``StoreError``.

Parts: :mod:`~server.accounts.glicko2` (the arithmetic), :mod:`~server.accounts.anchors`
(the bots' ratings), :mod:`~server.accounts.ratings` (the read-only lookup others are
given).
"""

from __future__ import annotations

from server.accounts.anchors import BOT_ANCHORS
from server.accounts.glicko2 import DEFAULT, Rating
from server.accounts.ratings import MemoryRatings, Ratings, SeekRatings

__all__ = ["BOT_ANCHORS", "DEFAULT", "MemoryRatings", "Rating", "Ratings", "SeekRatings"]
