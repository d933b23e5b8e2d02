"""The end of a game, as the rater and the players hear of it: pure functions of the table
and the engine's state when the game is over::

    room.ended(game_end(table, state, record_id, "score", winner))
    room.broadcast(Frame(encode(game_over_message(table, state, record_id, "score", winner))))

Raises nothing.
"""

from __future__ import annotations

import time

from engine import GameState
from protocol import messages as m
from server.accounts.rating import GameEnd, Side
from server.rooms.table import Table

__all__ = ["game_end", "game_over_message"]


def game_end(
    table: Table, state: GameState, record_id: str, reason: str, winner: int | None
) -> GameEnd:
    """The end as the rater sees it: aborted when given up in the first hand before each
    human seat had acted (issue 27: no player action in the first hand)."""
    humans = [seat for seat in table.seats if seat.kind == "human"]
    aborted = reason == "forfeit" and state.hand_number <= 1
    aborted = aborted and any(not seat.seqs for seat in humans)
    sides = tuple(
        Side(seat.name or "", seat.player_id if seat.kind == "human" else None, seat.bot_level)
        for seat in table.seats
    )
    return GameEnd(
        record_id=record_id,
        code=table.code,
        preset=table.preset,
        rated=table.rated,
        outcome="aborted" if aborted else reason,
        winner=winner,
        sides=(sides[0], sides[1]),
        scores=(state.scores[0], state.scores[1]),
        ended=time.time(),
    )


def game_over_message(
    table: Table, state: GameState, record_id: str, reason: str, winner: int | None
) -> m.GameOver:
    """``game_over`` for everyone at the table: the winner, both scores, the record."""
    lines = tuple(
        m.ScoreLine(seat=i, name=table.seats[i].name, score=state.scores[i], bags=state.bags[i])
        for i in (0, 1)
    )
    return m.GameOver(
        table=table.code,
        winner=winner,
        reason="forfeit" if reason == "forfeit" else "score",
        scores=(lines[0], lines[1]),
        record_id=record_id,
    )
