"""Profiles and leaderboards as protocol messages, from the store's rows.

    profile_message(store, account, request_id, now)        # m.Profile: ratings, games
    leaderboard_message(store, "classic", request_id, now)  # m.Leaderboard: top 100
    rating_lines(store, player_id, now=now)                 # m.RatingLine per preset

Every rating is shown as it stands at ``now`` (wall-clock seconds, given by the caller):
its deviation grown over the time since its last rated game, so an account away long
enough is provisional again and leaves the leaderboard until it plays.
Raises ``StoreError`` when the store cannot answer.
"""

from __future__ import annotations

from protocol import messages as m
from server.accounts.anchors import PRESETS
from server.accounts.glicko2 import PROVISIONAL_DEVIATION, Rating
from server.accounts.rating import stored_rating
from server.store import Storage
from server.store.accounts_rows import AccountRow, GameRow, RatingRow

__all__ = ["leaderboard_message", "profile_message", "rating_lines"]

PROFILE_GAMES = 50
BOARD_SIZE = 100


def _points(value: float) -> int:
    return max(0, min(10_000, round(value)))


def _line(preset: str, row: RatingRow | None, history: tuple[int, ...], now: float) -> m.RatingLine:
    rating = stored_rating(row, now)
    return m.RatingLine(
        preset=preset,  # type: ignore[arg-type]  # one of PRESETS
        rating=_points(rating.rating),
        deviation=_points(rating.deviation),
        provisional=rating.provisional,
        games=0 if row is None else row.games,
        wins=0 if row is None else row.wins,
        losses=0 if row is None else row.losses,
        history=history,
    )


def rating_lines(
    store: Storage, player_id: str, games: list[GameRow] | None = None, *, now: float
) -> tuple[m.RatingLine, ...]:
    """The account's rating in each preset as of ``now``; with ``games`` (newest first)
    its history."""
    rows = {row.preset: row for row in store.accounts.ratings_of(player_id)}
    lines = []
    for preset in PRESETS:
        history: list[int] = []
        for game in reversed(games or []):
            if not game.rated or game.preset != preset:
                continue
            after = game.after0 if game.player0 == player_id else game.after1
            if after is not None:
                history.append(_points(after))
        lines.append(_line(preset, rows.get(preset), tuple(history[-PROFILE_GAMES:]), now))
    return tuple(lines)


def _game(player_id: str, game: GameRow) -> m.ProfileGame:
    seat = 0 if game.player0 == player_id else 1
    after = game.after0 if seat == 0 else game.after1
    return m.ProfileGame(
        record_id=game.record_id,
        preset=game.preset,
        rated=game.rated,
        outcome=game.outcome,  # type: ignore[arg-type]  # the rater writes only these
        seat=seat,
        opponent=(game.name1 if seat == 0 else game.name0)[:40],
        won=None if game.winner is None or game.outcome == "aborted" else game.winner == seat,
        scores=(game.score0, game.score1),
        rating_after=None if after is None else _points(after),
        ended=max(0.0, game.ended),
    )


def profile_message(
    store: Storage, account: AccountRow, request_id: int | None, now: float
) -> m.Profile:
    games = store.accounts.games_of(account.player_id, PROFILE_GAMES)
    shown = [_game(account.player_id, game) for game in games]
    return m.Profile(
        name=account.name,
        ratings=rating_lines(store, account.player_id, games, now=now),
        wins=sum(1 for game in shown if game.won is True),
        losses=sum(1 for game in shown if game.won is False),
        games=tuple(shown),
        id=request_id,
    )


def leaderboard_message(
    store: Storage, preset: str, request_id: int | None, now: float
) -> m.Leaderboard:
    established = _established(store, preset, now)
    entries = tuple(
        m.BoardEntry(
            rank=rank,
            name=name,
            rating=_points(rating.rating),
            deviation=_points(rating.deviation),
            games=row.games,
        )
        for rank, (name, row, rating) in enumerate(established, start=1)
    )
    return m.Leaderboard(preset=preset, entries=entries, id=request_id)  # type: ignore[arg-type]


def _established(store: Storage, preset: str, now: float) -> list[tuple[str, RatingRow, Rating]]:
    """The best :data:`BOARD_SIZE` ratings not provisional at ``now``. The store filters by
    the stored deviation, which time away only widens: rows are read in growing pages
    until enough of them are still established now (or none are left)."""
    limit = BOARD_SIZE
    while True:
        rows = store.accounts.leaderboard(preset, PROVISIONAL_DEVIATION, limit)
        kept = []
        for _, name, row in rows:
            rating = stored_rating(row, now)
            if not rating.provisional:
                kept.append((name, row, rating))
        if len(kept) >= BOARD_SIZE or len(rows) < limit:
            return kept[:BOARD_SIZE]
        limit *= 2
