"""A textbook information-set MCTS player (a reference opponent, not a bot level).

    player = IsmctsPlayer(seed=7)
    action = player.choose(view)

Card play is single-observer ISMCTS (Cowling, Powley and Whitehouse 2012): one tree of
moves for the rest of the hand, shared by every iteration; each iteration draws a
determinisation (the opponent's hand, consistent with the seat's view), walks the tree
choosing among the moves *available in that determinisation* by UCB1 with availability
counts (a child's exploration term uses how often it was available, not the parent's
visits), expands one untried move, plays the rest of the hand out and backs the result
up, each node scored for the seat that made its move. The card played is the root's
most visited child. The playout is the greedy full-information policy of
:mod:`engine.fast` in each seat's mood for the bids (``rollout="greedy"``, the default)
or uniformly random legal cards (``rollout="random"``). The result of a hand is its
score-aware worth (:func:`engine.bot.evaluate.utility_table`, about the chance to win the
game), so bags, sets and the target count.

Bidding is Monte Carlo: draw the opponent's hand many times, play each deal out with the
greedy policy once taking tricks and once ducking them (a nil), and bid what has the best
expected points (:func:`bench.reference.common.best_bid`).

Effort is a fixed count of iterations (no clock), so a decision is reproducible from the
seed. Errors: see :mod:`bench.reference.common`.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Final

from bench.reference.common import ReferencePlayer, ReferencePlayerError, best_bid
from engine.bot.evaluate import modes_table, utility_table
from engine.bot.knowledge import Knowledge, sample_hand
from engine.cards import SUIT_MASKS
from engine.fast import greedy_playout, random_playout
from engine.game import PlayerView, legal_play_mask

__all__ = ["IsmctsPlayer"]

ITERATIONS: Final = 20_000
"""Iterations per card decision at full effort, set so that its p95 CPU time matches
``hard``'s as served when both are timed in one run of ``bench/decisions.py`` (26,000
until the fifteenth round of docs/bot-rounds.md, about 1.3 times ``hard``'s)."""
BID_SAMPLES: Final = 4000
"""Sampled deals per bid at full effort."""
EXPLORATION: Final = 0.7
"""UCB1's exploration constant (rewards lie in 0..1)."""

_NOT_SPADES = SUIT_MASKS[0] | SUIT_MASKS[1] | SUIT_MASKS[2]


class _Node:
    """One move in the tree: who made it, its visits, availability and reward sum."""

    __slots__ = ("available", "children", "player", "reward", "visits")

    def __init__(self, player: int) -> None:
        self.player = player
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class IsmctsPlayer(ReferencePlayer):
    """Single-observer ISMCTS card play and Monte-Carlo bids; see the module docstring.

    ``rollout`` is ``"greedy"`` or ``"random"``; raises
    :class:`~bench.reference.common.ReferencePlayerError` for another.
    """

    name = "ismcts"

    def __init__(
        self, seed: int | None = None, iterations: int | None = None, rollout: str = "greedy"
    ) -> None:
        super().__init__(seed, iterations)
        if rollout not in ("greedy", "random"):
            raise ReferencePlayerError(f"unknown rollout {rollout!r}: greedy or random")
        self.rollout = rollout
        self.play_iterations = iterations if iterations is not None else ITERATIONS
        scale = self.play_iterations / ITERATIONS
        self.bid_samples = max(20, round(BID_SAMPLES * min(1.0, scale)))

    def bid(self, view: PlayerView, know: Knowledge) -> int:
        rules = view.rules
        me = know.me
        leader = 0 if view.first_bidder == me else 1
        opp_bid = view.bids[know.opp]
        opp_nil = bool(view.blind_nil[know.opp]) or opp_bid == 0
        natural_modes = modes_table((13, 0 if opp_nil else 13))
        nil_modes = modes_table((0, 0 if opp_nil else 13))
        outcomes: Counter[tuple[int, int]] = Counter()
        for _ in range(self.bid_samples):
            other = sample_hand(know, self.rng)
            natural = greedy_playout(know.hand, other, leader, -1, False, 0, 0, natural_modes)
            ducked = natural
            if rules.nil:
                ducked = greedy_playout(know.hand, other, leader, -1, False, 0, 0, nil_modes)
            outcomes[(natural[0], ducked[0])] += 1
        return best_bid(rules, view.bags[me], outcomes)

    def play(self, view: PlayerView, know: Knowledge) -> int:
        me, opp = know.me, know.opp
        hand = know.hand
        legal = legal_play_mask(hand, view.lead_suit, view.spades_broken)
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1
        bids = (view.bids[me], view.bids[opp])
        blind = (bool(view.blind_nil[me]), bool(view.blind_nil[opp]))
        scores = (view.scores[me], view.scores[opp])
        bags = (view.bags[me], view.bags[opp])
        # in the search the player is seat 0
        util = utility_table(view.rules, scores, bags, bids, blind, 0)
        modes = modes_table(bids)
        trick_card = int(view.current_trick[0]) if view.current_trick else -1
        leader = 1 if trick_card >= 0 else 0
        won0, won1 = view.tricks_won[me], view.tricks_won[opp]
        root = _Node(1)
        rng = self.rng
        greedy = self.rollout == "greedy"
        explore = EXPLORATION
        for _ in range(self.play_iterations):
            h0, h1 = hand, sample_hand(know, rng)
            card, lead, broken, w0, w1 = trick_card, leader, view.spades_broken, won0, won1
            node = root
            path = [root]
            while h0 or h1:
                player = lead if card < 0 else 1 - lead
                held = h0 if player == 0 else h1
                if card < 0:
                    moves = held if broken or not held & _NOT_SPADES else held & _NOT_SPADES
                else:
                    moves = held & SUIT_MASKS[card // 13] or held
                options = _cards(moves)
                children = node.children
                untried = [move for move in options if move not in children]
                for move in options:
                    if move in children:
                        children[move].available += 1
                if untried:
                    move = untried[rng.randrange(len(untried))]
                    child = _Node(player)
                    child.available = 1
                    children[move] = child
                else:
                    best_score = -1.0
                    move = options[0]
                    for option in options:
                        candidate = children[option]
                        score = candidate.reward / candidate.visits + explore * math.sqrt(
                            math.log(candidate.available) / candidate.visits
                        )
                        if score > best_score:
                            best_score, move = score, option
                    child = children[move]
                path.append(child)
                node = child
                if player == 0:
                    h0 &= ~(1 << move)
                else:
                    h1 &= ~(1 << move)
                if card < 0:
                    card = move
                else:
                    lead_suit, reply_suit = card // 13, move // 13
                    if reply_suit == 3 or lead_suit == 3:
                        broken = True
                    if reply_suit == lead_suit:
                        winner = lead if card > move else player
                    else:
                        winner = player if reply_suit == 3 else lead
                    if winner == 0:
                        w0 += 1
                    else:
                        w1 += 1
                    lead, card = winner, -1
                if untried:
                    break
            if h0 or h1 or card >= 0:
                if greedy:
                    w0 = greedy_playout(h0, h1, lead, card, broken, w0, w1, modes)[0]
                else:
                    w0 = random_playout([h0, h1], lead, card, broken, [w0, w1], rng)[0]
            reward = util[w0]
            for visited in path[1:]:
                visited.visits += 1
                visited.reward += reward if visited.player == 0 else 1.0 - reward
        # the most visited move; ties go to the lower card index
        return max(sorted(root.children), key=lambda move: root.children[move].visits)
