"""What the reference opponents share: the phases they do not search, and the bid choice.

A reference player (:class:`ReferencePlayer`) is called like :class:`engine.bot.Bot`::

    player = IsmctsPlayer(seed=7)           # or PimcPlayer(seed=7)
    action = player.choose(view)            # one of view.legal_actions()

Its only input is the seat's :class:`~engine.game.PlayerView` (so it is fair by
construction): the hidden cards are read with :func:`engine.bot.knowledge.read_knowledge`
and each determinisation draws the opponent's hand with
:func:`engine.bot.knowledge.sample_hand` (consistent with the voids shown and the cards
seen; a drafted hand is likelier to hold high cards and spades). Blind nil, the draft and
the blind-nil exchange use the shared heuristics of :mod:`engine.bot.rules_based` (the same
as ``normal``), so a match against ``hard`` compares bidding and card play only.

Errors: :class:`ReferencePlayerError` (the root error of this package) when asked to act with
no legal action.
"""

from __future__ import annotations

import random
from collections import Counter

from engine.actions import Action, Bid, Play
from engine.bot.knowledge import Knowledge, read_knowledge
from engine.bot.rules_based import choose_blind_nil, choose_draft, choose_exchange
from engine.cards import CARDS
from engine.game import Phase, PlayerView, score_seat
from engine.rules import RuleSet

__all__ = ["ReferencePlayer", "ReferencePlayerError", "best_bid", "bid_value"]


class ReferencePlayerError(Exception):
    """The root error of the reference opponents (``bench/reference``)."""


class ReferencePlayer:
    """A player for one seat; subclasses implement :meth:`bid` and :meth:`play`.

    ``seed`` makes every decision reproducible (a decision depends only on the view and
    the player's random stream); ``iterations`` scales the search effort (``None``: the
    budget chosen to match ``hard`` as served).
    """

    name = "reference"

    def __init__(self, seed: int | None = None, iterations: int | None = None) -> None:
        if iterations is not None and iterations < 1:
            raise ReferencePlayerError(f"iterations must be at least 1, not {iterations}")
        self.rng = random.Random(seed)
        self.iterations = iterations

    def choose(self, view: PlayerView) -> Action:
        """The action to take now; raises :class:`ReferencePlayerError` if there is none."""
        legal = view.legal_actions()
        if not legal:
            raise ReferencePlayerError("asked to act when the seat has no legal action")
        if len(legal) == 1:
            return legal[0]
        phase = view.phase
        if phase is Phase.BLIND_NIL:
            return choose_blind_nil(view)
        if phase is Phase.DRAFT:
            return choose_draft(view)
        if phase is Phase.EXCHANGE:
            return choose_exchange(view)
        know = read_knowledge(view)
        if phase is Phase.BIDDING:
            return Bid(self.bid(view, know))
        return Play(CARDS[self.play(view, know)])

    def bid(self, view: PlayerView, know: Knowledge) -> int:
        """The bid (0: nil)."""
        raise NotImplementedError

    def play(self, view: PlayerView, know: Knowledge) -> int:
        """The card to play, as a card index."""
        raise NotImplementedError


def bid_value(rules: RuleSet, bags: int, bid: int, taken: int) -> float:
    """Points of bidding ``bid`` and taking ``taken`` with ``bags`` bags, each new bag
    charged its long-run share of the penalty (``bag_penalty / bag_limit``)."""
    points, added, _, _ = score_seat(rules, bid, False, taken, bags)
    penalties_now = (bags + added) // rules.bag_limit
    # the penalty crossed now is in points already; charge the rest of the bags their share
    charged = added - penalties_now * rules.bag_limit
    return points - max(0, charged) * rules.bag_penalty / rules.bag_limit


def best_bid(rules: RuleSet, bags: int, outcomes: Counter[tuple[int, int]]) -> int:
    """The bid with the best mean :func:`bid_value` over sampled outcomes.

    ``outcomes`` counts ``(tricks taken trying, tricks taken ducking)`` per sampled deal;
    nil (when allowed) is valued on the ducking count. Ties go to the lower bid.
    """
    lowest = 0 if rules.nil else 1
    best, best_total = 1, float("-inf")
    for bid in range(lowest, 14):
        total = 0.0
        for (natural, ducked), count in outcomes.items():
            taken = ducked if bid == 0 else natural
            total += count * bid_value(rules, bags, bid, taken)
        if total > best_total + 1e-9:
            best, best_total = bid, total
    return best
