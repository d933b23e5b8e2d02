"""The rule-based decisions: the whole ``easy`` level, and the parts every level shares.

Shared by all levels: blind nil (declared only when trailing by 100 or more and the
score model says the gamble raises the chance to win), the draft
(:func:`engine.bot.heuristics.draft_keep`), the blind-nil exchange. The ``easy`` bid
counts expected tricks; its card play follows simple sound rules on what the seat knows:
cash sure winners and draw trumps when it wants tricks, win cheaply, ruff with the lowest
spade, duck with the highest losing card when it does not (its own nil, bags, or the
opponent's nil to set).
"""

from __future__ import annotations

from engine.actions import BlindNil, Discard, Exchange, Keep
from engine.bot.evaluate import game_worth
from engine.bot.heuristics import best_exchange, draft_keep, estimate_tricks, nil_chance
from engine.bot.knowledge import Knowledge
from engine.cards import ALL_CARDS_MASK, CARDS, SPADES, SUIT_MASKS, Card, card_mask, cards_in
from engine.fast import greedy_card
from engine.game import PlayerView, legal_play_mask

__all__ = [
    "BLIND_NIL_DEFICIT",
    "BLIND_NIL_SUCCESS",
    "choose_blind_nil",
    "choose_draft",
    "choose_exchange",
    "easy_bid",
    "easy_play",
    "wants_tricks",
]

_SPADE_MASK = SUIT_MASKS[SPADES]
_NOT_SPADES = ALL_CARDS_MASK & ~_SPADE_MASK

# tricks actually taken against counted tricks, fitted over easy-against-easy hands
_COUNT_SLOPE = 1.17
_COUNT_OFFSET = -2.16

BLIND_NIL_SUCCESS = 0.12
"""Estimated chance that a blind nil (drafted low, then exchanged) takes no trick: in
two-handed Spades half the hand is taken sight unseen in the draft, so it is low
(measured about 0.1 with these heuristics, the opponent setting it)."""

BLIND_NIL_DEFICIT = 100
"""A blind nil is a catch-up gamble: declared only when trailing by at least this many
points, or by the rule's ``blind_nil_min_deficit`` where that is larger."""

# (points, weight) three-point quadrature of a normal hand's points for one seat
_NORMAL_HAND = ((45.0 - 85.0, 1 / 6), (45.0, 2 / 3), (45.0 + 85.0, 1 / 6))
_OPPONENT_VS_BLIND = ((10.0, 1 / 6), (60.0, 2 / 3), (95.0, 1 / 6))


def choose_blind_nil(view: PlayerView, success: float = BLIND_NIL_SUCCESS) -> BlindNil:
    """Declare blind nil only when trailing by at least :data:`BLIND_NIL_DEFICIT` (or the
    rule's deficit) and the gamble raises the estimated chance to win."""
    if BlindNil(True) not in view.legal_actions():
        return BlindNil(False)
    me = view.seat if view.seat is not None else 0
    rules = view.rules
    deficit = max(BLIND_NIL_DEFICIT, rules.blind_nil_min_deficit or 0)
    if view.scores[1 - me] - view.scores[me] < deficit:
        return BlindNil(False)
    bonus = float(rules.blind_nil_bonus)

    def worth(mine: float, theirs: float) -> float:
        scores = [0, 0]
        scores[me] = round(view.scores[me] + mine)
        scores[1 - me] = round(view.scores[1 - me] + theirs)
        return game_worth(rules, (scores[0], scores[1]), view.bags, me, tie_break=False)

    normal = sum(wm * wt * worth(pm, pt) for pm, wm in _NORMAL_HAND for pt, wt in _NORMAL_HAND)
    blind = sum(
        wt * (success * worth(bonus, pt) + (1.0 - success) * worth(-bonus, pt))
        for pt, wt in _OPPONENT_VS_BLIND
    )
    return BlindNil(blind > normal + 0.01)


def choose_draft(view: PlayerView) -> Keep | Discard:
    """Keep or discard the card on offer (the shared draft heuristic)."""
    me = view.seat if view.seat is not None else 0
    offered = view.offered
    if offered is None:
        return Keep()
    hand = view.hand_mask
    seen = hand | card_mask(view.draft_discarded) | card_mask(view.draft_seen_after_keep)
    unseen = ALL_CARDS_MASK & ~seen & ~(1 << offered)
    cards_to_come = 13 - view.draft_turns[me] - 1
    blind = bool(view.blind_nil[me])
    keep = draft_keep(
        hand, int(offered), unseen, cards_to_come, view.rules.nil or blind, nil_only=blind
    )
    return Keep() if keep else Discard()


def choose_exchange(view: PlayerView) -> Exchange:
    """The blind-nil exchange: give the cards most likely to take a trick."""
    hand = view.hand_mask
    pile_known = card_mask(view.draft_discarded) | card_mask(view.draft_seen_after_keep)
    seen = hand | pile_known | card_mask(view.draft_kept) | card_mask(view.draft_taken)
    unseen = ALL_CARDS_MASK & ~seen
    given = best_exchange(
        hand, pile_known, unseen, view.pile_size or 26, view.rules.blind_nil_exchange
    )
    return Exchange(tuple(cards_in(given)))


def wants_tricks(view: PlayerView, me: int) -> bool:
    """Whether seat ``me`` wants to win the current trick (its mood, score-aware)."""
    opp = 1 - me
    rules = view.rules
    my_bid, opp_bid = view.bids[me], view.bids[opp]
    my_nil = bool(view.blind_nil[me]) or my_bid == 0
    opp_nil = bool(view.blind_nil[opp]) or opp_bid == 0
    mine, theirs = view.tricks_won
    if me == 1:
        mine, theirs = theirs, mine
    if my_nil:
        if mine == 0:
            return False
        return not opp_nil and opp_bid is not None and theirs < opp_bid
    if opp_nil and theirs == 0:
        return False
    if my_bid is not None and mine < my_bid:
        return True
    if opp_nil or opp_bid is None:
        return False
    need = opp_bid - theirs
    if need <= 0:
        return False
    left = 13 - len(view.tricks)
    # setting them costs bags; only chase it when it is within reach and bags allow
    bags_left = rules.bag_limit - view.bags[me] - (mine - (my_bid or 0))
    return need > left - 3 and bags_left > 2


def easy_bid(view: PlayerView, know: Knowledge) -> int:
    """Count expected tricks (a calibrated count), bid a little under; nil when safe."""
    me = know.me
    rules = view.rules
    hand = know.hand
    unknown = know.unseen
    counted = estimate_tricks(hand, unknown, 13)
    tricks = _COUNT_SLOPE * counted + _COUNT_OFFSET
    bid = max(1, min(13, round(tricks - 0.8)))
    if view.bags[me] >= rules.bag_limit - 2:
        bid = max(1, min(13, round(tricks - 0.4)))
    if rules.nil:
        chance = nil_chance(hand, unknown, 13)
        if chance >= 0.55 and rules.nil_bonus * (2 * chance - 1) > 10 * tricks:
            return 0
    return bid


def _lowest_rank(mask: int) -> int:
    best, best_rank = -1, 99
    for suit in range(4):
        part = mask & SUIT_MASKS[suit]
        if part:
            card = (part & -part).bit_length() - 1
            if card % 13 < best_rank:
                best, best_rank = card, card % 13
    return best


def easy_play(view: PlayerView, know: Knowledge) -> Card:
    """Rule-based card play from what the seat knows."""
    me = know.me
    hand = know.hand
    lead_suit = view.lead_suit
    legal = legal_play_mask(hand, lead_suit, view.spades_broken)
    if legal & (legal - 1) == 0:
        return CARDS[legal.bit_length() - 1]
    want = wants_tricks(view, me)
    if lead_suit >= 0:
        trick_card = int(view.current_trick[0])
        return CARDS[greedy_card(hand, 0, trick_card, view.spades_broken, want, not want)]
    possible = know.possible
    opp_spades = possible & _SPADE_MASK
    if want:
        spades = legal & _SPADE_MASK
        if spades and opp_spades and spades.bit_length() > opp_spades.bit_length():
            return CARDS[spades.bit_length() - 1]
        best, best_count = -1, -1
        for suit in range(3):
            part = legal & SUIT_MASKS[suit]
            if not part:
                continue
            theirs = possible & SUIT_MASKS[suit]
            top = part.bit_length() - 1
            if theirs.bit_length() > top:
                continue
            count = theirs.bit_count()
            if (count or not opp_spades) and count > best_count:
                best, best_count = top, count
        if best >= 0:
            return CARDS[best]
        if spades and not opp_spades:
            return CARDS[spades.bit_length() - 1]
        # no sure winner: lead low from the longest side suit
        side = legal & _NOT_SPADES
        if side:
            longest = max(range(3), key=lambda s: (side & SUIT_MASKS[s]).bit_count())
            part = side & SUIT_MASKS[longest]
            return CARDS[(part & -part).bit_length() - 1]
        return CARDS[(legal & -legal).bit_length() - 1]
    # ducking: lead the low card most likely to be beaten
    f = min(1.0, know.opp_size / max(1, possible.bit_count()))
    best, best_score = _lowest_rank(legal), -1.0
    for suit in range(4):
        part = legal & SUIT_MASKS[suit]
        if not part:
            continue
        low = (part & -part).bit_length() - 1
        theirs = possible & SUIT_MASKS[suit]
        higher = (theirs >> (low + 1)).bit_count()
        score = 1.0 - (1.0 - f) ** higher
        if not theirs and suit != SPADES and opp_spades:
            score = 0.3
        if suit == SPADES:
            score -= 0.1
        if score > best_score:
            best, best_score = low, score
    return CARDS[best]
