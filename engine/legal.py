"""What a seat may do: its legal actions in each phase, and the check of one action.

:func:`legal_actions` lists them from a few plain values, so that
:meth:`engine.game.GameState.legal_actions` (the authoritative hand) and
:meth:`engine.view.PlayerView.legal_actions` (a seat's own view) give the same answer.
:func:`check_move` is the gate of ``apply`` for a seat's action: it raises
:class:`~engine.errors.IllegalActionError` and changes nothing.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Final

from engine.actions import Action, Bid, BlindNil, Discard, Exchange, Keep, Play
from engine.cards import CARDS, Card, card_mask, cards_in
from engine.errors import IllegalActionError
from engine.hand import HAND_SIZE, HandState, Phase
from engine.rules import RuleSet
from engine.tricks import legal_play_mask

__all__ = ["check_move", "legal_actions", "may_declare_blind_nil"]


def legal_actions(
    phase: Phase,
    rules: RuleSet,
    seat: int,
    hand: int,
    lead_suit: int,
    spades_broken: bool,
    scores: tuple[int, int],
) -> tuple[Action, ...]:
    """The legal actions of ``seat``, whose turn it is, in ``phase``.

    ``hand`` is the seat's cards as a mask, ``lead_suit`` the suit led to the current trick
    (``-1`` when leading); ``scores`` decide whether blind nil may be declared. Returns
    ``()`` in a phase without seat actions.
    """
    # Actions are immutable values, so the constant ones are shared, not rebuilt.
    if phase is Phase.PLAY:
        legal = legal_play_mask(hand, lead_suit, spades_broken)
        plays = []
        while legal:
            low = legal & -legal
            plays.append(_PLAYS[low.bit_length() - 1])
            legal ^= low
        return tuple(plays)
    if phase is Phase.DRAFT:
        return _DRAFT_ACTIONS
    if phase is Phase.BIDDING:
        return _BIDS if rules.nil else _BIDS[1:]
    if phase is Phase.BLIND_NIL:
        if may_declare_blind_nil(rules, seat, scores):
            return _BLIND_NIL_EITHER
        return _BLIND_NIL_DECLINE
    if phase is Phase.EXCHANGE:
        held = cards_in(hand)
        return tuple(
            map(
                Exchange,
                itertools.chain.from_iterable(
                    itertools.combinations(held, size)
                    for size in range(min(rules.blind_nil_exchange, len(held)) + 1)
                ),
            )
        )
    return ()


_PLAYS: Final = tuple(Play(card) for card in CARDS)
_DRAFT_ACTIONS: Final[tuple[Action, ...]] = (Keep(), Discard())
_BIDS: Final[tuple[Action, ...]] = tuple(Bid(n) for n in range(HAND_SIZE + 1))
_BLIND_NIL_EITHER: Final[tuple[Action, ...]] = (BlindNil(True), BlindNil(False))
_BLIND_NIL_DECLINE: Final[tuple[Action, ...]] = (BlindNil(False),)

_PHASE_ACTIONS: Final[dict[Phase, tuple[type, ...]]] = {
    Phase.BLIND_NIL: (BlindNil,),
    Phase.DRAFT: (Keep, Discard),
    Phase.EXCHANGE: (Exchange,),
    Phase.BIDDING: (Bid,),
    Phase.PLAY: (Play,),
}


def may_declare_blind_nil(rules: RuleSet, seat: int, scores: Sequence[int]) -> bool:
    """Whether ``seat`` trails by enough (``rules.blind_nil_min_deficit``) to go blind."""
    if rules.blind_nil_min_deficit is None:
        return True
    return scores[1 - seat] - scores[seat] >= rules.blind_nil_min_deficit


def check_move(
    rules: RuleSet,
    phase: Phase,
    hand: HandState,
    seat: int,
    action: Action,
    scores: Sequence[int],
) -> None:
    """Raise :class:`~engine.errors.IllegalActionError` unless ``action`` fits ``phase``.

    The caller has checked that ``seat`` is a seat and that it is its turn; this checks the
    action's kind and its values against the hand (cards held, suit to follow, bid range,
    blind-nil deficit, exchange size).
    """
    wanted = _PHASE_ACTIONS[phase]
    if not isinstance(action, wanted):
        raise IllegalActionError(f"{action} is not an action of the {phase} phase")
    if isinstance(action, BlindNil):
        if not isinstance(action.declare, bool):
            raise IllegalActionError("blind nil is declared (true) or declined (false)")
        if action.declare and not may_declare_blind_nil(rules, seat, scores):
            raise IllegalActionError(
                f"blind nil needs a deficit of at least {rules.blind_nil_min_deficit}"
            )
    elif isinstance(action, Exchange):
        cards = action.cards
        if not isinstance(cards, tuple | list):
            raise IllegalActionError("exchange takes a sequence of cards")
        if len(cards) > rules.blind_nil_exchange:
            raise IllegalActionError(f"at most {rules.blind_nil_exchange} cards may be exchanged")
        if not all(isinstance(card, Card) for card in cards):
            raise IllegalActionError("exchange takes cards")
        if len(set(cards)) != len(cards):
            raise IllegalActionError("a card is named twice in the exchange")
        if card_mask(cards) & ~hand.hands[seat]:
            raise IllegalActionError("you can only exchange cards you hold")
    elif isinstance(action, Bid):
        low = 0 if rules.nil else 1
        if (
            isinstance(action.tricks, bool)
            or not isinstance(action.tricks, int)
            or not low <= action.tricks <= HAND_SIZE
        ):
            raise IllegalActionError(f"a bid must be {low}..{HAND_SIZE}")
    elif isinstance(action, Play):
        card = action.card
        if not isinstance(card, Card):
            raise IllegalActionError("play takes a card")
        held = hand.hands[seat]
        if not held >> card & 1:
            raise IllegalActionError(f"you do not hold {card}")
        lead = hand.trick[0] // 13 if hand.trick else -1
        if not legal_play_mask(held, lead, hand.spades_broken) >> card & 1:
            if lead >= 0:
                raise IllegalActionError(f"you must follow suit ({'CDHS'[lead]})")
            raise IllegalActionError("spades are not broken yet")
