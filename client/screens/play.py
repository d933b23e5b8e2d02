"""The play screen: the trick on the table; choose a card (arrows, or type qs, 10h), Enter plays.

Bright cards may be played, dark ones may not (``your_turn.legal`` says which). A typed
card that may not be played is refused with the reason, and no card stays chosen.
"""

from __future__ import annotations

from client.cardwords import card_keys
from client.draw import Dims, Line, beside, bid_text, clip, large_card, pad, prefix, small_card
from client.i18n import _, language
from client.model.core import Model
from client.screens.frame import idle_keys
from engine import Card, Play, PlayerView

__all__ = ["centre", "keys", "prompt"]


def prompt(model: Model) -> str:
    if model.turn is None:
        return ""
    typed = f"  [{model.typed}]" if model.typed else ""
    left = model.turn_seconds_left()
    if left is not None:
        typed += f"  ⏱ {left:.0f}s"
    if model.settings.confirm_before_play:
        return _("Your turn: ←/→ or type a card (qs, 10h) · Enter plays") + typed
    return _("Your turn: ←/→ or type a card (qs, 10h) · typing a card plays it") + typed


def centre(model: Model, view: PlayerView, size: Dims) -> list[Line]:
    """The trick under way (or the one just won), whose lead, tricks against bids."""
    me = view.seat if view.seat is not None else 0
    leader = view.leader if view.leader is not None else me
    cards: dict[int, Card] = {}
    for index, card in enumerate(view.current_trick):
        cards[leader if index == 0 else 1 - leader] = card
    last = None
    if not view.current_trick and view.tricks:
        # between tricks, the one just won stays in view (dimmed) until the next lead
        last = view.tricks[-1]
        cards = {last.leader: last.cards[0], 1 - last.leader: last.cards[1]}
    opp = 1 - me
    # during the trick pause the finished trick is shown bright; after it, dimmed
    dim = last is not None and not model.pausing
    draw = large_card if size.large else small_card
    left = [
        [("", "  " + pad(model.seat_name(opp), 9))],
        *prefix(draw(model, cards.get(opp), dim)),
    ]
    right = [[("", pad(model.seat_name(me), 9))], *draw(model, cards.get(me), dim)]
    number = min(13, len(view.tricks) + 1)
    broken = _("spades broken") if view.spades_broken else _("spades not broken")
    leads = (
        _("You lead")
        if leader == view.seat
        else _("{name} leads").format(name=model.seat_name(leader))
    )
    info: list[Line] = [
        [("class:head", _("Trick {number} of 13").format(number=number))],
        [("", leads)],
        [("class:good" if view.spades_broken else "class:dim", broken)],
        # tricks won against the bid, one line a seat ("blind nil" needs the room)
        *(
            [
                (
                    "class:dim",
                    _("{name} won {won}/{bid}").format(
                        name=clip(model.seat_name(seat), 8),
                        won=view.tricks_won[seat],
                        bid=bid_text(view, seat),
                    ),
                )
            ]
            for seat in (me, opp)
        ),
    ]
    if last is not None and model.pausing:
        if last.winner == view.seat:
            takes = _("You take trick {number}").format(number=len(view.tricks))
        else:
            takes = _("{name} takes trick {number}").format(
                name=model.seat_name(last.winner), number=len(view.tricks)
            )
        info.append([("class:turn", takes)])
    elif last is not None:
        took = _("({name} took trick {number})").format(
            name=model.seat_name(last.winner), number=len(view.tricks)
        )
        info.append([("class:dim", took)])
    return [[], *beside(beside(left, right, 2), info, 4)]


def keys(model: Model, key: str) -> bool:
    if model.turn is None:
        return idle_keys(model, key)
    selection = model.selection
    legal = model.legal_cards()
    if key in ("left", "right", "up", "down"):
        selection.move(key, [c for c in model.hand_cards() if c in legal])
    elif key in ("enter", "space"):
        _play_chosen(model, legal)
    elif key == "backspace":
        selection.erase_typed()
    elif key in card_keys(language()):
        _type(model, key, legal)
    else:
        return False
    return True


def _play_chosen(model: Model, legal: set[Card]) -> None:
    if model.typed:  # a half-typed card: Enter must not play the cursor's card
        model.notify(
            _("Finish typing the card ({typed}…) or Esc to clear it.").format(typed=model.typed)
        )
        return
    if model.cursor is None or model.cursor not in legal:
        choose = _("Choose a card that may be played (bright), then Enter.")
        # a refusal stays on screen: it says why nothing was played
        said = model.flash
        model.notify(f"{said} · {choose}" if said and said == model.refusal else choose)
        return
    model.act(Play(model.cursor))


def _type(model: Model, key: str, legal: set[Card]) -> None:
    selection = model.selection
    card, problem = selection.type_card(key)
    if problem:
        model.notify(problem)
    if card is None:
        if not model.typed:  # a complete text that is not a card: nothing is chosen
            selection.point(None)
        return
    view = model.view
    # after any refusal no card is chosen, so Enter cannot play one the player did not
    # pick; an arrow key or a legal typed card chooses again
    if view is None or card not in view.hand:
        selection.point(None)
        model.refuse(_("You do not hold {card}.").format(card=model.card_text(card)))
        return
    if card not in legal:
        selection.point(None)
        model.refuse(
            _("{card} may not be played now: {why}").format(
                card=model.card_text(card), why=_why_illegal(model)
            )
        )
        return
    selection.point(card)
    model.notify("")
    if not model.settings.confirm_before_play:
        model.act(Play(card))


def _why_illegal(model: Model) -> str:
    view = model.view
    if view is not None and view.current_trick:
        suit = view.current_trick[0].suit
        symbol = model.card_text(Card.of(0, suit))[-1]
        return _("follow suit ({suit})").format(suit=symbol)
    return _("spades are not broken")
