"""The help window (?): every key, and r for the rules of this table."""

from __future__ import annotations

from client.draw import Dims, Line
from client.model.core import Model, Overlay
from client.overlays.common import closes_or_passes

__all__ = ["HELP", "keys", "lines", "title"]

HELP = """\
At the table
  ←/→  ↑/↓    choose a card (↑/↓ jump between suits)
  qs, 10h     type a card: a legal one becomes the chosen card
  Enter       play the chosen card / make the bid
  k / d       draft: keep / discard the card on offer
  0-13, n     bidding: your bid, n = nil
  y / n       blind nil: declare / decline
  Space       exchange: pick or drop a card
  Tab  o  m   score sheet · settings · chat
  /mute       in chat: hide the others' chat (/unmute) · /report TEXT
  p  r        the pile (by suit) · the rules of this table
  x           leave the table (during a game: asks y/n)
  b           waiting: bring in the bot
  r l s a     game over: rematch · leave · save the record · analysis
  Esc         close a window; Ctrl-C quits (asks during a game)
Bright cards may be played, dark ones may not. Press r now for the rules.
Lobby: ↑/↓ Enter join · w watch · c create · j/v code · r refresh"""


def title(model: Model) -> str:
    return "Help"


def lines(model: Model, size: Dims) -> list[Line]:
    return [[("", " " + line)] for line in HELP.splitlines()]


def keys(model: Model, key: str) -> bool:
    if key == "r":
        model.open(Overlay.RULES)
        return True
    return closes_or_passes(model, key)
