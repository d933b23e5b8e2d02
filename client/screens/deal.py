"""Between hands: the shuffle is committed and waits a moment for the seats' entropy."""

from __future__ import annotations

from client.draw import Dims, Line
from client.i18n import _
from client.model.core import Model
from client.screens.frame import idle_keys
from engine import PlayerView

__all__ = ["centre", "keys", "prompt"]


def prompt(model: Model) -> str:
    view = model.view
    if view is not None and view.commitment is not None:
        return _("Shuffling (your entropy goes into it)…")
    return _("Waiting for the next hand…")


def centre(model: Model, view: PlayerView, size: Dims) -> list[Line]:
    if view.commitment is not None:
        return [[("", "   " + _("Hand {number}: shuffling…").format(number=view.hand_number))]]
    return [[("", "   " + _("Waiting for the next hand…"))]]


def keys(model: Model, key: str) -> bool:
    return idle_keys(model, key)
