"""The pile window (p): the cards this seat saw go to the pile in the draft, by suit."""

from __future__ import annotations

from client.cardwords import suit_letters
from client.draw import Dims, Line, cards, count
from client.i18n import _, language
from client.model.core import Model, Overlay
from client.model.selection import SUIT_ORDER
from client.overlays.common import closes_or_passes
from client.screens.frame import pile_cards

__all__ = ["BEFORE_GAME_OVER", "OPENS_WITH", "keys", "lines", "open_window", "title"]


OPENS_WITH = "p"  # the table's key for this window
# not once the game is over (r asks for a rematch then)
BEFORE_GAME_OVER = True


def open_window(model: Model) -> None:
    """Open the pile."""
    model.open(Overlay.PILE)


def title(model: Model) -> str:
    return _("The pile: cards you saw go to it")


def lines(model: Model, size: Dims) -> list[Line]:
    view = model.view
    if view is None or view.seat is None:
        return [[("class:dim", " " + _("A spectator sees no draft cards."))]]
    seen_cards = pile_cards(view)
    letters = suit_letters(language()).upper()
    symbols = (
        letters[3] + letters[2] + letters[0] + letters[1] if model.settings.ascii_cards else "♠♥♣♦"
    )
    lines: list[Line] = []
    for symbol, suit in zip(symbols, SUIT_ORDER, strict=True):
        row = [c for c in seen_cards if c.suit == suit]
        lines.append([("", f"  {symbol}  "), *cards(model, row)])
    lines.append([])
    seen = " " + _("{cards} seen in the draft").format(cards=count(len(seen_cards)))
    if view.rules.blind_nil:  # only then can a pile card come back into a hand
        lines.append([("class:dim", seen + _("; the other seat may"))])
        lines.append([("class:dim", " " + _("have drawn some of them in a blind nil exchange."))])
    else:
        lines.append([("class:dim", seen + ".")])
    return lines


def keys(model: Model, key: str) -> bool:
    return closes_or_passes(model, key)
