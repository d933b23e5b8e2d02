"""A game's end, rated: both accounts' Glicko-2 updates and the game's row, in one write.

    rater = Rater(store, last_address)          # last_address: account id -> address
    rater.ended(GameEnd(...))                   # in the turn that stores the game's end
    StoredRatings(store, time.time).rating_of(player_id, "classic")   # as of now

:meth:`Rater.ended` writes into the store's open transaction, the one that also holds the
game's record and its table's ``finished`` status: a kill -9 before the commit stores
neither (the game is replayed to the move before its end, which ends it again), after it
both, so a game is rated exactly once. A game is rated when the host asked for it, both
seats are accounts or one is the bot (whose anchor never moves), the rules are a preset's
own, it was not aborted, the two accounts did not come from one address, and they have
not played :data:`DAILY_CAP` rated games in the last day. Otherwise an account's game is
kept unrated (its profile shows it). A forfeit is a loss for the seat that gave up. Each
account is updated from its rating as of the game's end (its deviation grown over the
time since its last rated game: :func:`~server.accounts.glicko2.as_of`).
Raises ``StoreError`` (the turn is refused and restored as a whole).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from server.accounts.anchors import BOT_ANCHORS
from server.accounts.glicko2 import DEFAULT, Rating, Result, as_of, update
from server.store import Storage
from server.store.accounts_rows import GameRow, RatingRow

__all__ = ["DAILY_CAP", "GameEnd", "Rater", "Side", "StoredRatings", "stored_rating"]

log = logging.getLogger("server")

DAILY_CAP = 10
"""Rated games between the same two accounts within 24 hours; more are casual."""
DAY = 86_400.0


@dataclass(frozen=True)
class Side:
    """A seat at the end: a human (``player_id``) or the bot (``bot_level``)."""

    name: str
    player_id: str | None = None
    bot_level: str | None = None


@dataclass(frozen=True)
class GameEnd:
    """What the rater needs of a finished game. ``outcome``: ``score``, ``forfeit`` or
    ``aborted`` (a forfeit in the first hand before a seat acted)."""

    record_id: str
    code: str
    preset: str | None
    rated: bool
    outcome: str
    winner: int | None
    sides: tuple[Side, Side]
    scores: tuple[int, int]
    ended: float


class StoredRatings:
    """The :class:`~server.accounts.ratings.Ratings` lookup over the store, each rating as
    of ``wall_clock()`` (the deviation grown over the time since its last rated game)."""

    def __init__(self, store: Storage, wall_clock: Callable[[], float]) -> None:
        self.store = store
        self.wall_clock = wall_clock

    def rating_of(self, player_id: str, preset: str) -> Rating | None:
        rows = self.store.accounts
        if rows.account(player_id) is None:
            return None
        return stored_rating(rows.rating(player_id, preset), self.wall_clock())


def stored_rating(row: RatingRow | None, now: float) -> Rating:
    """A stored rating row as it stands at ``now`` (wall-clock seconds); DEFAULT for none."""
    if row is None:
        return DEFAULT
    return as_of(Rating(row.rating, row.deviation, row.volatility), row.updated, now)


class Rater:
    """Rates games as they end (see the module)."""

    def __init__(
        self, store: Storage, last_address: Mapping[str, str], daily_cap: int = DAILY_CAP
    ) -> None:
        self.store = store
        self.last_address = last_address
        self.daily_cap = daily_cap

    def ended(self, end: GameEnd) -> GameRow | None:
        """Store the game's row (and the ratings' updates when rated); None when neither
        seat is an account (nothing to keep)."""
        rows = self.store.accounts
        accounts = [
            side.player_id is not None and rows.account(side.player_id) is not None
            for side in end.sides
        ]
        if not any(accounts):
            return None
        rated = self._is_rated(end, accounts)
        before: list[Rating | None] = [None, None]
        after: list[Rating | None] = [None, None]
        if rated:
            assert end.preset is not None and end.winner is not None
            current = [self._current(side, end.preset, end.ended) for side in end.sides]
            for index, side in enumerate(end.sides):
                if side.player_id is None or not accounts[index]:
                    continue
                score = 1.0 if end.winner == index else 0.0
                before[index] = current[index]
                new = after[index] = update(current[index], [Result(current[1 - index], score)])
                self._store_rating(side.player_id, end, new, score == 1.0)
        game = GameRow(
            record_id=end.record_id,
            code=end.code,
            preset=end.preset,
            rated=rated,
            outcome=end.outcome,
            winner=end.winner,
            player0=end.sides[0].player_id if accounts[0] else None,
            player1=end.sides[1].player_id if accounts[1] else None,
            name0=end.sides[0].name,
            name1=end.sides[1].name,
            score0=end.scores[0],
            score1=end.scores[1],
            before0=_points(before[0]),
            after0=_points(after[0]),
            before1=_points(before[1]),
            after1=_points(after[1]),
            ended=end.ended,
        )
        rows.add_game(game)
        return game

    def _is_rated(self, end: GameEnd, accounts: list[bool]) -> bool:
        if not end.rated or end.outcome == "aborted" or end.winner is None:
            return False
        preset = end.preset
        if preset is None or preset not in BOT_ANCHORS:
            return False  # other rules than a preset's own: casual
        for index, side in enumerate(end.sides):
            if side.bot_level is None and not accounts[index]:
                return False  # a guest
            if side.bot_level is not None and side.bot_level not in BOT_ANCHORS[preset]:
                return False
        first, second = (side.player_id for side in end.sides)
        if first is None or second is None:
            return True  # against the bot
        address = self.last_address.get(first)
        if address is not None and address == self.last_address.get(second):
            return False
        since = end.ended - DAY
        return self.store.accounts.rated_between_since(first, second, since) < self.daily_cap

    def _current(self, side: Side, preset: str, now: float) -> Rating:
        if side.bot_level is not None:
            return BOT_ANCHORS[preset][side.bot_level]
        assert side.player_id is not None
        return stored_rating(self.store.accounts.rating(side.player_id, preset), now)

    def _store_rating(self, player_id: str, end: GameEnd, rating: Rating, won: bool) -> None:
        assert end.preset is not None
        rows = self.store.accounts
        old = rows.rating(player_id, end.preset)
        games, wins, losses = (0, 0, 0) if old is None else (old.games, old.wins, old.losses)
        rows.put_rating(
            RatingRow(
                player_id=player_id,
                preset=end.preset,
                rating=rating.rating,
                deviation=rating.deviation,
                volatility=rating.volatility,
                games=games + 1,
                wins=wins + (1 if won else 0),
                losses=losses + (0 if won else 1),
                updated=end.ended,
            )
        )


def _points(rating: Rating | None) -> float | None:
    return None if rating is None else rating.rating
