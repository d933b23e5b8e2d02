"""Verdicts on fixed records: a thrown trick is a blunder, an obvious keep is good."""

from __future__ import annotations

from engine import (
    Action,
    Card,
    Discard,
    GameState,
    Keep,
    Phase,
    Play,
    PlayerView,
    legal_play_mask,
    trick_winner,
)
from engine.analysis import (
    ANALYSIS_LEVELS,
    DecisionKind,
    Verdict,
    analyze_record,
    judge_known,
    judge_play_hindsight,
)
from engine.cards import card_mask, cards_in

from .helpers import CLASSIC, play, record_of

EASY = ANALYSIS_LEVELS["easy"]


def _hand_over(state: GameState) -> bool:
    return bool(state.hand_results)


class _ThrowATrick:
    """Seat 0 ducks, once, a trick it must win to make its bid (all cards shown)."""

    def __init__(self) -> None:
        self.thrown: tuple[int, Card] | None = None  # (trick number, card)

    def __call__(self, state: GameState, seat: int, view: PlayerView, action: Action) -> Action:
        if self.thrown is not None or seat != 0 or view.phase is not Phase.PLAY:
            return action
        bid = view.bids[0]
        if not view.current_trick or bid is None or bid < 2:
            return action
        led = view.current_trick[0]
        legal = legal_play_mask(view.hand_mask, led.suit, view.spades_broken)
        lower = 0
        for card in cards_in(legal):
            if trick_winner(1, int(led), int(card)) == 1:  # the opponent (leader) keeps it
                lower |= 1 << card
        if not lower or lower == legal:
            return action
        duck = cards_in(lower)[0]
        opponent = card_mask(state.hand_of(1))
        hindsight = judge_play_hindsight(view, int(duck), opponent)
        if hindsight.best_tricks >= bid > hindsight.made_tricks:
            self.thrown = (len(view.tricks) + 1, duck)
            return Play(duck)
        return action


def test_a_deliberately_thrown_trick_is_a_blunder() -> None:
    for name in range(40):
        thrower = _ThrowATrick()
        state = play(CLASSIC, ("throw", name), override=thrower, stop=_hand_over)
        if thrower.thrown is not None:
            break
    assert thrower.thrown is not None, "no position to throw a trick in 40 deals"
    trick, card = thrower.thrown
    analysis = analyze_record(record_of(state), 0, level="easy")
    [decision] = [d for d in analysis.decisions if d.kind is DecisionKind.PLAY and d.trick == trick]
    assert decision.action == Play(card)
    assert decision.verdict is Verdict.BLUNDER
    assert decision.knew is not None and decision.knew.loss >= 30.0
    assert decision.knew.best_action != Play(card)
    assert decision.hindsight is not None and decision.hindsight.tricks_lost >= 1
    assert decision in analysis.hands[0].costliest
    assert analysis.hands[0].costliest[0].loss >= decision.loss


class _KeepTheAceOfSpades:
    """Seat 0's draft: keep the ace of spades when it is offered, else as the bot does."""

    def __init__(self) -> None:
        self.kept_at: int | None = None  # seat 0's draft turn

    def __call__(self, state: GameState, seat: int, view: PlayerView, action: Action) -> Action:
        if seat == 0 and view.phase is Phase.DRAFT and view.offered == Card.parse("AS"):
            self.kept_at = view.draft_turns[0]
            return Keep()
        return action


def _drafted(state: GameState) -> bool:
    return state.phase is not Phase.DRAFT and state.hand_number >= 1


def test_an_obviously_right_keep_is_good() -> None:
    for name in range(40):
        keeper = _KeepTheAceOfSpades()
        state = play(CLASSIC, ("keep", name), override=keeper, stop=_drafted)
        if keeper.kept_at is not None:
            break
    assert keeper.kept_at is not None, "the ace of spades was never offered to seat 0"
    analysis = analyze_record(record_of(state), 0, level="easy")
    drafts = [d for d in analysis.decisions if d.kind is DecisionKind.DRAFT]
    assert len(drafts) == state.view_for(0).draft_turns[0]
    keep = drafts[keeper.kept_at]
    assert keep.action == Keep()
    assert keep.verdict is Verdict.GOOD
    assert keep.knew is not None and keep.knew.loss == 0.0
    assert keep.knew.best_action == Keep()
    # and throwing the ace of spades away is judged a loss
    walk = play(CLASSIC, ("keep", name), stop=lambda s: _offered_ace(s))
    view = walk.view_for(0)
    thrown = judge_known(view, Discard(), EASY, "any")
    assert thrown is not None and thrown.loss > 1.0 and thrown.best_action == Keep()


def _offered_ace(state: GameState) -> bool:
    view = state.view_for(0)
    return view.phase is Phase.DRAFT and view.offered == Card.parse("AS")


def test_forced_cards_are_not_judged() -> None:
    state = play(CLASSIC, "forced", stop=_hand_over)
    analysis = analyze_record(record_of(state), 0, level="easy")
    plays = [d for d in analysis.decisions if d.kind is DecisionKind.PLAY]
    assert len(plays) == 13
    assert plays[-1].verdict is Verdict.FORCED and plays[-1].knew is None
    for decision in plays:
        view_legal = decision.choices
        assert (decision.verdict is Verdict.FORCED) == (view_legal == 1)
    assert legal_play_mask(0, -1, False) == 0
