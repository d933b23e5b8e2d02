"""The accounts' rows in either store: one class, the SQL both databases accept.

    rows = AccountRows(read, write, "?")          # the store's read/write, its placeholder
    rows.add_account(player_id, "alice", "aiice", argon2_hash, now)
    rows.account_by_skeleton("aiice")             # -> AccountRow | None
    rows.put_rating(RatingRow(...)); rows.add_game(GameRow(...))

Writes join the store's open transaction (the game's end and its rating update commit
together, or neither); reads see that transaction's own writes. Every call may raise
:class:`~server.store.base.StoreError` (or the driver's error, which the store's own
methods turn into one). The schema: :mod:`server.store.accounts_schema`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["DELETED_NAME", "AccountRow", "AccountRows", "GameRow", "RatingRow"]

Read = Callable[[str, tuple[Any, ...]], list[tuple[Any, ...]]]
Write = Callable[[str, tuple[Any, ...]], None]

DELETED_NAME = "(deleted)"
"""The name a deleted account's games show."""


@dataclass(frozen=True)
class AccountRow:
    player_id: str
    name: str
    password_hash: str
    created: float


@dataclass(frozen=True)
class RatingRow:
    player_id: str
    preset: str
    rating: float
    deviation: float
    volatility: float
    games: int
    wins: int
    losses: int
    updated: float


@dataclass(frozen=True)
class GameRow:
    """One game of an account. ``outcome``: ``score``, ``forfeit`` or ``aborted``;
    ``player0``/``player1`` None for a guest, a bot or a deleted account."""

    record_id: str
    code: str
    preset: str | None
    rated: bool
    outcome: str
    winner: int | None
    player0: str | None
    player1: str | None
    name0: str
    name1: str
    score0: int
    score1: int
    before0: float | None
    after0: float | None
    before1: float | None
    after1: float | None
    ended: float


_ACCOUNT = "player_id, name, password_hash, created"
_RATING = "player_id, preset, rating, deviation, volatility, games, wins, losses, updated"
_GAME = (
    "record_id, code, preset, rated, outcome, winner, player0, player1, name0, name1, "
    "score0, score1, before0, after0, before1, after1, ended"
)


class AccountRows:
    """The accounts' queries over a store's ``read``/``write`` (see the module)."""

    def __init__(self, read: Read, write: Write, mark: str) -> None:
        self._read = read
        self._write = write
        self._mark = mark

    def _sql(self, sql: str) -> str:
        return sql if self._mark == "?" else sql.replace("?", self._mark)

    def _rows(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        return self._read(self._sql(sql), params)

    def _put(self, sql: str, params: tuple[Any, ...]) -> None:
        self._write(self._sql(sql), params)

    # ---- accounts and sessions ---------------------------------------------------------

    def account(self, player_id: str) -> AccountRow | None:
        rows = self._rows(f"SELECT {_ACCOUNT} FROM accounts WHERE player_id = ?", (player_id,))
        return AccountRow(*rows[0]) if rows else None

    def account_by_skeleton(self, skeleton: str) -> AccountRow | None:
        rows = self._rows(f"SELECT {_ACCOUNT} FROM accounts WHERE skeleton = ?", (skeleton,))
        return AccountRow(*rows[0]) if rows else None

    def add_account(
        self, player_id: str, name: str, skeleton: str, password_hash: str, now: float
    ) -> None:
        self._put(
            "INSERT INTO accounts (player_id, name, skeleton, password_hash, created) "
            "VALUES (?, ?, ?, ?, ?)",
            (player_id, name, skeleton, password_hash, now),
        )

    def set_password(self, player_id: str, password_hash: str) -> None:
        self._put(
            "UPDATE accounts SET password_hash = ? WHERE player_id = ?",
            (password_hash, player_id),
        )

    def add_session(self, token_hash: str, player_id: str, now: float) -> None:
        self._put(
            "INSERT INTO account_sessions (token_hash, player_id, created) VALUES (?, ?, ?)",
            (token_hash, player_id, now),
        )

    def account_by_session(self, token_hash: str) -> AccountRow | None:
        rows = self._rows(
            f"SELECT {', '.join('a.' + c for c in _ACCOUNT.split(', '))} FROM account_sessions s "
            "JOIN accounts a ON a.player_id = s.player_id WHERE s.token_hash = ?",
            (token_hash,),
        )
        return AccountRow(*rows[0]) if rows else None

    def end_sessions(self, player_id: str, guest_token_hash: str) -> None:
        """Every session of the account ends, its first (guest) token too: that one's hash
        becomes ``guest_token_hash``, of a token nobody holds."""
        self._put("DELETE FROM account_sessions WHERE player_id = ?", (player_id,))
        self._put("UPDATE players SET token_hash = ? WHERE id = ?", (guest_token_hash, player_id))

    def delete_account(self, player_id: str, guest_token_hash: str) -> None:
        """The account, its sessions and ratings go; its games stay, anonymised."""
        self.end_sessions(player_id, guest_token_hash)
        self._put("DELETE FROM ratings WHERE player_id = ?", (player_id,))
        self._put("DELETE FROM accounts WHERE player_id = ?", (player_id,))
        for side in (0, 1):
            self._put(
                f"UPDATE rated_games SET player{side} = NULL, name{side} = ? "
                f"WHERE player{side} = ?",
                (DELETED_NAME, player_id),
            )
        self._put("UPDATE players SET name = ? WHERE id = ?", (DELETED_NAME, player_id))

    def account_count(self) -> int:
        return int(self._rows("SELECT count(*) FROM accounts", ())[0][0])

    # ---- ratings and games -------------------------------------------------------------

    def rating(self, player_id: str, preset: str) -> RatingRow | None:
        rows = self._rows(
            f"SELECT {_RATING} FROM ratings WHERE player_id = ? AND preset = ?",
            (player_id, preset),
        )
        return RatingRow(*rows[0]) if rows else None

    def ratings_of(self, player_id: str) -> list[RatingRow]:
        rows = self._rows(
            f"SELECT {_RATING} FROM ratings WHERE player_id = ? ORDER BY preset", (player_id,)
        )
        return [RatingRow(*row) for row in rows]

    def put_rating(self, row: RatingRow) -> None:
        self._put(
            "DELETE FROM ratings WHERE player_id = ? AND preset = ?", (row.player_id, row.preset)
        )
        self._put(
            f"INSERT INTO ratings ({_RATING}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                row.player_id,
                row.preset,
                row.rating,
                row.deviation,
                row.volatility,
                row.games,
                row.wins,
                row.losses,
                row.updated,
            ),
        )

    def add_game(self, row: GameRow) -> None:
        self._put(
            f"INSERT INTO rated_games ({_GAME}) VALUES "
            "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                row.record_id,
                row.code,
                row.preset,
                1 if row.rated else 0,
                row.outcome,
                row.winner,
                row.player0,
                row.player1,
                row.name0,
                row.name1,
                row.score0,
                row.score1,
                row.before0,
                row.after0,
                row.before1,
                row.after1,
                row.ended,
            ),
        )

    def games_of(self, player_id: str, limit: int = 50) -> list[GameRow]:
        """The account's last ``limit`` games, newest first."""
        rows = self._rows(
            f"SELECT {_GAME} FROM rated_games WHERE player0 = ? OR player1 = ? "
            "ORDER BY ended DESC, record_id LIMIT ?",
            (player_id, player_id, limit),
        )
        return [_game(row) for row in rows]

    def rated_between_since(self, first: str, second: str, since: float) -> int:
        """Rated games between two accounts that ended at ``since`` or later."""
        rows = self._rows(
            "SELECT count(*) FROM rated_games WHERE rated = 1 AND ended >= ? AND "
            "((player0 = ? AND player1 = ?) OR (player0 = ? AND player1 = ?))",
            (since, first, second, second, first),
        )
        return int(rows[0][0])

    def leaderboard(
        self, preset: str, max_deviation: float, limit: int = 100
    ) -> list[tuple[str, str, RatingRow]]:
        """(player id, name, rating) of the best ``limit`` established ratings in ``preset``."""
        rows = self._rows(
            f"SELECT a.name, {', '.join('r.' + c for c in _RATING.split(', '))} "
            "FROM ratings r JOIN accounts a ON a.player_id = r.player_id "
            "WHERE r.preset = ? AND r.deviation <= ? "
            "ORDER BY r.rating DESC, r.player_id LIMIT ?",
            (preset, max_deviation, limit),
        )
        return [(row[1], row[0], RatingRow(*row[1:])) for row in rows]


def _game(row: tuple[Any, ...]) -> GameRow:
    values = list(row)
    values[3] = bool(values[3])
    return GameRow(*values)
