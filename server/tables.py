"""A table: two seats, its spectators, its settings and its game, plus their stored form."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from engine import GameState, RuleSet
from protocol import convert
from protocol import messages as m

if TYPE_CHECKING:
    from server.connection import Conn

__all__ = ["CODE_ALPHABET", "Player", "Seat", "Table", "server_time"]


# the event loop's clock is time.monotonic(); clients get times on the wall clock, with
# one fixed offset taken at start-up so that a deadline never moves between messages
def _wall_minus_monotonic() -> float:
    # the narrowest of a few brackets: a busy machine may pause us between two clock reads
    best_gap, best_offset = float("inf"), 0.0
    for _ in range(8):
        before = time.monotonic()
        wall = time.time()
        after = time.monotonic()
        if after - before < best_gap:
            best_gap, best_offset = after - before, wall - (before + after) / 2
    return best_offset


_WALL_MINUS_MONOTONIC = _wall_minus_monotonic()


def server_time(loop_time: float) -> float:
    """``loop_time`` (the event loop's clock) as Unix seconds of the server's clock, to the
    millisecond: what ``welcome.server_time`` and ``SeatInfo.hold_deadline`` hold."""
    return round(loop_time + _WALL_MINUS_MONOTONIC, 3)


CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""Table codes: 8 characters of this unambiguous alphabet (no 0/O, 1/I/L), ~40 bits."""

Status = Literal["waiting", "playing", "finished", "closed"]
Expiry = Literal["bot", "wait", "forfeit"]
Level = Literal["easy", "normal", "hard"]


@dataclass
class Player:
    """A person with a session token; ``conn`` is their live connection, if any.

    ``unstored_token_hash`` is set while the player has never sat down: such a player is
    kept only in memory (and forgotten when they leave), so a flood of hellos writes
    nothing; the store gets them when they first take a seat.
    """

    id: str
    name: str
    conn: Conn | None = None
    unstored_token_hash: str | None = None


@dataclass
class Seat:
    """One seat: empty, a human (by player id) or the bot at a level."""

    kind: Literal["empty", "human", "bot"] = "empty"
    player_id: str | None = None
    name: str | None = None
    bot_level: Level | None = None
    hold_deadline: float | None = None
    bot_standing_in: bool = False
    rematch: bool = False
    seqs: dict[int, int] = field(default_factory=dict)

    def to_data(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "player_id": self.player_id,
            "name": self.name,
            "bot_level": self.bot_level,
            "rematch": self.rematch,
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Seat:
        return cls(
            kind=data["kind"],
            player_id=data["player_id"],
            name=data["name"],
            bot_level=data["bot_level"],
            rematch=bool(data.get("rematch", False)),
        )


@dataclass
class Table:
    code: str
    private: bool
    preset: str | None
    rules: RuleSet
    on_hold_expiry: Expiry
    hold_seconds: int
    turn_seconds: int | None
    seats: list[Seat] = field(default_factory=lambda: [Seat(), Seat()])
    status: Status = "waiting"
    game_no: int = 1
    record_id: str | None = None
    state: GameState = field(init=False)
    spectators: set[Conn] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None
    bot_seat: int | None = None  # the seat ``bot_task`` moves for
    address: str | None = None  # the network address that created it (not stored)
    humans_gone_at: float | None = None  # since when no human here is connected
    paused: bool = False  # bots stopped moving for absent humans (see TableRoom._nobody_there)
    turn_task: asyncio.Task[None] | None = None
    turn_deadline: float | None = None
    hold_tasks: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    # the seats' entropy for the committed hand (protocol 1.1), and the task that shuffles
    # without the missing values when they are late
    entropy: list[bytes | None] = field(default_factory=lambda: [None, None])
    entropy_task: asyncio.Task[None] | None = None

    def __post_init__(self) -> None:
        self.state = GameState(self.rules)

    # ---- stored form -----------------------------------------------------------------

    def to_data(self) -> dict[str, Any]:
        return {
            "private": self.private,
            "preset": self.preset,
            "rules": self.rules.to_dict(),
            "on_hold_expiry": self.on_hold_expiry,
            "hold_seconds": self.hold_seconds,
            "turn_seconds": self.turn_seconds,
            "seats": [seat.to_data() for seat in self.seats],
            "record_id": self.record_id,
        }

    @classmethod
    def from_data(cls, code: str, data: dict[str, Any], status: Status, game_no: int) -> Table:
        """The table stored as ``data``; raises ``KeyError``/``ValueError``/``TypeError`` or
        an ``EngineError`` when the data is damaged."""
        if status not in ("waiting", "playing", "finished", "closed"):
            raise ValueError(f"unknown table status {status!r}")
        if len(data["seats"]) != 2:
            raise ValueError("a table has two seats")
        table = cls(
            code=code,
            private=bool(data["private"]),
            preset=data["preset"],
            rules=RuleSet.from_dict(data["rules"]),
            on_hold_expiry=data["on_hold_expiry"],
            hold_seconds=int(data["hold_seconds"]),
            turn_seconds=data["turn_seconds"],
            seats=[Seat.from_data(seat) for seat in data["seats"]],
            status=status,
            game_no=game_no,
            record_id=data.get("record_id"),
        )
        return table

    # ---- reading ---------------------------------------------------------------------

    def seat_of(self, player_id: str) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.kind == "human" and seat.player_id == player_id:
                return index
        return None

    def empty_seats(self) -> list[int]:
        return [index for index, seat in enumerate(self.seats) if seat.kind == "empty"]

    def humans_connected(self, players: dict[str, Player]) -> bool:
        """Whether a human seated here has a live connection."""
        for seat in self.seats:
            if seat.kind == "human":
                player = players.get(seat.player_id or "")
                if player is not None and player.conn is not None:
                    return True
        return False

    def has_humans(self) -> bool:
        return any(seat.kind == "human" for seat in self.seats)

    def public_status(self) -> Literal["waiting", "playing", "finished"]:
        return "waiting" if self.status == "closed" else self.status

    def seat_info(self, index: int, players: dict[str, Player], now: float) -> m.SeatInfo:
        seat = self.seats[index]
        if seat.kind == "empty":
            return m.SeatInfo(kind="empty")
        if seat.kind == "bot":
            return m.SeatInfo(kind="bot", name=seat.name, connected=True, bot_level=seat.bot_level)
        player = players.get(seat.player_id or "")
        connected = player is not None and player.conn is not None
        left = deadline = None
        if not connected and seat.hold_deadline is not None:
            left = round(max(0.0, seat.hold_deadline - now), 1)
            deadline = server_time(seat.hold_deadline)
        return m.SeatInfo(
            kind="human",
            name=seat.name,
            connected=connected,
            hold_seconds_left=left,
            hold_deadline=deadline,
            bot_standing_in=seat.bot_standing_in,
        )

    def info(self, your_seat: int | None, players: dict[str, Player], now: float) -> m.TableInfo:
        return m.TableInfo(
            code=self.code,
            private=self.private,
            preset=self.preset,
            rules=convert.rules_message(self.rules),
            seats=(self.seat_info(0, players, now), self.seat_info(1, players, now)),
            status=self.public_status(),
            your_seat=your_seat,
            on_hold_expiry=self.on_hold_expiry,
            hold_seconds=self.hold_seconds,
            turn_seconds=self.turn_seconds,
            rematch=(self.seats[0].rematch, self.seats[1].rematch),
            record_id=self.record_id,
        )

    def summary(self, players: dict[str, Player], now: float) -> m.TableSummary:
        return m.TableSummary(
            code=self.code,
            preset=self.preset,
            rules=convert.rules_message(self.rules),
            seats=(self.seat_info(0, players, now), self.seat_info(1, players, now)),
            status=self.public_status(),
            spectators=len(self.spectators),
        )

    def snapshot(
        self, your_seat: int | None, players: dict[str, Player], now: float, req_id: int | None
    ) -> m.Snapshot:
        view = self.state.view_for(your_seat)
        your_turn = None
        if self.status == "playing" and your_seat is not None and view.my_turn:
            left = (
                None if self.turn_deadline is None else round(max(0.0, self.turn_deadline - now), 1)
            )
            your_turn = convert.your_turn_message(view, self.code, left)
        return m.Snapshot(
            table=self.info(your_seat, players, now),
            view=convert.view_message(view, self.code),
            your_turn=your_turn,
            id=req_id,
        )
