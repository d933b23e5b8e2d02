"""The fast path for search: play-phase playouts and an exact solver on int-bitmask hands.

The playouts are :mod:`engine.playout`'s, re-exported here; the solver is this module's.

No objects, no events, no checks: the caller passes a consistent position. Used by the
bot's search and measured by ``bench/engine.py``::

    won = random_playout(hands=[mask0, mask1], leader=0, trick_card=-1,
                         spades_broken=False, tricks_won=[0, 0], rng=random.Random(7))

``trick_card`` is the card the leader already played to the current trick (``-1`` if
none). Returns the final trick counts ``(seat 0, seat 1)``.

Besides the uniformly random playout there are:

- :func:`greedy_playout`: both seats play a fast full-information heuristic. Each seat is
  in one of two moods at every trick, given by a ``modes`` table indexed by
  ``won0 * 14 + won1``: bit 0 set when seat 0 wants tricks, bit 1 when seat 1 does. A
  seat that wants tricks cashes sure winners, wins cheaply and ruffs with its lowest
  spade; one that does not (a nil, a seat avoiding bags, a seat setting the other's nil)
  ducks under with its highest losing card and leads into the other seat's strength.
- :func:`solve_bounded`: the same with a node budget, for a predictable worst case.
- :func:`solve`: exact minimax (alpha-beta with a transposition table and equivalent-card
  pruning) of the rest of the hand, where the value of a finished hand is
  ``utility[final tricks of seat 0]``; seat 0 maximises it and seat 1 minimises it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.cards import SUIT_MASKS
from engine.playout import greedy_card, greedy_playout, random_playout

__all__ = [
    "greedy_card",
    "greedy_playout",
    "random_playout",
    "solve",
    "solve_bounded",
]

_SUITS: Final = SUIT_MASKS
_NOT_SPADES: Final = SUIT_MASKS[0] | SUIT_MASKS[1] | SUIT_MASKS[2]

# ---------------------------------------------------------------------------------------
# The exact solver (the playouts live in engine.playout and are re-exported here).


def _representatives(cards: int, other: int, trick_card: int) -> list[int]:
    """One card per run of equivalent cards of ``cards``, high first within each suit.

    Two cards of one suit are equivalent when no card of ``other`` (nor the trick card)
    lies between them; cards already played do not separate them.
    """
    result: list[int] = []
    separators = other if trick_card < 0 else other | 1 << trick_card
    while cards:
        top = cards.bit_length() - 1
        result.append(top)
        below = separators & ((1 << top) - 1) & _SUITS[top // 13]
        if below:
            # skip the run: keep the cards below the highest separator under ``top``,
            # and the cards of lower suits
            cut = below.bit_length() - 1
            cards &= (1 << cut) - 1
        else:
            cards &= (1 << (top - top % 13)) - 1
    return result


def solve(
    hand0: int,
    hand1: int,
    leader: int,
    trick_card: int,
    spades_broken: bool,
    won0: int,
    utility: Sequence[float],
) -> float:
    """The minimax value of the position: seat 0 maximises ``utility[its final tricks]``.

    ``trick_card`` is the leader's card already on the table (``-1`` if none); ``won0`` is
    seat 0's tricks so far. Exact; meant for the last few tricks (unbounded effort: see
    :func:`solve_bounded` for a node budget).
    """
    return _solve(hand0, hand1, leader, trick_card, spades_broken, won0, utility, None)[0]


def solve_bounded(
    hand0: int,
    hand1: int,
    leader: int,
    trick_card: int,
    spades_broken: bool,
    won0: int,
    utility: Sequence[float],
    max_nodes: int,
) -> tuple[float, int]:
    """:func:`solve` with at most ``max_nodes`` searched nodes; returns ``(value, nodes)``.

    Once the budget is spent, every position the search still reaches is valued by
    playing it out with the greedy policy (each seat wanting the next trick exactly when
    it moves the utility its way), so the cost of a call is bounded and its value depends
    only on its arguments (reproducible). With a budget the search does not exhaust, the
    value is exact. ``nodes`` counts the searched nodes (at most ``max_nodes``). Raises
    :class:`ValueError` if ``max_nodes < 1``.
    """
    if max_nodes < 1:
        raise ValueError(f"max_nodes must be at least 1, not {max_nodes}")
    return _solve(hand0, hand1, leader, trick_card, spades_broken, won0, utility, max_nodes)


def _greedy_modes(util: Sequence[float]) -> list[int]:
    """Greedy moods for the utility: both seats fight for a trick that raises seat 0's
    utility (seat 1 to deny it) and both duck one that lowers it."""
    size = len(util)
    modes = [0] * (14 * 14)
    for won0 in range(14):
        up = won0 + 1 < size and util[won0 + 1] > util[min(won0, size - 1)]
        for won1 in range(14):
            modes[won0 * 14 + won1] = 3 if up else 0
    return modes


_Tables = tuple[list[float], list[list[float]], list[list[float]], list[int]]
_TABLES: dict[tuple[float, ...], _Tables] = {}
_TABLES_KEPT = 256


def _tables(utility: Sequence[float]) -> _Tables:
    """The utility as a list, its range bounds and greedy moods, computed once per utility.

    A card decision runs thousands of solves with one utility table: building the bounds
    for each solve cost more than most of the small searches themselves.
    """
    key = tuple(utility)
    found = _TABLES.get(key)
    if found is not None:
        return found
    util = list(key)
    size = len(util)
    # range bounds: best and worst utility reachable with final tricks in [low, high]
    top = [[0.0] * size for _ in range(size)]
    bottom = [[0.0] * size for _ in range(size)]
    for low in range(size):
        best = worst = util[low]
        for high in range(low, size):
            value = util[high]
            if value > best:
                best = value
            if value < worst:
                worst = value
            top[low][high] = best
            bottom[low][high] = worst
    if len(_TABLES) >= _TABLES_KEPT:
        _TABLES.clear()
    found = (util, top, bottom, _greedy_modes(util))
    _TABLES[key] = found
    return found


def _solve(
    hand0: int,
    hand1: int,
    leader: int,
    trick_card: int,
    spades_broken: bool,
    won0: int,
    utility: Sequence[float],
    max_nodes: int | None,
) -> tuple[float, int]:
    util, top, bottom, modes = _tables(utility)
    size = len(util)
    table: dict[tuple[int, int, int, int, bool, int], tuple[float, float]] = {}
    infinity = float("inf")
    budget = max_nodes if max_nodes is not None else -1
    counter = [0]

    def search(
        h0: int, h1: int, lead: int, card: int, broken: bool, won: int, alpha: float, beta: float
    ) -> float:
        if counter[0] == budget:
            # budget spent: value the rest by the greedy playout (no node counted)
            final = greedy_playout(h0, h1, lead, card, broken, won, 0, modes)[0]
            return util[final if final < size else size - 1]
        counter[0] += 1
        if card < 0:
            left = h0.bit_count()
            if left == 0:
                return util[won]
            player = lead
        else:
            player = 1 - lead
            left = (h1 if lead == 0 else h0).bit_count()
        hi = won + left
        if hi >= size:
            hi = size - 1
        upper_bound = top[won][hi]
        lower_bound = bottom[won][hi]
        if upper_bound <= alpha:
            return upper_bound
        if lower_bound >= beta:
            return lower_bound
        if alpha < lower_bound:
            alpha = lower_bound
        if beta > upper_bound:
            beta = upper_bound
        key = (h0, h1, lead, card, broken, won)
        entry = table.get(key)
        if entry is not None:
            low, high = entry
            if low >= beta:
                return low
            if high <= alpha:
                return high
            if low == high:
                return low
            if low > alpha:
                alpha = low
            if high < beta:
                beta = high
        start_alpha, start_beta = alpha, beta
        held = h0 if player == 0 else h1
        other = h1 if player == 0 else h0
        if card < 0:
            legal = held if broken or not (held & _NOT_SPADES) else held & _NOT_SPADES
        else:
            legal = held & _SUITS[card // 13] or held
        moves = _representatives(legal, other, card)
        if len(moves) > 1:
            value_lo = util[won]
            value_hi = util[hi]
            want = value_hi > value_lo if player == 0 else value_hi < value_lo
            first = greedy_card(held, other, card, broken, want, not want)
            if first in moves and moves[0] != first:
                moves.remove(first)
                moves.insert(0, first)
        maximise = player == 0
        best = -infinity if maximise else infinity
        for move in moves:
            if card < 0:
                if player == 0:
                    value = search(h0 & ~(1 << move), h1, lead, move, broken, won, alpha, beta)
                else:
                    value = search(h0, h1 & ~(1 << move), lead, move, broken, won, alpha, beta)
            else:
                lead_suit = card // 13
                reply_suit = move // 13
                now_broken = broken or reply_suit == 3 or lead_suit == 3
                if reply_suit == lead_suit:
                    winner = lead if card > move else player
                else:
                    winner = player if reply_suit == 3 else lead
                n0 = h0 & ~(1 << move) if player == 0 else h0
                n1 = h1 & ~(1 << move) if player == 1 else h1
                value = search(n0, n1, winner, -1, now_broken, won + (winner == 0), alpha, beta)
            if maximise:
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
            else:
                if value < best:
                    best = value
                    if value < beta:
                        beta = value
            if alpha >= beta:
                break
        if best <= start_alpha:
            table[key] = (entry[0] if entry else -infinity, best)
        elif best >= start_beta:
            table[key] = (best, entry[1] if entry else infinity)
        else:
            table[key] = (best, best)
        return best

    value = search(hand0, hand1, leader, trick_card, spades_broken, won0, -infinity, infinity)
    return value, counter[0]
