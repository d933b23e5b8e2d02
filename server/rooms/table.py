"""What is stored of a table: its settings, two seats, status and game number.

    table = Table(code="K7QX2M9A", private=False, preset="classic", rules=rules,
                  on_hold_expiry="bot", hold_seconds=120, turn_seconds=None)
    store.save_table(table.code, table.to_data(), table.status, table.game_no)
    again = Table.from_data(row.code, row.data, row.status, row.game_no)

Plain data, no live parts: a live table is a :class:`server.rooms.room.Room`, which owns
one of these together with its game, spectators and timers.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Literal

from engine import RuleSet

__all__ = [
    "CODE_ALPHABET",
    "Expiry",
    "Level",
    "Seat",
    "Status",
    "Table",
    "server_time",
]


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
class Seat:
    """One seat: empty, a human (by player id) or the bot at a level.

    ``hold_deadline``, ``bot_standing_in`` and ``seqs`` are live (not stored): the end of
    a dropped human's hold, whether a stand-in plays for them, and the request ``seq`` of
    each action they made in this game (its state version), for ``ack`` on a repeat.
    """

    kind: Literal["empty", "human", "bot"] = "empty"
    player_id: str | None = None
    name: str | None = None
    bot_level: Level | None = None
    hold_deadline: float | None = None
    bot_standing_in: bool = False
    rematch: bool = False
    seqs: dict[int, int] = field(default_factory=dict)
    withheld_reveals: int = 0  # 1.3: reveals withheld in this game (live, not stored)

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
    """A table's stored fields (see the module)."""

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
    rated: bool = False  # the host asked for a rated game (server/accounts/rating.py)
    # the share (server.limits.address_share: an IPv4 address, an IPv6 /64) that created
    # it, so that per-address caps count it after a restart too; nothing finer is kept,
    # and it goes with the table's row
    address: str | None = None

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
            "rated": self.rated,
            "address": self.address,
        }

    @classmethod
    def from_data(cls, code: str, data: dict[str, Any], status: str, game_no: int) -> Table:
        """The table stored as ``data``; raises ``KeyError``/``ValueError``/``TypeError`` or
        an ``EngineError`` when the data is damaged."""
        if status not in ("waiting", "playing", "finished", "closed"):
            raise ValueError(f"unknown table status {status!r}")
        if len(data["seats"]) != 2:
            raise ValueError("a table has two seats")
        return cls(
            code=code,
            private=bool(data["private"]),
            preset=data["preset"],
            rules=RuleSet.from_dict(data["rules"]),
            on_hold_expiry=data["on_hold_expiry"],
            hold_seconds=int(data["hold_seconds"]),
            turn_seconds=data["turn_seconds"],
            seats=[Seat.from_data(seat) for seat in data["seats"]],
            status=status,  # type: ignore[arg-type]  # checked above
            game_no=game_no,
            record_id=data.get("record_id"),
            rated=bool(data.get("rated", False)),
            address=_address(data.get("address")),
        )

    def seat_of(self, player_id: str) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.kind == "human" and seat.player_id == player_id:
                return index
        return None

    def empty_seats(self) -> list[int]:
        return [index for index, seat in enumerate(self.seats) if seat.kind == "empty"]

    def has_humans(self) -> bool:
        return any(seat.kind == "human" for seat in self.seats)

    def public_status(self) -> Literal["waiting", "playing", "finished"]:
        return "waiting" if self.status == "closed" else self.status


def _address(value: object) -> str | None:
    """A stored creator's share: text, or nothing (a table stored before it was kept)."""
    if value is None or isinstance(value, str):
        return value
    raise TypeError("a table's address is text")
