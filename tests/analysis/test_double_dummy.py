"""The "with all cards shown" figures against an independent brute force on small endgames.

The brute force is plain minimax over every legal card (no pruning, no transposition
table, no equivalent cards), built on the engine's own rules (``legal_play_mask``,
``trick_winner``, ``score_seat``) rather than on the solver the analysis uses.
"""

from __future__ import annotations

from functools import cache

from engine import GameState, Phase, Play, PlayerView, legal_play_mask, score_seat, trick_winner
from engine.analysis import judge_play_hindsight
from engine.analysis.review import dd_tricks
from engine.cards import SPADES, card_mask, cards_in

from .helpers import CLASSIC, FIVE_HUNDRED, play


def _brute(
    hands: tuple[int, int], leader: int, trick: tuple[int, ...], broken: bool, won: int, value
) -> tuple[float, ...]:
    """Minimax value for seat 0 (maximising ``value(final tricks of seat 0)``)."""

    @cache
    def search(h0: int, h1: int, lead: int, card: int, brk: bool, w: int) -> tuple[float, ...]:
        if card < 0 and not (h0 | h1):
            return value(w)
        player = lead if card < 0 else 1 - lead
        held = h0 if player == 0 else h1
        legal = legal_play_mask(held, -1 if card < 0 else card // 13, brk)
        results = []
        for move in cards_in(legal):
            n0 = h0 & ~(1 << move) if player == 0 else h0
            n1 = h1 & ~(1 << move) if player == 1 else h1
            if card < 0:
                results.append(search(n0, n1, lead, int(move), brk, w))
            else:
                winner = trick_winner(lead, card, int(move))
                now = brk or move.suit == SPADES or card // 13 == SPADES
                results.append(search(n0, n1, winner, -1, now, w + (winner == 0)))
        return max(results) if player == 0 else min(results)

    return search(hands[0], hands[1], leader, trick[0] if trick else -1, broken, won)


def _endgames(rules, name: object, tricks_left: int) -> list[tuple[PlayerView, int]]:
    """Every decision with choice of either seat in the last ``tricks_left`` tricks of
    the first two hands: ``(view, opponent's actual hand)``."""
    found: list[tuple[PlayerView, int]] = []

    def watch(state: GameState, seat, view: PlayerView, action):
        late = view.phase is Phase.PLAY and len(view.tricks) >= 13 - tricks_left
        if late and len(view.legal_actions()) > 1:
            found.append((view, card_mask(state.hand_of(1 - seat))))
        return action

    play(rules, name, override=watch, stop=lambda s: len(s.hand_results) >= 2)
    return found


def _check(view: PlayerView, opponent: int) -> int:
    me = view.seat
    assert me is not None
    opp = 1 - me
    rules = view.rules

    def margin(mine: int) -> tuple[float, ...]:
        # the same order the analysis uses: the hand's margin, then more tricks
        theirs = 13 - mine
        points = score_seat(rules, view.bids[me], bool(view.blind_nil[me]), mine, view.bags[me])
        other = score_seat(rules, view.bids[opp], bool(view.blind_nil[opp]), theirs, view.bags[opp])
        return (float(points[0] - other[0]), float(mine))

    won = view.tricks_won[me]
    checked = 0
    per_card = {}
    for card in view.legal_actions():
        assert isinstance(card, Play)
        move = int(card.card)
        mine = view.hand_mask & ~(1 << move)
        if view.current_trick:
            first = int(view.current_trick[0])
            winner = trick_winner(1, first, move)
            broken = view.spades_broken or move // 13 == SPADES or first // 13 == SPADES
            per_card[move] = _brute(
                (mine, opponent), winner, (), broken, won + (winner == 0), margin
            )
        else:
            per_card[move] = _brute((mine, opponent), 0, (move,), view.spades_broken, won, margin)
        hindsight = judge_play_hindsight(view, move, opponent)
        assert (hindsight.made_points, hindsight.made_tricks) == per_card[move]
        checked += 1
    best = max(per_card.values())
    assert (hindsight.best_points, hindsight.best_tricks) == best
    assert per_card[int(hindsight.best_action.card)] == best  # type: ignore[union-attr]
    return checked


def test_play_hindsight_equals_brute_force_on_small_endgames() -> None:
    checked = 0
    for rules, name in ((CLASSIC, "dd-a"), (CLASSIC, "dd-b"), (FIVE_HUNDRED, "dd-c")):
        for view, opponent in _endgames(rules, name, 4):
            checked += _check(view, opponent)
    assert checked >= 40


def test_hand_tricks_equal_brute_force() -> None:
    compared = 0
    for view, opponent in _endgames(CLASSIC, "dd-d", 4):
        if view.current_trick or len(view.tricks) != 9:
            continue
        # a fresh four-trick deal: both remaining hands, spades broken or not as they are
        for seat_leads in (True, False):
            mine = view.hand_mask
            leader = 0 if seat_leads else 1
            expected = _brute((mine, opponent), leader, (), False, 0, lambda taken: (float(taken),))
            assert (float(dd_tricks(mine, opponent, seat_leads)),) == expected
            compared += 1
    assert compared >= 2
