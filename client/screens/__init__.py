"""The terminal client's screens, one module per screen or phase of the game:

==================  ==================================================================
``connecting``      reaching the server, and why it failed
``lobby``           the open tables; the join / watch by code window
``create``          the create-table window
``waiting``         a table waiting for an opponent (b brings in the bot)
``deal``            between hands: the shuffle waits for the seats' entropy
``blind_nil``       declare blind nil or not
``draft``           keep or discard the card on offer
``exchange``        the blind nil exchange
``bidding``         the bid
``play``            the trick
``hand_result``     the hand's result (a window, and the centre between hands)
``game_over``       the winner, rematch, the record and its analysis
==================  ==================================================================

Each owns its keys (``keys(model, key)``: True when the key did something), its drawing
and its help line (``prompt(model)``). A table screen draws the centre panel
(``centre(model, view, size)``) that :func:`client.screens.frame.table_lines` frames with
both seats and your hand. :func:`table_screen` says which one is on show.
"""

from __future__ import annotations

from typing import Protocol

from client.draw import Dims, Line
from client.model.core import Model
from client.screens import (
    bidding,
    blind_nil,
    deal,
    draft,
    exchange,
    game_over,
    hand_result,
    play,
    waiting,
)
from engine import Phase, PlayerView

__all__ = ["TableScreen", "table_screen"]


class TableScreen(Protocol):
    """What a table screen's module provides."""

    def prompt(self, model: Model) -> str: ...

    def centre(self, model: Model, view: PlayerView, size: Dims) -> list[Line]: ...

    def keys(self, model: Model, key: str) -> bool: ...


_PHASES: dict[Phase, TableScreen] = {
    Phase.BLIND_NIL: blind_nil,
    Phase.DRAFT: draft,
    Phase.EXCHANGE: exchange,
    Phase.BIDDING: bidding,
    Phase.PLAY: play,
    Phase.HAND_OVER: hand_result,
}


def table_screen(model: Model, view: PlayerView) -> TableScreen:
    """The screen of the table on show: game over, waiting, or the phase's."""
    table = model.table
    if model.game_over is not None or view.phase is Phase.GAME_OVER:
        return game_over
    if table is not None and table.status == "waiting":
        return waiting
    return _PHASES.get(view.phase, deal)
