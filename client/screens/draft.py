"""The draft screen: the card on offer, k keeps it, d discards it and takes the next."""

from __future__ import annotations

from client.draw import Dims, Line, beside, big_card
from client.i18n import _
from client.model.core import Model
from client.screens.frame import idle_keys
from engine import Discard, Keep, PlayerView

__all__ = ["centre", "keys", "prompt"]


def prompt(model: Model) -> str:
    if model.turn is None:
        return ""
    return _("Your turn: k keep the card · d discard it and take the next")


def centre(model: Model, view: PlayerView, size: Dims) -> list[Line]:
    me = view.seat if view.seat is not None else 0
    opp = 1 - me
    turns_left = (13 - view.draft_turns[me], 13 - view.draft_turns[opp])
    facts: list[Line] = [
        [
            (
                "class:dim",
                _("Turns left: {me} {mine}, {name} {theirs}").format(
                    me=_("you") if view.seat is not None else model.seat_name(me),
                    mine=turns_left[0],
                    name=model.seat_name(opp),
                    theirs=turns_left[1],
                ),
            )
        ],
        [
            (
                "class:dim",
                _("Stock {stock} · pile {pile}").format(stock=view.stock_left, pile=view.pile_size),
            )
        ],
    ]
    if model.turn is not None and model.turn.phase == "draft":
        if view.rules.see_card_after_keep:
            see = _("the pile; you see it)")
        else:
            see = _("the pile; you don't see it)")
        info: list[Line] = [
            [("class:head", _("Card on offer"))],
            [],
            [("class:turn", "k"), ("", " " + _("keep it  (next card goes to"))],
            [("", f"   {see}")],
            [("class:turn", "d"), ("", " " + _("discard it, take the next"))],
            [],
            *facts,
        ]
        return beside([[("", " "), *line] for line in big_card(model, view.offered)], info)
    drafter = view.current_player
    who = model.seat_name(drafter) if drafter is not None else "?"
    return [
        [
            (
                "",
                "   "
                + (
                    _("Draft: you are choosing…")
                    if drafter is not None and drafter == view.seat
                    else _("Draft: {name} is choosing…").format(name=who)
                ),
            )
        ],
        [],
        *[[("", "   "), *fact] for fact in facts],
    ]


def keys(model: Model, key: str) -> bool:
    if model.turn is None:
        return idle_keys(model, key)
    if key == "k":
        model.act(Keep())
    elif key == "d":
        model.act(Discard())
    else:
        return False
    return True
