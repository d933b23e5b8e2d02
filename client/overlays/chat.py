"""The chat window (m): the last lines, the line being typed; /mute, /unmute, /report."""

from __future__ import annotations

from client.draw import Dims, Line, clip
from client.i18n import _
from client.model.core import Model, Overlay

__all__ = ["BEFORE_GAME_OVER", "OPENS_WITH", "keys", "lines", "open_window", "title"]


OPENS_WITH = "m"  # the table's key for this window
BEFORE_GAME_OVER = False


def open_window(model: Model) -> None:
    """Open the chat (a new line)."""
    model.chat.clear()
    model.open(Overlay.CHAT)


def title(model: Model) -> str:
    return _("Chat (others muted)") if model.chat.muted else _("Chat")


def lines(model: Model, size: Dims) -> list[Line]:
    shown = list(model.chat.lines)[-8:]
    out: list[Line] = [[("class:log", " " + clip(line, 60))] for line in shown]
    out.append([])
    out.append([("", " " + _("say:") + " "), ("class:head", model.chat.entry + "▏")])
    out.append([("class:dim", " " + _("Enter sends · /mute, /unmute · /report TEXT: to the host"))])
    return out


def keys(model: Model, key: str) -> bool:
    chat = model.chat
    if key == "escape":
        model.close()
    elif key == "enter":
        model.send_chat()
        model.close()
    elif key == "backspace":
        chat.erase()
    elif key == "space":
        chat.type(" ")
    elif len(key) == 1 and key.isprintable():
        chat.type(key)
    return True
