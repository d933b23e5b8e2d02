"""Card play by one search tree over the seat's information sets (``tree_iterations``).

    card = tree_card(view, know, rng, config, draw)   # a card index; draw() -> a hand

Flat sampling (:func:`engine.bot.search.search_play`) values each card by playing every
sampled deal out as if, from then on, the seat knew which deal it was in: a later move
that is right in some deals and wrong in others is credited in each deal as if it had
been chosen for that deal (strategy fusion). Here one tree of moves serves every sampled
deal (single-observer information-set Monte Carlo tree search; Cowling, Powley and
Whitehouse 2012). Each iteration takes one deal and walks down the tree among the moves
legal *in that deal*, by UCB1 whose exploration counts how often a move was available
rather than how often its parent was visited; it adds one untried move, plays the rest of
the hand out with the greedy policy of :mod:`engine.fast` in each seat's mood for the
bids, and backs the hand's worth (the score-aware utility of :mod:`engine.bot.evaluate`)
up the path, each move scored for the seat that made it. The seat's own later moves are
then the same for all the deals it cannot tell apart.

The deals are a pool of ``config.max_samples`` hands drawn once per decision by ``draw``
(the level's sampler: at ``hard``, inference from the opponent's bid and follows), taken
in turn by the iterations. The card played is the root's most visited move, the cheapest
among equals. Raises nothing.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from engine.cards import card_indexes
from engine.fast import greedy_playout
from engine.tricks import legal_play_mask, trick_winner

__all__ = ["EXPLORATION", "tree_card"]

EXPLORATION = 0.7
"""UCB1's exploration constant (worths lie in 0..1)."""


class _Move:
    """A move in the tree: the seat that made it, its visits, how often it was legal when
    its parent was reached, the sum of its worths to that seat, and the moves after it."""

    __slots__ = ("available", "moves", "seat", "visits", "worth")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.visits = 0
        self.available = 1
        self.worth = 0.0
        self.moves: dict[int, _Move] = {}


def tree_card(
    hand: int,
    trick_card: int,
    spades_broken: bool,
    won: tuple[int, int],
    modes: Sequence[int],
    util: Sequence[float],
    draw: Callable[[], int],
    rng: random.Random,
    iterations: int,
    pool_size: int,
) -> int:
    """The card (an index of ``hand``) the tree search plays for seat 0.

    ``trick_card`` is the opponent's lead of the current trick (``-1``: seat 0 leads);
    ``won`` the tricks each seat has taken; ``modes`` and ``util`` are
    :func:`engine.bot.evaluate.modes_table` and :func:`~engine.bot.evaluate.utility_table`
    for seat 0; ``draw`` returns a hand for seat 1 consistent with what seat 0 knows, and
    is called ``pool_size`` times; ``rng`` picks among untried moves; ``iterations``
    walks of the tree are made (at least one). Raises nothing.
    """
    pool = [draw() for _ in range(max(1, pool_size))]
    root = _Move(1)
    root_leader = 1 if trick_card >= 0 else 0
    explore = EXPLORATION
    log = math.log
    sqrt = math.sqrt
    for step in range(max(1, iterations)):
        h0, h1 = hand, pool[step % len(pool)]
        card, leader, broken = trick_card, root_leader, spades_broken
        w0, w1 = won
        node = root
        path = [root]
        while h0 or h1:
            seat = leader if card < 0 else 1 - leader
            options = card_indexes(
                legal_play_mask(h0 if seat == 0 else h1, card // 13 if card >= 0 else -1, broken)
            )
            moves = node.moves
            untried = []
            for option in options:
                child = moves.get(option)
                if child is None:
                    untried.append(option)
                else:
                    child.available += 1
            if untried:
                move = untried[rng.randrange(len(untried))]
                node = moves[move] = _Move(seat)
            else:
                best = -1.0
                move = options[0]
                for option in options:
                    child = moves[option]
                    score = child.worth / child.visits + explore * sqrt(
                        log(child.available) / child.visits
                    )
                    if score > best:
                        best, move = score, option
                node = moves[move]
            path.append(node)
            if seat == 0:
                h0 &= ~(1 << move)
            else:
                h1 &= ~(1 << move)
            if card < 0:
                card = move
            else:
                broken = broken or card // 13 == 3 or move // 13 == 3
                winner = trick_winner(leader, card, move)
                if winner == 0:
                    w0 += 1
                else:
                    w1 += 1
                leader, card = winner, -1
            if untried:
                break
        if h0 or h1:
            w0 = greedy_playout(h0, h1, leader, card, broken, w0, w1, modes)[0]
        worth = util[w0]
        for visited in path[1:]:
            visited.visits += 1
            visited.worth += worth if visited.seat == 0 else 1.0 - worth
    moves = root.moves
    return max(moves, key=lambda m: (moves[m].visits, -(m % 13), m // 13 != 3))
