"""The log's words: one line per event, and the story so far from a snapshot.

    line = describe(event, name, my_seat=0, ascii_only=False)   # "" when nothing to say
    lines = story(view, name, ascii_only=False)

``name(seat)`` is how the model names a seat ("You", a player's name, "Bot").
"""

from __future__ import annotations

from collections.abc import Callable

from client.cardwords import card_text
from client.i18n import _, language, ngettext
from engine import Card, PlayerView
from protocol import messages as m

__all__ = ["describe", "story"]

Namer = Callable[[int], str]


def describe(event: m.EventMessage, name: Namer, my_seat: int | None, ascii_only: bool) -> str:
    """The log line for ``event`` ("" for the events the screen says enough about)."""

    def card(text: str) -> str:
        return card_text(Card.parse(text), language(), ascii_only)

    if isinstance(event, m.HandStartedEvent):
        return _("Hand {number}: {name} draft first.").format(
            number=event.hand_number, name=name(event.first_drafter)
        )
    if isinstance(event, m.ShuffledEvent):
        return ""  # the draft (or blind-nil) prompt that follows says enough
    if isinstance(event, m.BlindNilEvent):
        if event.declared:
            return _("{name} declared BLIND NIL!").format(name=name(event.seat))
        return _("{name}: no blind nil.").format(name=name(event.seat))
    if isinstance(event, m.DraftTurnEvent):
        if event.card is None:
            return ""  # the opponent's draft turns say nothing; the counts show them
        if event.kept:
            if event.other_card:
                return _("You kept {card} ({other} went to the pile).").format(
                    card=card(event.card), other=card(event.other_card)
                )
            return _("You kept {card}.").format(card=card(event.card))
        taken = card(event.other_card) if event.other_card else "?"
        return _("You discarded {card} and took {taken}.").format(
            card=card(event.card), taken=taken
        )
    if isinstance(event, m.ExchangeEvent):
        if event.given or event.received:
            given = " ".join(card(c) for c in event.given)
            got = " ".join(card(c) for c in event.received)
            return _("You gave {given} and got {got}.").format(
                given=given or _("nothing"), got=got or _("nothing")
            )
        return ngettext(
            "{name} exchanged {n} card.", "{name} exchanged {n} cards.", event.count
        ).format(name=name(event.seat), n=event.count)
    if isinstance(event, m.BidEvent):
        return _("{name} bid {bid}.").format(
            name=name(event.seat), bid=_("nil") if event.tricks == 0 else event.tricks
        )
    if isinstance(event, m.CardPlayedEvent):
        return _("{name} played {card}.").format(name=name(event.seat), card=card(event.card))
    if isinstance(event, m.TrickWonEvent):
        return _("{name} won trick {number}.").format(
            name=name(event.trick.winner), number=event.number
        )
    if isinstance(event, m.HandScoredEvent):
        return ""  # the hand_result message that follows says it in full
    if event.winner is None:
        return _("Game over.")
    won, lost = event.scores[event.winner], event.scores[1 - event.winner]
    if event.winner == my_seat:  # winner first
        return _("Game over: you win {won} to {lost}.").format(won=won, lost=lost)
    return _("Game over: {name} wins {won} to {lost}.").format(
        name=name(event.winner), won=won, lost=lost
    )


def story(view: PlayerView, name: Namer, ascii_only: bool) -> list[str]:
    """The log of what happened so far, from a snapshot's history (the finished hands,
    then this hand's bids and tricks), for a client that did not see it."""
    lines: list[str] = []
    for result in view.hand_results:
        lines.append(
            _("Hand {number}: {first} {first_points}, {second} {second_points}").format(
                number=result.hand_number,
                first=name(0),
                first_points=f"{result.points[0]:+d}",
                second=name(1),
                second_points=f"{result.points[1]:+d}",
            )
        )
    if view.hand_results and view.hand_number > len(view.hand_results):
        lines.append(_("Hand {number} under way.").format(number=view.hand_number))
    for seat in (0, 1):
        if view.blind_nil[seat]:
            lines.append(_("{name} declared BLIND NIL!").format(name=name(seat)))
        elif view.bids[seat] is not None:
            bid = view.bids[seat]
            lines.append(
                _("{name} bid {bid}.").format(name=name(seat), bid=_("nil") if bid == 0 else bid)
            )
    for number, trick in enumerate(view.tricks, 1):
        first, second = (card_text(card, language(), ascii_only) for card in trick.cards)
        lines.append(
            _("{leader} led {first}, {other} played {second}: {winner} won trick {number}.").format(
                leader=name(trick.leader),
                first=first,
                other=name(1 - trick.leader),
                second=second,
                winner=name(trick.winner),
                number=number,
            )
        )
    return lines
