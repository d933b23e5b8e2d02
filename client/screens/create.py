"""The create-table window (c in the lobby): the preset, private or not, the bot, and
every rule; ↑/↓ field, ←/→ change, digits type a number, Enter creates."""

from __future__ import annotations

from client.draw import Dims, Line, pad
from client.i18n import _
from client.model.core import Model
from client.rules import FIELD_LABELS
from client.screens.account import rated_lines, rated_wanted
from protocol import messages as m

__all__ = ["keys", "lines", "title"]


def title(model: Model) -> str:
    return _("Create a table")


def lines(model: Model, size: Dims) -> list[Line]:
    form = model.lobby.form
    out: list[Line] = []
    for index, name in enumerate(form.rows()):
        style = "class:overlay.sel" if index == form.row else ""
        label = _(FIELD_LABELS[name]) if name in FIELD_LABELS else name
        out.append([(style, f" {pad(label, 44)} {pad(form.value_text(name), 27)}")])
    out.extend(rated_lines(model))  # signed in: R toggles a rated game (screens/account.py)
    hint = " " + _("↑/↓ field · ←/→ change · digits type a number · Enter creates")
    out.append([("class:bad", " " + form.error)] if form.error else [("class:dim", hint)])
    return out


def keys(model: Model, key: str) -> bool:
    form = model.lobby.form
    if key == "escape":
        model.close()
    elif key in ("up", "down"):
        form.move(-1 if key == "up" else 1)
    elif key == "left":
        form.change(-1)
    elif key in ("right", "space"):
        form.change(+1)
    elif key == "backspace":
        form.backspace()
    elif key == "enter":
        model.send(
            m.CreateTable(
                preset=form.preset,
                overrides=form.overrides(),
                private=form.private,
                bot=form.bot,
                rated=rated_wanted(model),
            )
        )
        model.close()
    elif key == "R" and model.account.signed_in is not None:
        model.account.toggle_rated()
    elif len(key) == 1:
        form.type_char(key)
    return True
