"""The help window (?): every key, and r for the rules of this table."""

from __future__ import annotations

from client.draw import Dims, Line
from client.i18n import N_, _
from client.model.core import Model, Overlay
from client.overlays.common import closes_or_passes

__all__ = ["HELP", "HELP_LINES", "keys", "lines", "title"]

# one entry a line, each translated on its own (a line must fit the window: 72 columns);
# the second says how to type a card in the language (its letters, see client.cardwords)
HELP_LINES: tuple[str, ...] = (
    N_("At the table"),
    N_("  ←/→  ↑/↓    choose a card (↑/↓ jump between suits)"),
    N_("  qs, 10h     type a card: a legal one becomes the chosen card"),
    N_("  Enter       play the chosen card / make the bid"),
    N_("  k / d       draft: keep / discard the card on offer"),
    N_("  0-13, n     bidding: your bid, n = nil"),
    N_("  y / n       blind nil: declare / decline"),
    N_("  Space       exchange: pick or drop a card"),
    N_("  Tab  o  m   score sheet · settings · chat"),
    N_("  /mute       in chat: hide the others' chat (/unmute) · /report TEXT"),
    N_("  p  r        the pile (by suit) · the rules of this table"),
    N_("  x           leave the table (during a game: asks y/n)"),
    N_("  b           waiting: bring in the bot"),
    N_("  r l s a     game over: rematch · leave · save the record · analysis"),
    N_("  Esc         close a window; Ctrl-C quits (asks during a game)"),
    N_("Bright cards may be played, dark ones may not. Press r now for the rules."),
    N_("Lobby: ↑/↓ Enter join · w watch · c create · j/v code · r refresh"),
)
HELP = "\n".join(HELP_LINES)


def title(model: Model) -> str:
    return _("Help")


def lines(model: Model, size: Dims) -> list[Line]:
    return [[("", " " + _(line))] for line in HELP_LINES]


def keys(model: Model, key: str) -> bool:
    if key == "r":
        model.open(Overlay.RULES)
        return True
    return closes_or_passes(model, key)
