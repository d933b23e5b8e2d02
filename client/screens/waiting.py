"""The waiting screen: a table with one seat taken, waiting for an opponent (b: the bot)."""

from __future__ import annotations

from client.draw import Dims, Line, clip
from client.i18n import _
from client.model.core import Model
from client.screens.frame import idle_keys
from engine import PlayerView
from protocol import messages as m

__all__ = ["centre", "keys", "prompt"]


def prompt(model: Model) -> str:
    return _("Waiting for an opponent · b add the bot ({level}) · x leave").format(
        level=_(model.bot_level)
    )


def centre(model: Model, view: PlayerView, size: Dims) -> list[Line]:
    table = model.table
    assert table is not None
    return [
        [("class:head", "   " + _("Waiting for an opponent."))],
        [("", "   " + _("Table code:") + " "), ("class:turn", table.code)],
        [],
        [("", "   " + _("A friend joins with:"))],
        [("class:head", f"     spades play {clip(model.url or 'URL', 40)}")],
        [("class:head", f"       --join {table.code}")],
        [],
        [("", "   " + _("or press b to play the bot ({level}).").format(level=_(model.bot_level)))],
    ]


def keys(model: Model, key: str) -> bool:
    table = model.table
    if key == "b" and table is not None and table.your_seat is not None:
        model.send(m.AddBot(code=table.code, level=model.bot_level))
        return True
    return idle_keys(model, key)
