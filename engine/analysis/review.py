"""A whole game for one seat: walk the record, judge every decision, sum up each hand.

    analysis = analyze_record(record, seat=0, level="normal", progress=None)

The record is replayed (and checked) with :func:`engine.record.replay`; then it is walked
again action by action, and before each action of the analysed seat its
:class:`~engine.game.PlayerView` is taken. The "with what you knew" judgement gets that
view and a seed made of public facts only (the hand number and the decision's number);
the "with all cards shown" judgement also gets the opponent's actual hand.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from engine.actions import Bid, BlindNil, Discard, Exchange, Keep, Play, PlayerAction
from engine.analysis import botlink
from engine.analysis.judge import judge_bid_hindsight, judge_known, judge_play_hindsight
from engine.analysis.model import (
    ANALYSIS_LEVELS,
    DEFAULT_LEVEL,
    AnalysisError,
    AnalysisLevel,
    DecisionAnalysis,
    DecisionKind,
    GameAnalysis,
    HandAnalysis,
    Hindsight,
    Verdict,
    accuracy_of,
    verdict_for,
)
from engine.cards import ALL_CARDS_MASK, card_mask
from engine.game import GameState, HandResult, Phase, PlayerView
from engine.record import replay

__all__ = [
    "AVERAGE_DD_TRICKS",
    "Progress",
    "analyze_record",
    "average_dd_tricks",
    "dd_tricks",
    "known_seed",
]

Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` after each judged decision."""

_TRICK_UTILITY = [float(taken) for taken in range(14)]

AVERAGE_DD_TRICKS: Final[dict[bool, float]] = {True: 6.65, False: 6.35}
"""Mean double-dummy tricks of a drafted hand against a drafted hand, by whether it has
the lead: ``average_dd_tricks(300, True)`` gave 6.653 (``bench/analysis.py --baseline``
measures it again); the two figures add up to 13 since both hands are drawn alike."""


def known_seed(level: str, hand_number: int, decision: int) -> str:
    """The sampling seed of a decision: public facts only (no card of the deal)."""
    return f"analysis/{level}/{hand_number}/{decision}"


def dd_tricks(hand: int, opponent_hand: int, seat_leads: bool) -> int:
    """Tricks ``hand`` takes double dummy from the first lead, both seats playing for tricks."""
    leader = 0 if seat_leads else 1
    return round(botlink.solve(hand, opponent_hand, leader, -1, False, 0, _TRICK_UTILITY))


def _drafted_cards(pool: int, count: int, rng: random.Random) -> int:
    """``count`` cards of ``pool`` drawn like drafted hands (high cards and spades likelier)."""
    keyed = []
    rest = pool
    while rest:
        low = rest & -rest
        rest ^= low
        keyed.append((rng.random() ** (1.0 / botlink.SAMPLE_WEIGHT[low.bit_length() - 1]), low))
    keyed.sort(reverse=True)
    hand = 0
    for _, bit in keyed[:count]:
        hand |= bit
    return hand


def average_dd_tricks(deals: int, seat_leads: bool, seed: str = "baseline") -> float:
    """Mean double-dummy tricks of a drafted hand against a drafted hand, over ``deals``.

    26 cards are drawn like two drafted hands (high cards and spades likelier) and split
    at random, so both seats' hands come from one distribution and the only difference
    left is the lead. Slow (a full exact solve per deal): :data:`AVERAGE_DD_TRICKS` holds
    the figure measured once.
    """
    rng = random.Random(f"{seed}/{seat_leads}")
    total = 0
    for _ in range(deals):
        both = _drafted_cards(ALL_CARDS_MASK, 26, rng)
        cards = [1 << card for card in range(52) if both >> card & 1]
        rng.shuffle(cards)
        mine = sum(cards[:13])
        total += dd_tricks(mine, both & ~mine, seat_leads)
    return total / deals


@dataclass(slots=True)
class _Step:
    index: int
    hand_number: int
    kind: DecisionKind
    view: PlayerView
    action: PlayerAction
    opponent_hand: int


@dataclass(slots=True)
class _HandFacts:
    number: int
    start_hands: tuple[int, int] | None = None
    seat_leads: bool = False
    result: HandResult | None = None


def _kind(action: PlayerAction) -> DecisionKind:
    if isinstance(action, Play):
        return DecisionKind.PLAY
    if isinstance(action, Bid):
        return DecisionKind.BID
    if isinstance(action, Keep | Discard):
        return DecisionKind.DRAFT
    if isinstance(action, Exchange):
        return DecisionKind.EXCHANGE
    assert isinstance(action, BlindNil)
    return DecisionKind.BLIND_NIL


def _walk(final: GameState, seat: int) -> tuple[list[_Step], dict[int, _HandFacts]]:
    state = GameState(final.rules)
    steps: list[_Step] = []
    hands: dict[int, _HandFacts] = {}
    opp = 1 - seat
    for actor, action in final.actions:
        if actor is None:  # chance (one Deal, or however many steps a hand is dealt in)
            state.apply(None, action)
            if state.hand_number not in hands:
                hands[state.hand_number] = _HandFacts(state.hand_number)
            continue
        assert isinstance(action, BlindNil | Keep | Discard | Exchange | Bid | Play)
        facts = hands[state.hand_number]
        if state.phase is Phase.PLAY and facts.start_hands is None:
            view = state.view_for(seat)
            facts.start_hands = (view.hand_mask, card_mask(state.hand_of(opp)))
            facts.seat_leads = view.first_bidder == seat
        if actor == seat:
            steps.append(
                _Step(
                    index=len(steps),
                    hand_number=state.hand_number,
                    kind=_kind(action),
                    view=state.view_for(seat),
                    action=action,
                    opponent_hand=card_mask(state.hand_of(opp)),
                )
            )
        state.apply(actor, action)
    for result in final.hand_results:
        hands[result.hand_number].result = result
    return steps, hands


def _judge(step: _Step, level: AnalysisLevel, seat: int, facts: _HandFacts) -> DecisionAnalysis:
    view = step.view
    knew = judge_known(
        view, step.action, level, known_seed(level.name, step.hand_number, step.index)
    )
    hindsight: Hindsight | None = None
    trick = 0
    if isinstance(step.action, Play):
        trick = len(view.tricks) + 1
        if len(view.legal_actions()) > 1:
            hindsight = judge_play_hindsight(view, int(step.action.card), step.opponent_hand)
    elif isinstance(step.action, Bid) and facts.result is not None:
        result = facts.result
        hindsight = judge_bid_hindsight(
            view,
            step.action.tricks,
            step.opponent_hand,
            result.bids[1 - seat],
            result.blind_nil[1 - seat],
        )
    return DecisionAnalysis(
        index=step.index,
        hand_number=step.hand_number,
        kind=step.kind,
        action=step.action,
        trick=trick,
        choices=len(view.legal_actions()),
        knew=knew,
        hindsight=hindsight,
        verdict=Verdict.FORCED if knew is None else verdict_for(knew.loss),
        offered=view.offered if step.kind is DecisionKind.DRAFT else None,
    )


def _costliest(decisions: list[DecisionAnalysis]) -> tuple[DecisionAnalysis, ...]:
    judged = [d for d in decisions if d.knew is not None and d.loss > 0.0]
    judged.sort(key=lambda d: (-d.loss, d.index))
    return tuple(judged[:3])


def analyze_record(
    record: dict[str, Any],
    seat: int,
    level: str = DEFAULT_LEVEL,
    progress: Progress | None = None,
) -> GameAnalysis:
    """Judge every decision of ``seat`` in the game ``record`` (finished or not).

    ``level`` is a key of :data:`~engine.analysis.model.ANALYSIS_LEVELS`. ``progress`` is
    called after each decision. Raises :class:`~engine.analysis.model.AnalysisError` for
    a bad seat or level and :class:`~engine.errors.RecordError` for a bad record.
    """
    if seat not in (0, 1) or isinstance(seat, bool):
        raise AnalysisError(f"no such seat: {seat!r} (seats are 0 and 1)")
    config = ANALYSIS_LEVELS.get(level)
    if config is None:
        raise AnalysisError(
            f"unknown analysis level {level!r}; levels: {', '.join(ANALYSIS_LEVELS)}"
        )
    final = replay(record)
    steps, hands = _walk(final, seat)
    total = len(steps)
    judged: list[DecisionAnalysis] = []
    for done, step in enumerate(steps, 1):
        judged.append(_judge(step, config, seat, hands[step.hand_number]))
        if progress is not None:
            progress(done, total)
    summaries = []
    for number in sorted(hands):
        facts = hands[number]
        decisions = [d for d in judged if d.hand_number == number]
        result = facts.result
        dd: int | None = None
        average: float | None = None
        if facts.start_hands is not None:
            dd = dd_tricks(*facts.start_hands, facts.seat_leads)
            average = AVERAGE_DD_TRICKS[facts.seat_leads]
        expected = next(
            (d.knew.expected_tricks for d in decisions if d.kind is DecisionKind.BID and d.knew),
            None,
        )
        bid = blind = None
        if result is not None:
            bid, blind = result.bids[seat], result.blind_nil[seat]
        else:
            bid = next((d.action.tricks for d in decisions if isinstance(d.action, Bid)), None)
            blind = any(isinstance(d.action, BlindNil) and d.action.declare for d in decisions)
        summaries.append(
            HandAnalysis(
                hand_number=number,
                bid=bid,
                blind_nil=bool(blind),
                tricks=result.tricks[seat] if result else None,
                points=result.points[seat] if result else None,
                opponent_points=result.points[1 - seat] if result else None,
                expected_tricks=expected,
                dd_tricks=dd,
                average_dd_tricks=average,
                accuracy=accuracy_of([d.loss for d in decisions if d.knew is not None]),
                decisions=tuple(decisions),
                costliest=_costliest(decisions),
            )
        )
    return GameAnalysis(
        seat=seat,
        level=config.name,
        preset=final.rules.preset_name(),
        scores=(final.scores[0], final.scores[1]),
        winner=final.winner,
        hands=tuple(summaries),
        accuracy=accuracy_of([d.loss for d in judged if d.knew is not None]),
        costliest=_costliest(judged),
    )
