"""An information-set endgame: the last few tricks solved without strategy fusion.

``hard`` values its cards in the last six tricks by solving every sampled deal exactly
with both hands in sight (:func:`engine.fast.solve_bounded`). Summed over the deals, that
credits the bot with a later card chosen for each deal apart, as if it would then know the
opponent's hand (*strategy fusion*): a line that leaves a guess for later looks as good as
one that needs none. :func:`infoset_values` instead solves the deals *together*: at every
later turn the bot plays one card for all the deals it cannot tell apart by then (the
same cards seen so far), the card best on their weighted sum; the opponent still plays
each deal apart, double dummy (its card minimises the exact value with both hands in
sight, the lowest among equals), as the per-deal solve has it play. So fog, which in the
playouts hides the other hand from a seat that leads, here hides the opponent's hand from
the bot at every later turn, exactly, while the opponent keeps its full sight (a
pessimistic opponent, as in the exact solve)::

    values = infoset_values(hand, moves, trick_card, broken, won, worlds, util)

``worlds`` maps each drawn opponent hand to its weight (how often it was drawn); each
value is the weighted *sum* over the worlds of the hand's worth ``util[final tricks]``.
:func:`solve_exact` is the plain memoised minimax it uses for the opponent's choices, and
:func:`draw_worlds` collects the sampled deals. The cost grows with the tricks left (the
bot's later turns) and the distinct worlds, so it is meant for the last three or four
tricks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.cards import card_indexes

__all__ = ["EndgameSolver", "draw_worlds", "infoset_values", "solve_exact"]

_SPADES = 3
_NOT_SPADES = (1 << 39) - 1
_SUIT = tuple(((1 << 13) - 1) << (13 * suit) for suit in range(4))


def _legal(held: int, card: int, broken: bool) -> int:
    """The cards of ``held`` that may be played on ``card`` (``-1``: leading)."""
    if card >= 0:
        return held & _SUIT[card // 13] or held
    if broken:
        return held
    return held & _NOT_SPADES or held


def _winner(leader: int, first: int, second: int) -> int:
    if first // 13 == second // 13:
        return leader if first > second else 1 - leader
    return 1 - leader if second // 13 == _SPADES else leader


def _broken(broken: bool, first: int, second: int) -> bool:
    return broken or first // 13 == _SPADES or second // 13 == _SPADES


def _cheap(card: int) -> tuple[int, bool]:
    """Order of cheapness among equal cards: lowest rank, then not a spade."""
    return card % 13, card // 13 == _SPADES


class EndgameSolver:
    """Exact values of small positions for one utility table ``util`` (index: seat 0's
    final tricks), memoised across calls (one solver per decision). Seat 0 maximises.

    ``solver.value(h0, h1, lead, card, broken, won)`` is the minimax value with both hands
    known (``card``: the leader's card on the table, ``-1`` if none; ``won``: seat 0's
    tricks so far). Raises ``IndexError`` if ``won`` runs past ``util``.
    """

    def __init__(self, util: Sequence[float]) -> None:
        self.util = list(util)
        self.memo: dict[tuple[int, int, int, int, bool, int], float] = {}

    def value(self, h0: int, h1: int, lead: int, card: int, broken: bool, won: int) -> float:
        """The exact minimax value of the position (see the class)."""
        key = (h0, h1, lead, card, broken, won)
        found = self.memo.get(key)
        if found is not None:
            return found
        if card < 0 and not h0 and not h1:
            result = self.util[won]
        else:
            player = lead if card < 0 else 1 - lead
            held = h0 if player == 0 else h1
            values = []
            for move in card_indexes(_legal(held, card, broken)):
                n0 = h0 & ~(1 << move) if player == 0 else h0
                n1 = h1 & ~(1 << move) if player == 1 else h1
                if card < 0:
                    values.append(self.value(n0, n1, lead, move, broken, won))
                else:
                    winner = _winner(lead, card, move)
                    now = _broken(broken, card, move)
                    values.append(self.value(n0, n1, winner, -1, now, won + (winner == 0)))
            result = max(values) if player == 0 else min(values)
        self.memo[key] = result
        return result

    def opponent_card(self, h0: int, h1: int, lead: int, card: int, broken: bool, won: int) -> int:
        """Seat 1's card (to lead if ``card < 0``, else to follow it): the one of least
        exact value for seat 0, the cheapest among equals."""
        best, best_value = -1, float("inf")
        for move in sorted(card_indexes(_legal(h1, card, broken)), key=_cheap):
            n1 = h1 & ~(1 << move)
            if card < 0:
                value = self.value(h0, n1, 1, move, broken, won)
            else:
                winner = _winner(lead, card, move)
                now = _broken(broken, card, move)
                value = self.value(h0, n1, winner, -1, now, won + (winner == 0))
            if value < best_value - 1e-12:
                best, best_value = move, value
        return best


def solve_exact(
    h0: int, h1: int, lead: int, card: int, broken: bool, won: int, util: Sequence[float]
) -> float:
    """The exact minimax value (seat 0 maximises ``util[its final tricks]``) of one
    position with both hands known; see :class:`EndgameSolver`. Raises ``IndexError`` if
    ``won`` runs past ``util``."""
    return EndgameSolver(util).value(h0, h1, lead, card, broken, won)


_Worlds = dict[int, float]


class _Infoset:
    """The bot's turns over a set of worlds it cannot tell apart (see the module)."""

    def __init__(self, solver: EndgameSolver) -> None:
        self.solver = solver

    def my_turn(self, h0: int, card: int, broken: bool, won: int, worlds: _Worlds) -> float:
        """Seat 0 to play (on ``card``, or leading): the best card for all the worlds."""
        return max(
            self.after_mine(h0, move, card, broken, won, worlds)
            for move in card_indexes(_legal(h0, card, broken))
        )

    def after_mine(
        self, h0: int, move: int, card: int, broken: bool, won: int, worlds: _Worlds
    ) -> float:
        """Weighted sum over ``worlds`` once seat 0 played ``move`` (on ``card``, or led)."""
        rest = h0 & ~(1 << move)
        if card >= 0:
            winner = _winner(1, card, move)
            now = _broken(broken, card, move)
            return self.next_trick(rest, winner, now, won + (winner == 0), worlds)
        groups: dict[int, _Worlds] = {}
        for h1, weight in worlds.items():
            reply = self.solver.opponent_card(rest, h1, 0, move, broken, won)
            group = groups.setdefault(reply, {})
            group[h1 & ~(1 << reply)] = weight
        total = 0.0
        for reply, group in groups.items():
            winner = _winner(0, move, reply)
            now = _broken(broken, move, reply)
            total += self.next_trick(rest, winner, now, won + (winner == 0), group)
        return total

    def next_trick(self, h0: int, leader: int, broken: bool, won: int, worlds: _Worlds) -> float:
        """Weighted sum over ``worlds`` at the start of a trick that ``leader`` leads."""
        if not h0:
            return self.solver.util[won] * sum(worlds.values())
        if leader == 0:
            return self.my_turn(h0, -1, broken, won, worlds)
        groups: dict[int, _Worlds] = {}
        for h1, weight in worlds.items():
            lead = self.solver.opponent_card(h0, h1, 1, -1, broken, won)
            group = groups.setdefault(lead, {})
            group[h1 & ~(1 << lead)] = weight
        return sum(self.my_turn(h0, lead, broken, won, group) for lead, group in groups.items())


def infoset_values(
    hand: int,
    moves: Sequence[int],
    trick_card: int,
    broken: bool,
    won: int,
    worlds: _Worlds,
    util: Sequence[float],
) -> list[float]:
    """Per card of ``moves`` (legal cards of ``hand``, seat 0's, to play on the
    opponent's ``trick_card`` or to lead if it is ``-1``), the weighted sum over
    ``worlds`` (opponent hand mask to weight) of the hand's final worth ``util[tricks]``,
    the bot choosing each later card once for all the worlds it cannot tell apart and the
    opponent playing each world double dummy. ``won`` is seat 0's tricks so far. Exact
    for the given worlds; raises ``IndexError`` if ``util`` is shorter than the tricks
    reachable."""
    search = _Infoset(EndgameSolver(util))
    return [search.after_mine(hand, move, trick_card, broken, won, worlds) for move in moves]


def draw_worlds(draw: Callable[[], int], count: int) -> _Worlds:
    """``count`` opponent hands from ``draw`` (one sampled hand a call), as hand mask to
    how often it was drawn. Raises what ``draw`` raises."""
    worlds: _Worlds = {}
    for _ in range(count):
        other = draw()
        worlds[other] = worlds.get(other, 0.0) + 1.0
    return worlds
