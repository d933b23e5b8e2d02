"""The log's words: one line per event, and the story so far from a snapshot.

    line = describe(event, name, my_seat=0, ascii_only=False)   # "" when nothing to say
    lines = story(view, name, ascii_only=False)

``name(seat)`` is how the model names a seat ("You", a player's name, "Bot").
"""

from __future__ import annotations

from collections.abc import Callable

from engine import Card, PlayerView
from protocol import messages as m

__all__ = ["describe", "story"]

Namer = Callable[[int], str]


def describe(event: m.EventMessage, name: Namer, my_seat: int | None, ascii_only: bool) -> str:
    """The log line for ``event`` ("" for the events the screen says enough about)."""

    def card(text: str) -> str:
        return Card.parse(text).pretty(ascii_only)

    if isinstance(event, m.HandStartedEvent):
        return f"Hand {event.hand_number}: {name(event.first_drafter)} draft first."
    if isinstance(event, m.ShuffledEvent):
        return ""  # the draft (or blind-nil) prompt that follows says enough
    if isinstance(event, m.BlindNilEvent):
        if event.declared:
            return f"{name(event.seat)} declared BLIND NIL!"
        return f"{name(event.seat)}: no blind nil."
    if isinstance(event, m.DraftTurnEvent):
        if event.card is None:
            return ""  # the opponent's draft turns say nothing; the counts show them
        if event.kept:
            seen = f" ({card(event.other_card)} went to the pile)" if event.other_card else ""
            return f"You kept {card(event.card)}{seen}."
        taken = card(event.other_card) if event.other_card else "?"
        return f"You discarded {card(event.card)} and took {taken}."
    if isinstance(event, m.ExchangeEvent):
        if event.given or event.received:
            given = " ".join(card(c) for c in event.given)
            got = " ".join(card(c) for c in event.received)
            return f"You gave {given or 'nothing'} and got {got or 'nothing'}."
        return f"{name(event.seat)} exchanged {event.count} card(s)."
    if isinstance(event, m.BidEvent):
        return f"{name(event.seat)} bid {'nil' if event.tricks == 0 else event.tricks}."
    if isinstance(event, m.CardPlayedEvent):
        return f"{name(event.seat)} played {card(event.card)}."
    if isinstance(event, m.TrickWonEvent):
        return f"{name(event.trick.winner)} won trick {event.number}."
    if isinstance(event, m.HandScoredEvent):
        return ""  # the hand_result message that follows says it in full
    if event.winner is None:
        return "Game over."
    won, lost = event.scores[event.winner], event.scores[1 - event.winner]
    verb = "win" if event.winner == my_seat else "wins"
    return f"Game over: {name(event.winner)} {verb} {won} to {lost}."  # winner first


def story(view: PlayerView, name: Namer, ascii_only: bool) -> list[str]:
    """The log of what happened so far, from a snapshot's history (the finished hands,
    then this hand's bids and tricks), for a client that did not see it."""
    lines: list[str] = []
    for result in view.hand_results:
        lines.append(
            f"Hand {result.hand_number}: {name(0)} {result.points[0]:+d}, "
            f"{name(1)} {result.points[1]:+d}"
        )
    if view.hand_results and view.hand_number > len(view.hand_results):
        lines.append(f"Hand {view.hand_number} under way.")
    for seat in (0, 1):
        if view.blind_nil[seat]:
            lines.append(f"{name(seat)} declared BLIND NIL!")
        elif view.bids[seat] is not None:
            bid = view.bids[seat]
            lines.append(f"{name(seat)} bid {'nil' if bid == 0 else bid}.")
    for number, trick in enumerate(view.tricks, 1):
        first, second = (card.pretty(ascii_only) for card in trick.cards)
        lines.append(
            f"{name(trick.leader)} led {first}, {name(1 - trick.leader)} played {second}: "
            f"{name(trick.winner)} won trick {number}."
        )
    return lines
