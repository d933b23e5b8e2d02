"""The messages that describe a table, each built for one viewer.

    info = table_info(table, your_seat=0, online=(True, False), now=loop_time)
    snap = snapshot(table, state, None, online, now, turn_deadline, req_id)  # a spectator's

Every function takes the stored :class:`~server.rooms.table.Table`, whether each seat's
human is connected (``online``), the loop's clock ``now`` and, for a snapshot, the game
state and turn deadline. A seat's view comes from ``GameState.view_for(seat)`` only, so
nothing of the other hand can leak into it; spectators get the ``None`` viewer's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine import GameState
from protocol import convert
from protocol import messages as m
from server.rooms.table import Table, server_time

__all__ = ["seat_info", "snapshot", "summary", "table_info"]


def seat_info(table: Table, index: int, online: bool, now: float) -> m.SeatInfo:
    seat = table.seats[index]
    if seat.kind == "empty":
        return m.SeatInfo(kind="empty")
    if seat.kind == "bot":
        return m.SeatInfo(kind="bot", name=seat.name, connected=True, bot_level=seat.bot_level)
    left = deadline = None
    if not online and seat.hold_deadline is not None:
        left = round(max(0.0, seat.hold_deadline - now), 1)
        deadline = server_time(seat.hold_deadline)
    return m.SeatInfo(
        kind="human",
        name=seat.name,
        connected=online,
        hold_seconds_left=left,
        hold_deadline=deadline,
        bot_standing_in=seat.bot_standing_in,
        withheld_reveals=seat.withheld_reveals,
    )


def table_info(
    table: Table, your_seat: int | None, online: Sequence[bool], now: float
) -> m.TableInfo:
    return m.TableInfo(
        code=table.code,
        private=table.private,
        preset=table.preset,
        rules=convert.rules_message(table.rules),
        seats=(seat_info(table, 0, online[0], now), seat_info(table, 1, online[1], now)),
        status=table.public_status(),
        your_seat=your_seat,
        on_hold_expiry=table.on_hold_expiry,
        hold_seconds=table.hold_seconds,
        turn_seconds=table.turn_seconds,
        rematch=(table.seats[0].rematch, table.seats[1].rematch),
        record_id=table.record_id,
    )


def summary(table: Table, online: Sequence[bool], now: float, spectators: int) -> m.TableSummary:
    return m.TableSummary(
        code=table.code,
        preset=table.preset,
        rules=convert.rules_message(table.rules),
        seats=(seat_info(table, 0, online[0], now), seat_info(table, 1, online[1], now)),
        status=table.public_status(),
        spectators=spectators,
    )


def snapshot(
    table: Table,
    state: GameState,
    your_seat: int | None,
    online: Sequence[bool],
    now: float,
    turn_deadline: float | None,
    req_id: int | None,
    hand_commitments: Mapping[int, tuple[str, ...]] | None = None,
) -> m.Snapshot:
    """A viewer's snapshot; ``hand_commitments`` (1.3) fills each hand result's
    ``entropy_commitments`` for the hands dealt by commit and reveal."""
    view = state.view_for(your_seat)
    your_turn = None
    if table.status == "playing" and your_seat is not None and view.my_turn:
        left = None if turn_deadline is None else round(max(0.0, turn_deadline - now), 1)
        your_turn = convert.your_turn_message(view, table.code, left)
    message = convert.view_message(view, table.code)
    if hand_commitments:
        results = tuple(
            r.model_copy(update={"entropy_commitments": hand_commitments[r.hand_number]})
            if r.hand_number in hand_commitments
            else r
            for r in message.hand_results
        )
        message = message.model_copy(update={"hand_results": results})
    return m.Snapshot(
        table=table_info(table, your_seat, online, now),
        view=message,
        your_turn=your_turn,
        id=req_id,
    )
