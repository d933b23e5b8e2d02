"""The blind nil exchange screen: pick up to N cards (Space or type them), Enter gives them."""

from __future__ import annotations

from client.draw import Dims, Line
from client.i18n import _
from client.model.core import Model
from client.screens.frame import idle_keys
from engine import Card, Exchange, PlayerView

__all__ = ["centre", "keys", "prompt"]


def prompt(model: Model) -> str:
    turn = model.turn
    if turn is None:
        return ""
    typed = f"  [{model.typed}]" if model.typed else ""
    left = model.turn_seconds_left()
    if left is not None:
        typed += f"  ⏱ {left:.0f}s"
    text = _("Pick up to {n} cards: Space/type a card · Enter gives them")
    return text.format(n=turn.exchange_max) + typed


def centre(model: Model, view: PlayerView, size: Dims) -> list[Line]:
    turn = model.turn
    if turn is None:
        who = model.seat_name(view.current_player or 0)
        return [[("", "   " + _("{name} exchanging…").format(name=who))]]
    give = _("Give up to {n} cards face down; you get as many").format(n=turn.exchange_max)
    return [
        [("class:head", "   " + _("Blind nil exchange"))],
        [("", "   " + give)],
        [("", "   " + _("drawn at random from the discard pile."))],
        [],
        [("", "   " + _("Space or type a card (qs, 10h) to pick or drop it,"))],
        [("", "   " + _("Enter to give the picked cards (none is fine)."))],
    ]


def keys(model: Model, key: str) -> bool:
    turn = model.turn
    if turn is None:
        return idle_keys(model, key)
    cards = model.hand_cards()
    limit = turn.exchange_max or 0
    if key in ("left", "right", "up", "down"):
        model.selection.move(key, cards)
        return True
    if key == "enter":
        model.act(Exchange(tuple(sorted(model.picks))))
        return True
    card: Card | None
    if key == "space":
        card = model.cursor
    else:
        card, problem = model.selection.type_card(key)
        if problem:
            model.notify(problem)
        if card is not None and card not in cards:
            model.notify(_("You do not hold {card}.").format(card=model.card_text(card)))
            return True
    if card is None:
        return key == "space" or len(key) == 1
    problem = model.selection.toggle_pick(card, limit)
    if problem:
        model.notify(problem)
    return True
