"""The bidding screen: type 0-13 (n for nil), ↑/↓ change it, Enter bids."""

from __future__ import annotations

from client.draw import Dims, Line, bid_text, pad
from client.i18n import _, ngettext
from client.model.core import Model
from client.screens.frame import idle_keys
from engine import Bid, PlayerView

__all__ = ["centre", "keys", "prompt"]


def prompt(model: Model) -> str:
    if model.turn is None:
        return ""
    return _("Your bid: type 0-13 (n = nil), ↑/↓ change, Enter bids")


def centre(model: Model, view: PlayerView, size: Dims) -> list[Line]:
    me = view.seat if view.seat is not None else 0
    lines: list[Line] = [[("class:head", "   " + _("Bidding"))], []]
    first = view.first_bidder if view.first_bidder is not None else 0
    for seat in (first, 1 - first):
        if view.blind_nil[seat]:
            text = _("blind nil")
        elif view.bids[seat] is not None:
            text = bid_text(view, seat)
        elif view.current_player == seat:
            text = _("…thinking") if seat != me else "?"
        else:
            text = _("bids next")
        lines.append([("", f"   {pad(model.seat_name(seat), 12)} "), ("class:head", text)])
    lines.append([])
    if model.turn is not None and model.turn.phase == "bidding":
        entry = model.bid_entry
        shown = _("nil") if entry == "0" else (entry or "_")
        lines.append(
            [
                ("", "   " + _("Your bid:") + " "),
                ("class:card.cursor", f" {shown} "),
                ("class:dim", "   " + _("0-13 · n nil · Enter")),
            ]
        )
        spades = sum(1 for c in view.hand if c.suit == 3)
        high = sum(1 for c in view.hand if c.rank >= 11)
        held = _("(you hold {spades}, {high})").format(
            spades=ngettext("{n} spade", "{n} spades", spades).format(n=spades),
            high=ngettext("{n} ace or king", "{n} aces or kings", high).format(n=high),
        )
        lines.append([("class:dim", f"   {held}")])
    return lines


def keys(model: Model, key: str) -> bool:
    if model.turn is None:
        return idle_keys(model, key)
    bids = model.game.bids()
    if not bids:
        return False
    selection = model.selection
    if key.isdigit() and len(key) == 1:
        selection.type_bid(key)
    elif key == "n":
        if 0 in bids:
            selection.set_bid(0)
        else:
            model.notify(_("Nil is off in these rules."))
    elif key == "backspace":
        selection.erase_bid()
    elif key in ("up", "right", "down", "left"):
        selection.step_bid(1 if key in ("up", "right") else -1, bids)
    elif key == "enter":
        if not model.bid_entry:
            model.notify(_("Type your bid (0-13, n for nil), then Enter."))
        elif int(model.bid_entry) not in bids:
            model.notify(_("You may bid {low} to {high}.").format(low=bids[0], high=bids[-1]))
        else:
            model.act(Bid(int(model.bid_entry)))
    else:
        return False
    return True
