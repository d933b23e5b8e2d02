"""A perfect-information Monte Carlo player with double-dummy solving (a reference opponent).

    player = PimcPlayer(seed=7)
    action = player.choose(view)

The way GIB plays bridge (Ginsberg 2001): draw deals consistent with the seat's view (the
opponent's hand), solve each deal exactly for every distinct legal card with the
alpha-beta solver :func:`engine.fast.solve_bounded` (both seats seeing both hands, the
value of a finished hand its score-aware worth, :func:`engine.bot.evaluate.utility_table`)
and play the card with the best sum over the deals (the lowest among equals). Early in a
hand a full solve is out of reach in Python at this budget: the decision's solver nodes
are a fixed budget shared out among its solves, and a position the search reaches after
its share is spent is valued by the greedy playout (so early decisions are part solved,
part played out; the last tricks are exact). Its known weakness is strategy fusion: each
deal is solved as if the seat knew it.

The bid is by sampled double-dummy trick counts: for each drawn deal the exact number of
tricks the seat takes when both seats try (and whether a nil survives when it ducks and
the opponent tries to set it), then the bid with the best expected points
(:func:`bench.reference.common.best_bid`).

Effort is a fixed count of deals and solver nodes (no clock), so a decision is
reproducible from the seed. Errors: see :mod:`bench.reference.common`.
"""

from __future__ import annotations

from collections import Counter
from typing import Final

from bench.reference.common import ReferencePlayer, best_bid
from engine.bot.evaluate import utility_table
from engine.bot.knowledge import Knowledge, sample_hand
from engine.cards import ALL_CARDS_MASK, SUIT_MASKS
from engine.fast import solve_bounded
from engine.game import PlayerView, legal_play_mask, trick_winner

__all__ = ["PimcPlayer"]

DEALS: Final = 40
"""Sampled deals per card decision at full effort."""
NODE_BUDGET: Final = 285_000
"""Solver nodes per card decision, shared out among its solves in order; with
``BID_NODES`` set so that its p95 CPU time in whole games (the ``decision_time_s`` of
``bench/strength.py``) matches ``hard``'s in the same run. It was 650,000 and 40,000 until
the fifteenth round of docs/bot-rounds.md, then 460,000 and 28,000 (timed on the opening
positions of ``bench/decisions.py``, 1.5 times ``hard``'s p95 in whole games)."""
BID_DEALS: Final = 16
"""Sampled deals per bid."""
BID_NODES: Final = 17_000
"""Solver nodes per double-dummy trick count when bidding."""

_TRICKS = [float(taken) for taken in range(14)]
_NIL = [1.0] + [0.0] * 13


def distinct_cards(legal: int, separators: int) -> list[int]:
    """The lowest card of each run of ``legal`` cards that no card of ``separators``
    splits (two cards of such a run are worth the same in any play)."""
    moves = []
    for suit_mask in SUIT_MASKS:
        part = legal & suit_mask
        while part:
            low = (part & -part).bit_length() - 1
            moves.append(low)
            above = separators & suit_mask & ~((1 << (low + 1)) - 1)
            if not above:
                break
            part &= ~((1 << ((above & -above).bit_length() - 1)) - 1)
    return moves


class PimcPlayer(ReferencePlayer):
    """PIMC card play with double-dummy solves and double-dummy bids; see the module
    docstring. ``iterations`` scales the deals and nodes of a card decision (``DEALS``
    deals at full effort)."""

    name = "pimc"

    def __init__(self, seed: int | None = None, iterations: int | None = None) -> None:
        super().__init__(seed, iterations)
        scale = 1.0 if iterations is None else min(1.0, iterations / DEALS)
        self.deals = DEALS if iterations is None else iterations
        self.node_budget = max(2000, round(NODE_BUDGET * scale))
        self.bid_deals = max(4, round(BID_DEALS * scale))
        self.bid_nodes = max(2000, round(BID_NODES * scale))

    def bid(self, view: PlayerView, know: Knowledge) -> int:
        rules = view.rules
        me = know.me
        leader = 0 if view.first_bidder == me else 1
        outcomes: Counter[tuple[int, int]] = Counter()
        for _ in range(self.bid_deals):
            other = sample_hand(know, self.rng)
            tricks, _ = solve_bounded(
                know.hand, other, leader, -1, False, 0, _TRICKS, self.bid_nodes
            )
            ducked = round(tricks)
            if rules.nil:
                survives, _ = solve_bounded(
                    know.hand, other, leader, -1, False, 0, _NIL, self.bid_nodes
                )
                # a nil the opponent sets double dummy counts as one trick taken
                ducked = 0 if survives >= 0.5 else 1
            outcomes[(round(tricks), ducked)] += 1
        return best_bid(rules, view.bags[me], outcomes)

    def play(self, view: PlayerView, know: Knowledge) -> int:
        me, opp = know.me, know.opp
        hand = know.hand
        legal = legal_play_mask(hand, view.lead_suit, view.spades_broken)
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1
        trick_card = int(view.current_trick[0]) if view.current_trick else -1
        separators = ALL_CARDS_MASK & ~hand & ~know.played
        if trick_card >= 0:
            separators |= 1 << trick_card
        moves = distinct_cards(legal, separators)
        if len(moves) == 1:
            return moves[0]
        bids = (view.bids[me], view.bids[opp])
        blind = (bool(view.blind_nil[me]), bool(view.blind_nil[opp]))
        scores = (view.scores[me], view.scores[opp])
        bags = (view.bags[me], view.bags[opp])
        util = utility_table(view.rules, scores, bags, bids, blind, 0)
        broken = view.spades_broken
        won0 = view.tricks_won[me]
        totals = [0.0] * len(moves)
        budget = self.node_budget
        solves_left = self.deals * len(moves)
        for _ in range(self.deals):
            other = sample_hand(know, self.rng)
            for index, move in enumerate(moves):
                allowance = max(1, budget // max(1, solves_left))
                mine = hand & ~(1 << move)
                if trick_card < 0:
                    value, used = solve_bounded(mine, other, 0, move, broken, won0, util, allowance)
                else:
                    winner = trick_winner(1, trick_card, move)
                    now_broken = broken or move // 13 == 3 or trick_card // 13 == 3
                    won = won0 + (winner == 0)
                    value, used = solve_bounded(
                        mine, other, winner, -1, now_broken, won, util, allowance
                    )
                budget -= used
                solves_left -= 1
                totals[index] += value
        best = max(totals)
        # the cheapest card among the best (lowest rank, then not a spade)
        return min(
            (move for move, total in zip(moves, totals, strict=True) if total >= best - 1e-9),
            key=lambda move: (move % 13, move // 13 == 3),
        )
