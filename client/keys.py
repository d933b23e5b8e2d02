"""Where a key goes: the window on show, then the table's window keys, then the screen.

    press(model, "enter")    # what ClientModel.press does
    interrupt(model)         # Ctrl-C

A window's keys come first; a reading window (help, scores, pile, rules) may close and
let the key go on. At the table, each window's own key opens it (Tab, o, m, x; p and r
before game over: ``OPENS_WITH`` in its module); Esc clears a half-typed card; every
other key is the screen's (:mod:`client.screens`). The prompt_toolkit bindings
(:func:`client.ui.make_key_bindings`, the one key factory) turn every key into one
:func:`press`.
"""

from __future__ import annotations

from typing import Protocol

from client.cardwords import is_suit_letter
from client.i18n import language
from client.model.core import Model, Overlay, Screen
from client.overlays import chat, pile, question, rules, scores, settings, window
from client.screens import connecting, lobby, table_screen

__all__ = ["interrupt", "press"]


class Opener(Protocol):
    """A window's module that a key at the table opens."""

    OPENS_WITH: str
    BEFORE_GAME_OVER: bool

    def open_window(self, model: Model) -> None: ...


# the table's keys that open a window (each window's module says its key)
TABLE_WINDOWS: dict[str, Opener] = {
    module.OPENS_WITH: module for module in (scores, settings, chat, question, pile, rules)
}


def press(model: Model, key: str) -> None:
    """Handle one key: a name (``left``, ``enter``, ``escape``, ``tab``, ``backspace``,
    ``space``, ``up``, ``down``, ``right``) or one printable character."""
    if model.overlay is not None and window(model.overlay).keys(model, key):
        return
    if key == "?":
        model.open(Overlay.HELP)
        return
    if model.screen is Screen.LOBBY:
        lobby.keys(model, key)
        return
    view = model.view
    if model.screen is not Screen.TABLE or view is None or model.table is None:
        connecting.keys(model, key)
        return
    opener = TABLE_WINDOWS.get(key)
    if model.typed and is_suit_letter(key, language()):
        # a half-typed card takes its suit letter first (German Pik is p, the pile's key)
        table_screen(model, view).keys(model, key)
    elif opener is not None and not (opener.BEFORE_GAME_OVER and model.game.is_over()):
        opener.open_window(model)
    elif key == "escape":
        model.selection.clear_typed()
        model.notify("")
    else:
        table_screen(model, view).keys(model, key)


def interrupt(model: Model) -> None:
    """Ctrl-C: quit at once, except during a live game, where it asks first (a second
    Ctrl-C is the answer yes)."""
    if model.overlay is Overlay.QUIT or not model.in_live_game():
        model.request_quit()
        return
    model.selection.clear_typed()
    model.open(Overlay.QUIT)
