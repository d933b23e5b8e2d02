"""The draft by search, for the ``hard`` level: keep or discard by playing sampled hands out.

    keep = search_draft(view, rng, samples=160)     # True: keep the card on offer

A draft turn trades the card on offer for the next stock card, which the seat has not
seen (discard), or keeps it (keep). Each sample draws that next card, the cards the seat
will still draft (as a drafted hand: high cards and spades likelier, since it keeps
them) and the opponent's hand (likewise), and plays the hand out twice with the greedy
full-information policy of :mod:`engine.fast`: once holding the card on offer, once the
next card. The rest of the deal is the same in both (common random numbers), so the
difference between them is measured with little noise. A hand is worth ten points a
trick, or, when nil is allowed and it looks like a nil hand, the nil bonus won or lost
by a ducking playout against an opponent trying to set it; each choice takes the plan
that is worth more on average.

A seat that declared blind nil, or whose opponent did, drafts with the shared heuristic
(:func:`engine.bot.rules_based.choose_draft`), which is built for those cases.
"""

from __future__ import annotations

import random

from engine.bot.evaluate import modes_table
from engine.bot.heuristics import quick_nil
from engine.bot.knowledge import pick_drafted
from engine.cards import ALL_CARDS_MASK, card_mask
from engine.fast import greedy_playout
from engine.game import PlayerView

__all__ = ["search_draft"]

_NIL_PROBE = 24
"""Samples that also try a nil before nil is dropped for hands that never survived one."""
_NIL_HOPE = 0.01
"""Below this :func:`~engine.bot.heuristics.quick_nil` chance neither choice tries nil."""


def search_draft(view: PlayerView, rng: random.Random, samples: int) -> bool:
    """Keep the card on offer (``True``) or discard it and take the next one (``False``).

    ``view`` must be a draft turn of its seat (``view.offered`` set). Ties keep the card
    (it is known, the next one is not).
    """
    me = view.seat if view.seat is not None else 0
    offered = view.offered
    if offered is None:
        return True
    offered_bit = 1 << int(offered)
    hand = view.hand_mask
    seen = hand | card_mask(view.draft_discarded) | card_mask(view.draft_seen_after_keep)
    unseen = ALL_CARDS_MASK & ~seen & ~offered_bit
    if not unseen:
        return True
    cards_to_come = 13 - view.draft_turns[me] - 1
    rules = view.rules
    leader = 0 if view.first_bidder == me else 1
    natural = modes_table((13, 13))
    nil_modes = modes_table((0, 13))
    unseen_cards = [card for card in range(52) if unseen >> card & 1]
    try_nil = rules.nil and max(quick_nil(hand | offered_bit), quick_nil(hand)) >= _NIL_HOPE
    keep_tricks = discard_tricks = 0
    keep_nils = discard_nils = nil_samples = 0
    for index in range(samples):
        next_bit = 1 << rng.choice(unseen_cards)
        rest = unseen & ~next_bit
        future = pick_drafted(rest, cards_to_come, rng)
        opponent = pick_drafted(rest & ~future, 13, rng)
        kept = hand | offered_bit | future
        taken = hand | next_bit | future
        keep_tricks += greedy_playout(kept, opponent, leader, -1, False, 0, 0, natural)[0]
        discard_tricks += greedy_playout(taken, opponent, leader, -1, False, 0, 0, natural)[0]
        if try_nil:
            nil_samples += 1
            keep_nil = greedy_playout(kept, opponent, leader, -1, False, 0, 0, nil_modes)
            discard_nil = greedy_playout(taken, opponent, leader, -1, False, 0, 0, nil_modes)
            keep_nils += keep_nil[0] == 0
            discard_nils += discard_nil[0] == 0
            if index + 1 == _NIL_PROBE and not keep_nils and not discard_nils:
                try_nil = False

    def worth(tricks: int, nils: int) -> float:
        value = 10.0 * tricks / samples
        if nil_samples:
            nil_value = rules.nil_bonus * (2.0 * nils / nil_samples - 1.0)
            value = max(value, nil_value)
        return value

    return worth(keep_tricks, keep_nils) >= worth(discard_tricks, discard_nils)
