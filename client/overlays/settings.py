"""The settings window (o): ↑/↓ choose, Enter, Space or ←/→ change."""

from __future__ import annotations

from client.draw import Dims, Line
from client.i18n import LANGUAGE_NAMES, _
from client.model.core import Model, Overlay
from client.model.settings import Settings

__all__ = ["BEFORE_GAME_OVER", "OPENS_WITH", "keys", "lines", "open_window", "title"]


OPENS_WITH = "o"  # the table's key for this window
BEFORE_GAME_OVER = False


def open_window(model: Model) -> None:
    """Open the settings."""
    model.open(Overlay.SETTINGS)


def title(model: Model) -> str:
    return _("Settings")


def lines(model: Model, size: Dims) -> list[Line]:
    out: list[Line] = []
    for index, (name, english) in enumerate(Settings.ITEMS):
        style = "class:overlay.sel" if index == model.settings_row else ""
        label = _(english)
        if name == "trick_pause":
            out.append([(style, f" [{model.settings.trick_pause:.1f} s] {label}")])
            continue
        if name == "language":
            chosen = LANGUAGE_NAMES.get(model.settings.language, model.settings.language)
            out.append([(style, f" [{chosen}] {label}")])
            continue
        on = bool(getattr(model.settings, name))
        out.append([(style, f" [{'x' if on else ' '}] {label}")])
    out.append([])
    out.append([("class:dim", " " + _("↑/↓ choose · Enter or Space toggles"))])
    return out


def keys(model: Model, key: str) -> bool:
    if key in ("escape", "o", "q"):
        model.close()
    elif key in ("up", "down"):
        model.move_settings_row(-1 if key == "up" else 1)
    elif key in ("enter", "space", "left", "right"):
        model.change_setting(-1 if key == "left" else 1)
    return True
