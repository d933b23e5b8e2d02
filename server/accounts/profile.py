"""Profiles and leaderboards as protocol messages, from the store's rows.

    profile_message(store, account, request_id)       # m.Profile: ratings, history, games
    leaderboard_message(store, "classic", request_id) # m.Leaderboard: top 100, established
    rating_lines(store, player_id)                    # m.RatingLine per preset

Raises ``StoreError`` when the store cannot answer.
"""

from __future__ import annotations

from protocol import messages as m
from server.accounts.anchors import PRESETS
from server.accounts.glicko2 import DEFAULT, PROVISIONAL_DEVIATION, Rating
from server.store import Storage
from server.store.accounts_rows import AccountRow, GameRow, RatingRow

__all__ = ["leaderboard_message", "profile_message", "rating_lines"]

PROFILE_GAMES = 50
BOARD_SIZE = 100


def _points(value: float) -> int:
    return max(0, min(10_000, round(value)))


def _line(preset: str, row: RatingRow | None, history: tuple[int, ...]) -> m.RatingLine:
    rating = DEFAULT if row is None else Rating(row.rating, row.deviation, row.volatility)
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
    store: Storage, player_id: str, games: list[GameRow] | None = None
) -> tuple[m.RatingLine, ...]:
    """The account's rating in each preset; with ``games`` (newest first) its history."""
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
        lines.append(_line(preset, rows.get(preset), tuple(history[-PROFILE_GAMES:])))
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


def profile_message(store: Storage, account: AccountRow, request_id: int | None) -> m.Profile:
    games = store.accounts.games_of(account.player_id, PROFILE_GAMES)
    shown = [_game(account.player_id, game) for game in games]
    return m.Profile(
        name=account.name,
        ratings=rating_lines(store, account.player_id, games),
        wins=sum(1 for game in shown if game.won is True),
        losses=sum(1 for game in shown if game.won is False),
        games=tuple(shown),
        id=request_id,
    )


def leaderboard_message(store: Storage, preset: str, request_id: int | None) -> m.Leaderboard:
    rows = store.accounts.leaderboard(preset, PROVISIONAL_DEVIATION, BOARD_SIZE)
    entries = tuple(
        m.BoardEntry(
            rank=rank,
            name=name,
            rating=_points(row.rating),
            deviation=_points(row.deviation),
            games=row.games,
        )
        for rank, (_, name, row) in enumerate(rows, start=1)
    )
    return m.Leaderboard(preset=preset, entries=entries, id=request_id)  # type: ignore[arg-type]
