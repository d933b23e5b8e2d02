"""Every kind of decision is judged; levels, seats and thresholds behave as documented."""

from __future__ import annotations

import pytest

from engine import (
    Action,
    BlindNil,
    Exchange,
    GameState,
    Phase,
    PlayerView,
    RecordError,
    game_record,
)
from engine.analysis import (
    ANALYSIS_LEVELS,
    VERDICT_THRESHOLDS,
    AnalysisError,
    DecisionKind,
    Verdict,
    accuracy_of,
    analyze_record,
    judge_known,
    verdict_for,
)

from .helpers import CLASSIC, FIVE_HUNDRED, play


def _seat_0_goes_blind(state: GameState, seat: int, view: PlayerView, action: Action) -> Action:
    if seat == 0 and view.phase is Phase.BLIND_NIL:
        return BlindNil(True)
    if seat == 1 and view.phase is Phase.BLIND_NIL:
        return BlindNil(False)
    return action


def test_blind_nil_and_its_exchange_are_judged() -> None:
    state = play(
        FIVE_HUNDRED, "blind", override=_seat_0_goes_blind, stop=lambda s: bool(s.hand_results)
    )
    analysis = analyze_record(game_record(state), 0, level="easy")
    kinds = [d.kind for d in analysis.decisions]
    assert kinds[0] is DecisionKind.BLIND_NIL
    assert kinds.count(DecisionKind.DRAFT) == 13
    assert kinds.count(DecisionKind.EXCHANGE) == 1
    assert DecisionKind.BID not in kinds  # a blind nil seat does not bid
    blind = analysis.decisions[0]
    assert blind.action == BlindNil(True)
    assert blind.knew is not None and blind.knew.best_action == BlindNil(False)
    assert blind.verdict is Verdict.BLUNDER  # about 200 points given away on average
    [exchange] = [d for d in analysis.decisions if d.kind is DecisionKind.EXCHANGE]
    assert exchange.knew is not None
    assert exchange.knew.best >= exchange.knew.made and exchange.knew.loss >= 0.0
    # giving nothing instead is never judged better than the best exchange found
    exchange_view = _view_before_exchange(state)
    nothing = judge_known(exchange_view, Exchange(()), ANALYSIS_LEVELS["easy"], "x")
    assert nothing is not None and nothing.best >= nothing.made
    hand = analysis.hands[0]
    assert hand.blind_nil and hand.bid is None and hand.expected_tricks is None
    assert hand.tricks == state.hand_results[0].tricks[0]


def _view_before_exchange(state: GameState) -> PlayerView:
    again = GameState(state.rules)
    for seat, action in state.actions:
        if again.phase is Phase.EXCHANGE and again.current_player == 0:
            return again.view_for(0)
        again.apply(seat, action)
    raise AssertionError("no exchange in the game")


def test_declining_blind_nil_is_good() -> None:
    def decline(state: GameState, seat: int, view: PlayerView, action: Action) -> Action:
        return BlindNil(False) if view.phase is Phase.BLIND_NIL else action

    state = play(FIVE_HUNDRED, "decline", override=decline, stop=lambda s: s.phase is Phase.DRAFT)
    analysis = analyze_record(game_record(state), 1, level="easy")
    [decision] = analysis.decisions
    assert decision.kind is DecisionKind.BLIND_NIL and decision.verdict is Verdict.GOOD
    assert decision.loss == 0.0


def test_bad_seat_and_level_are_refused() -> None:
    record = game_record(play(CLASSIC, "errors", stop=lambda s: s.phase is Phase.DRAFT))
    with pytest.raises(AnalysisError, match="seat"):
        analyze_record(record, 2)
    with pytest.raises(AnalysisError, match="level"):
        analyze_record(record, 0, level="grandmaster")
    broken = dict(record, scores=[1, 2])
    with pytest.raises(RecordError):
        analyze_record(broken, 0)


def test_verdict_thresholds_and_accuracy() -> None:
    assert [verdict for verdict, _ in VERDICT_THRESHOLDS] == [
        Verdict.BLUNDER,
        Verdict.MISTAKE,
        Verdict.INACCURACY,
    ]
    assert verdict_for(0.0) is Verdict.GOOD
    assert verdict_for(3.99) is Verdict.GOOD
    assert verdict_for(4.0) is Verdict.INACCURACY
    assert verdict_for(11.99) is Verdict.INACCURACY
    assert verdict_for(12.0) is Verdict.MISTAKE
    assert verdict_for(29.99) is Verdict.MISTAKE
    assert verdict_for(30.0) is Verdict.BLUNDER
    assert accuracy_of([]) is None
    assert accuracy_of([0.0, 0.0]) == 100.0
    assert 30.0 < accuracy_of([20.0]) < 40.0  # type: ignore[operator]
    assert accuracy_of([0.0, 1000.0]) == pytest.approx(50.0)


def test_an_unfinished_game_is_analysed_up_to_where_it_stands() -> None:
    def five_tricks_in(state: GameState) -> bool:
        return len(state.view_for(0).tricks) >= 5

    state = play(CLASSIC, "unfinished", stop=five_tricks_in)
    analysis = analyze_record(game_record(state), 0, level="easy")
    seat_actions = [action for seat, action in state.actions if seat == 0]
    assert [d.action for d in analysis.decisions] == seat_actions
    [hand] = analysis.hands
    assert hand.tricks is None and hand.points is None
    assert hand.bid == state.view_for(0).bids[0]
    assert hand.dd_tricks is not None and 0 <= hand.dd_tricks <= 13
    [bid] = [d for d in analysis.decisions if d.kind is DecisionKind.BID]
    assert bid.knew is not None and bid.hindsight is None  # the hand is not over
    assert analysis.winner is None
    # the same record gives the same analysis (seeded from public facts only)
    assert analyze_record(game_record(state), 0, level="easy") == analysis


def test_a_hand_dealt_in_two_steps_is_analysed_like_one() -> None:
    state = play(CLASSIC, "two-step", two_step=True, stop=lambda s: s.phase is Phase.BIDDING)
    chance = [str(action).split()[0] for seat, action in state.actions if seat is None]
    assert chance == ["commit", "shuffle"]
    analysis = analyze_record(game_record(state), 1, level="easy")
    assert [d.action for d in analysis.decisions] == [a for s, a in state.actions if s == 1]
    assert [d.kind for d in analysis.decisions] == [DecisionKind.DRAFT] * 13
    assert all(d.knew is not None for d in analysis.decisions)
