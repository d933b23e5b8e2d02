"""The yes/no questions: leave a game in progress (x: it forfeits), quit during one (Ctrl-C).

Only y answers yes; n or Esc answers no; any other key leaves the question up and says
which keys answer it.
"""

from __future__ import annotations

from client.draw import Dims, Line
from client.i18n import _
from client.model.core import Model, Overlay
from protocol import messages as m

__all__ = ["BEFORE_GAME_OVER", "OPENS_WITH", "ask_leave", "keys", "lines", "open_window", "title"]

OPENS_WITH = "x"  # the table's key: leave (asks first during a game)
BEFORE_GAME_OVER = False


def ask_leave(model: Model) -> None:
    """x at the table: leave at once, or ask first during a game in progress."""
    table = model.table
    if table is None:
        return
    model.selection.clear_typed()  # a half-typed card never combines with the answer
    if model.in_live_game():
        model.open(Overlay.LEAVE)
    else:
        model.send(m.Leave(code=table.code))


def open_window(model: Model) -> None:
    """x at the table (see :func:`ask_leave`)."""
    ask_leave(model)


def title(model: Model) -> str:
    return _("Leave the table?") if model.overlay is Overlay.LEAVE else _("Quit spades?")


def lines(model: Model, size: Dims) -> list[Line]:
    if model.overlay is Overlay.LEAVE:
        return [
            [("", " " + _("The game is not over: leaving gives up your seat and"))],
            [("", " " + _("FORFEITS the game."))],
            [],
            [("class:head", " " + _("y = yes, leave and forfeit     n or Esc = no, stay"))],
        ]
    if model.local:
        return [
            [("", " " + _("This game runs inside this program: quitting ends it."))],
            [],
            [("class:head", " " + _("y or Ctrl-C = yes, quit     n or Esc = no, stay"))],
        ]
    return [
        [("", " " + _("The game goes on without you:"))],
        [("", " " + hold_text(model))],
        [("", " " + _("Run the same command again to take your seat back."))],
        [],
        [("class:head", " " + _("y or Ctrl-C = yes, quit     n or Esc = no, stay"))],
    ]


def keys(model: Model, key: str) -> bool:
    overlay = model.overlay
    if key == "y":
        model.close()
        model.notify("")
        if overlay is Overlay.QUIT:
            model.request_quit()
        elif model.table is not None:
            model.send(m.Leave(code=model.table.code))
    elif key in ("n", "escape"):
        model.close()
        model.notify("")
    else:
        model.notify(_("Answer the question: y = yes, n = no."))
    return True


def hold_text(model: Model) -> str:
    table = model.table
    if table is None:
        return _("your seat is held.")
    text = {
        "bot": _("your seat is held {seconds} s, then the bot plays for you."),
        "wait": _("your seat is held {seconds} s, then the game waits for you."),
        "forfeit": _("your seat is held {seconds} s, then you forfeit."),
    }.get(table.on_hold_expiry, _("your seat is held {seconds} s."))
    return text.format(seconds=table.hold_seconds)
