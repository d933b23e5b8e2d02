"""Where a key goes: the window on show, then the table's window keys, then the screen.

    press(model, "enter")    # what ClientModel.press does
    interrupt(model)         # Ctrl-C

A window's keys come first; a reading window (help, scores, pile, rules) may close and
let the key go on. At the table, Tab, o, m and x (and p, r before game over) open their
windows; Esc clears a half-typed card; every other key is the screen's
(:mod:`client.screens`). The prompt_toolkit bindings (:func:`client.ui.make_key_bindings`,
the one key factory) turn every key into one :func:`press`.
"""

from __future__ import annotations

from collections.abc import Callable

from client.model.core import Model, Overlay, Screen
from client.overlays import question, window
from client.screens import connecting, lobby, table_screen

__all__ = ["interrupt", "press"]


def _open(overlay: Overlay) -> Callable[[Model], None]:
    def opener(model: Model) -> None:
        if overlay is Overlay.CHAT:
            model.chat.clear()
        model.open(overlay)

    return opener


# the table's keys that open a window, whatever the phase
TABLE_WINDOWS: dict[str, Callable[[Model], None]] = {
    "tab": _open(Overlay.SCORES),
    "o": _open(Overlay.SETTINGS),
    "m": _open(Overlay.CHAT),
    "x": question.ask_leave,
}
# ... and the ones that mean something else once the game is over (r: rematch)
PLAY_WINDOWS: dict[str, Callable[[Model], None]] = {
    "p": _open(Overlay.PILE),
    "r": _open(Overlay.RULES),
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
    if key in TABLE_WINDOWS:
        TABLE_WINDOWS[key](model)
    elif key in PLAY_WINDOWS and not model.game.is_over():
        PLAY_WINDOWS[key](model)
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
