"""Judging a hand's preliminaries with what the seat knew: a draft turn, the blind-nil
exchange and the blind-nil declaration (the cards and bids are :mod:`engine.analysis.judge`).

Called by :func:`engine.analysis.judge.judge_known` with the seat's view only::

    knew = judge_draft(view, kept=True)
    knew = judge_exchange(view, given_mask, level, random.Random(seed))
    knew = judge_blind_nil(view, declared=False)

Each returns a :class:`~engine.analysis.model.Knew`; :func:`seat_of` raises
:class:`~engine.analysis.model.AnalysisError` for a spectator's view.
"""

from __future__ import annotations

import math
import random

from engine.actions import BlindNil, Discard, Exchange, Keep, PlayerAction
from engine.analysis import botlink
from engine.analysis.model import AnalysisError, AnalysisLevel, Knew
from engine.cards import ALL_CARDS_MASK, card_mask, cards_in
from engine.game import PlayerView

__all__ = [
    "OPPONENT_POINTS_AGAINST_BLIND_NIL",
    "judge_blind_nil",
    "judge_draft",
    "judge_exchange",
    "seat_of",
]

OPPONENT_POINTS_AGAINST_BLIND_NIL = 57.5
"""Mean points of a seat whose opponent went blind nil (it gets most of the tricks)."""


def seat_of(view: PlayerView) -> int:
    """The view's seat; raises :class:`~engine.analysis.model.AnalysisError` for a spectator."""
    if view.seat is None:
        raise AnalysisError("a spectator's view has no decisions to judge")
    return view.seat


def _draft_values(view: PlayerView) -> tuple[float, float]:
    """``(keep, discard)``: what the hand is worth after each choice (the bot's valuation)."""
    me = seat_of(view)
    offered = view.offered
    assert offered is not None
    hand = view.hand_mask
    seen = hand | card_mask(view.draft_discarded) | card_mask(view.draft_seen_after_keep)
    unseen = ALL_CARDS_MASK & ~seen & ~(1 << offered)
    to_come = 13 - view.draft_turns[me] - 1
    blind = bool(view.blind_nil[me])
    nil_allowed = view.rules.nil or blind
    bonus = float(view.rules.blind_nil_bonus)

    def worth(cards: int, unknown: int) -> float:
        value = botlink.plan_value(cards, unknown, 13, to_come, nil_allowed, blind)
        if blind:  # the valuation is then the log of the nil chance
            chance = math.exp(value)
            return bonus * (2.0 * chance - 1.0)
        return value

    keep = worth(hand | 1 << offered, unseen)
    total = 0.0
    count = 0
    rest = unseen
    while rest:
        low = rest & -rest
        rest ^= low
        total += worth(hand | low, (unseen & ~low) | (1 << offered))
        count += 1
    discard = total / count if count else keep
    return keep, discard


def judge_draft(view: PlayerView, kept: bool) -> Knew:
    keep, discard = _draft_values(view)
    made = keep if kept else discard
    best_action: PlayerAction = Keep() if keep >= discard else Discard()
    best = max(keep, discard)
    return Knew(made=made, best=best, best_action=best_action, loss=best - made, samples=0)


def _exchange_chance(
    hand: int,
    given: int,
    pile_draws: list[list[int]],
    unseen: int,
) -> float:
    """Mean nil chance after giving ``given`` and drawing as many cards from the pile."""
    count = given.bit_count()
    kept = hand & ~given
    total = 0.0
    for pile in pile_draws:
        received = 0
        for card in pile[:count]:
            received |= 1 << card
        total += botlink.nil_chance(kept | received, unseen & ~received, 13)
    return total / len(pile_draws)


def judge_exchange(view: PlayerView, given: int, level: AnalysisLevel, rng: random.Random) -> Knew:
    rules = view.rules
    hand = view.hand_mask
    pile_known = card_mask(view.draft_discarded) | card_mask(view.draft_seen_after_keep)
    seen = hand | pile_known | card_mask(view.draft_kept) | card_mask(view.draft_taken)
    unseen = ALL_CARDS_MASK & ~seen
    pile_size = view.pile_size or 26
    known_cards = list(cards_in(pile_known))
    unseen_cards = list(cards_in(unseen))
    hidden_in_pile = max(0, pile_size - len(known_cards))
    draws: list[list[int]] = []
    for _ in range(level.exchange_draws):
        pile = [int(c) for c in known_cards]
        pile += [int(c) for c in rng.sample(unseen_cards, min(hidden_in_pile, len(unseen_cards)))]
        rng.shuffle(pile)
        draws.append(pile)
    limit = rules.blind_nil_exchange
    bot_choice = botlink.best_exchange(hand, pile_known, unseen, pile_size, limit)
    bonus = float(rules.blind_nil_bonus)
    candidates = {given, bot_choice, 0}
    values = {
        mask: bonus * (2.0 * _exchange_chance(hand, mask, draws, unseen) - 1.0)
        for mask in candidates
    }
    best = max(candidates, key=lambda mask: (values[mask], mask == given))
    return Knew(
        made=values[given],
        best=values[best],
        best_action=Exchange(cards_in(best)),
        loss=max(0.0, values[best] - values[given]),
        samples=level.exchange_draws,
    )


def judge_blind_nil(view: PlayerView, declared: bool) -> Knew:
    bonus = float(view.rules.blind_nil_bonus)
    success = botlink.BLIND_NIL_SUCCESS
    declare = bonus * (2.0 * success - 1.0) - OPPONENT_POINTS_AGAINST_BLIND_NIL
    decline = 0.0  # a normal hand against a normal hand: no margin either way on average
    made = declare if declared else decline
    best = max(declare, decline)
    return Knew(
        made=made,
        best=best,
        best_action=BlindNil(declare > decline),
        loss=best - made,
        samples=0,
    )
