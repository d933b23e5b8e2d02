"""The draft screen: the card on offer, k keeps it, d discards it and takes the next."""

from __future__ import annotations

from client.draw import Dims, Line, beside, big_card
from client.model.core import Model
from client.screens.frame import idle_keys
from engine import Discard, Keep, PlayerView

__all__ = ["centre", "keys", "prompt"]


def prompt(model: Model) -> str:
    if model.turn is None:
        return ""
    return "Your turn: k keep the card · d discard it and take the next"


def centre(model: Model, view: PlayerView, size: Dims) -> list[Line]:
    me = view.seat if view.seat is not None else 0
    opp = 1 - me
    turns_left = (13 - view.draft_turns[me], 13 - view.draft_turns[opp])
    facts: list[Line] = [
        [
            (
                "class:dim",
                f"Turns left: {model.seat_name(me).replace('You', 'you')}"
                f" {turns_left[0]}, {model.seat_name(opp)} {turns_left[1]}",
            )
        ],
        [("class:dim", f"Stock {view.stock_left} · pile {view.pile_size}")],
    ]
    if model.turn is not None and model.turn.phase == "draft":
        see = "see" if view.rules.see_card_after_keep else "don't see"
        info: list[Line] = [
            [("class:head", "Card on offer")],
            [],
            [("class:turn", "k"), ("", " keep it  (next card goes to")],
            [("", f"   the pile; you {see} it)")],
            [("class:turn", "d"), ("", " discard it, take the next")],
            [],
            *facts,
        ]
        return beside([[("", " "), *line] for line in big_card(model, view.offered)], info)
    drafter = view.current_player
    who = model.seat_name(drafter) if drafter is not None else "?"
    return [
        [("", f"   Draft: {who} {'are' if who == 'You' else 'is'} choosing…")],
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
