"""The blind nil screen: before the draft, each seat in turn declares blind nil (y) or not (n)."""

from __future__ import annotations

from client.draw import Dims, Line
from client.i18n import _
from client.model.core import Model
from client.screens.frame import idle_keys
from engine import BlindNil, PlayerView

__all__ = ["centre", "keys", "prompt"]


def prompt(model: Model) -> str:
    if model.turn is None:
        return ""
    return _("Your turn: y declare BLIND NIL · n no blind nil")


def centre(model: Model, view: PlayerView, size: Dims) -> list[Line]:
    bonus = view.rules.blind_nil_bonus
    if model.turn is None:
        who = model.seat_name(view.current_player or 0)
        return [[("", "   " + _("{name} is deciding on blind nil…").format(name=who))]]
    lines: list[Line] = [
        [("class:head", "   " + _("BLIND NIL?"))],
        [("", "   " + _("Declare before you see a single card:"))],
        [
            (
                "",
                "   "
                + _("+{bonus} if you take no trick, -{bonus} if you take any;").format(bonus=bonus),
            )
        ],
        [
            (
                "",
                "   " + _("then exchange up to {n} cards.").format(n=view.rules.blind_nil_exchange),
            )
        ],
        [],
    ]
    if BlindNil(True) in model.legal:
        lines.append([("class:turn", "   " + _("y = declare blind nil    n = no"))])
    else:
        lines.append([("class:dim", "   " + _("You may not declare it now (score rule): n"))])
    return lines


def keys(model: Model, key: str) -> bool:
    if model.turn is None:
        return idle_keys(model, key)
    if key in ("y", "b"):
        if BlindNil(True) in model.legal:
            model.act(BlindNil(True))
        else:
            model.notify(_("You may not declare blind nil now."))
    elif key in ("n", "enter"):
        model.act(BlindNil(False))
    else:
        return False
    return True
