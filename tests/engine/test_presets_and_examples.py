"""The two presets' differences, and every worked scoring example of RULES.md."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine import (
    PRESETS,
    BlindNil,
    Card,
    Deal,
    DraftTurnTaken,
    Exchange,
    GameState,
    Keep,
    Phase,
    RuleSet,
    score_seat,
)
from engine.scoring import winner_of
from tests.engine.helpers import (
    CLASSIC,
    FIVE_HUNDRED,
    DraftPolicy,
    all_cards_in,
    dealt,
    decline_blind_nil,
    keep_all,
    play_hand,
    prefer,
    run_bids,
    run_draft,
    run_exchanges,
    seed_of,
    stock,
    to_play,
)

# ---------------------------------------------------------------------------------------
# Presets


def test_preset_table_classic() -> None:
    assert RuleSet.preset("classic") == RuleSet() == PRESETS["classic"]
    assert RuleSet.preset("classic").to_dict() == {
        "target_score": 300,
        "first_bidder": "first_drafter",
        "see_card_after_keep": True,
        "nil": True,
        "nil_bonus": 100,
        "blind_nil": False,
        "blind_nil_bonus": 200,
        "blind_nil_exchange": 3,
        "blind_nil_min_deficit": None,
        "bag_limit": 10,
        "bag_penalty": 100,
        "failed_nil_tricks_are_bags": False,
        "lose_score": None,
    }
    assert RuleSet().preset_name() == "classic"


def test_preset_table_five_hundred() -> None:
    assert RuleSet.preset("five-hundred").to_dict() == {
        "target_score": 500,
        "first_bidder": "second_drafter",
        "see_card_after_keep": False,
        "nil": True,
        "nil_bonus": 100,
        "blind_nil": True,
        "blind_nil_bonus": 200,
        "blind_nil_exchange": 3,
        "blind_nil_min_deficit": None,
        "bag_limit": 10,
        "bag_penalty": 100,
        "failed_nil_tricks_are_bags": False,
        "lose_score": None,
    }
    assert FIVE_HUNDRED.preset_name() == "five-hundred"
    assert FIVE_HUNDRED.replace(target_score=400).preset_name() is None


@pytest.mark.parametrize(
    ("rules", "bidder_is_first_drafter"), [(CLASSIC, True), (FIVE_HUNDRED, False)]
)
def test_preset_who_bids_and_leads_first(rules: RuleSet, bidder_is_first_drafter: bool) -> None:
    for n in range(6):
        state = dealt(rules, seed_of(300 + n))
        first_drafter = state.first_drafter
        assert first_drafter is not None
        expected = first_drafter if bidder_is_first_drafter else 1 - first_drafter
        assert state.view_for(None).first_bidder == expected
        decline_blind_nil(state)
        run_draft(state, keep_all)
        assert state.phase is Phase.BIDDING and state.current_player == expected
        run_bids(state, {0: 2, 1: 2})
        assert state.current_player == expected
        play_hand(state)
        # the next hand: the roles swap with the first drafter
        state.apply(None, Deal(seed_of(400 + n)))
        assert state.first_drafter == 1 - first_drafter
        assert state.view_for(None).first_bidder == 1 - expected


@pytest.mark.parametrize(("rules", "sees"), [(CLASSIC, True), (FIVE_HUNDRED, False)])
def test_preset_seeing_the_card_after_a_keep(rules: RuleSet, sees: bool) -> None:
    state = dealt(rules, seed_of(310))
    decline_blind_nil(state)
    seat = state.current_player
    assert seat is not None
    following = stock(state)[1]
    (event,) = state.apply(seat, Keep()).for_viewer(seat)
    assert isinstance(event, DraftTurnTaken)
    assert (event.other_card == following) is sees
    assert (following in all_cards_in(state.view_for(seat))) is sees


def test_preset_blind_nil_and_its_exchange_only_in_five_hundred() -> None:
    classic = dealt(CLASSIC, seed_of(320))
    assert classic.phase is Phase.DRAFT
    phases = set()
    while not classic.is_chance_node:
        phases.add(classic.phase)
        seat = classic.current_player
        classic.apply(seat, classic.legal_actions(seat)[0])
    assert phases == {Phase.DRAFT, Phase.BIDDING, Phase.PLAY}
    assert classic.view_for(None).blind_nil == (None, None)

    five = dealt(FIVE_HUNDRED, seed_of(320))
    assert five.phase is Phase.BLIND_NIL
    decline_blind_nil(five, declare=[0])
    run_draft(five, keep_all)
    assert five.phase is Phase.EXCHANGE and five.current_player == 0
    assert max(len(a.cards) for a in five.legal_actions(0) if isinstance(a, Exchange)) == 3
    run_exchanges(five, lambda seat, held: held[:3])
    assert five.view_for(1).exchange_counts == (3, None)


@pytest.mark.parametrize(("rules", "target"), [(CLASSIC, 300), (FIVE_HUNDRED, 500)])
def test_preset_target_300_or_500(rules: RuleSet, target: int) -> None:
    for total, over in ((target - 1, False), (target, True), (420, target == 300)):
        probe = to_play(rules, seed_of(330))
        twin = copy.deepcopy(probe)
        play_hand(twin)
        points = twin.hand_results[0].points
        probe.scores = [total - points[0], 100 - points[1]]
        play_hand(probe)
        assert probe.scores == [total, 100]
        assert probe.is_over is over
        assert probe.winner == (0 if over else None)


def test_preset_five_hundred_blind_nil_declared_by_the_first_drafter_first() -> None:
    state = dealt(FIVE_HUNDRED, seed_of(340))
    assert state.current_player == state.first_drafter
    assert state.legal_actions(state.first_drafter) == (BlindNil(True), BlindNil(False))


# ---------------------------------------------------------------------------------------
# Worked scoring examples


def test_example_bid_4_took_6_bags_before_3() -> None:
    assert score_seat(CLASSIC, 4, False, 6, 3) == (42, 2, 0, 5)


def test_example_bid_4_took_6_bags_before_9() -> None:
    assert score_seat(CLASSIC, 4, False, 6, 9) == (42 - 100, 2, 1, 1)
    assert 42 - 100 == -58


def test_example_bid_5_took_4() -> None:
    points, added, penalties, bags = score_seat(CLASSIC, 5, False, 4, 6)
    assert points == -50 and added == 0 and penalties == 0 and bags == 6


def test_example_nil_took_0() -> None:
    assert score_seat(CLASSIC, 0, False, 0, 0)[0] == 100


def test_example_nil_took_2() -> None:
    assert score_seat(CLASSIC, 0, False, 2, 5) == (-100, 0, 0, 5)
    bags_rule = CLASSIC.replace(failed_nil_tricks_are_bags=True)
    assert score_seat(bags_rule, 0, False, 2, 5) == (-100, 2, 0, 7)


def test_example_blind_nil_took_1() -> None:
    assert score_seat(FIVE_HUNDRED, None, True, 1, 0)[0] == -200


def _weak_for(weak: int) -> DraftPolicy:
    """Seat ``weak`` drafts low cards and no spades; the other seat drafts high ones."""

    def strength(seat: int, card: Card) -> float:
        value = card.rank + (20 if card.suit == 3 else 0)
        return -value if seat == weak else value

    return prefer(strength)


def _played(rules: RuleSet, n: int, weak: int | None, **kwargs: Any) -> GameState:
    policy = keep_all if weak is None else _weak_for(weak)
    return to_play(rules, seed_of(500 + n), policy, **kwargs)


def _seat_took(rules: RuleSet, tricks: int) -> tuple[int, int, int | None]:
    """A real hand (lowest-card play, which bids do not change) where a seat took ``tricks``:
    its test seed number, the seat, and which seat drafted weak cards (if any)."""
    for n in range(100):
        for weak in (None, 0, 1):
            twin = _played(rules, n, weak)
            play_hand(twin)
            for seat in (0, 1):
                if twin.hand_results[0].tricks[seat] == tricks:
                    return n, seat, weak
    raise AssertionError(f"no test seed gives a seat {tricks} tricks")


@pytest.mark.parametrize(
    ("bid", "took", "bags_before", "points", "bags_after"),
    [(4, 6, 3, 42, 5), (4, 6, 9, -58, 1), (5, 4, 3, -50, 3), (0, 0, 0, 100, 0), (0, 2, 4, -100, 4)],
)
def test_example_through_a_played_hand(
    bid: int, took: int, bags_before: int, points: int, bags_after: int
) -> None:
    n, seat, weak = _seat_took(CLASSIC, took)
    state = _played(CLASSIC, n, weak, bids={seat: bid, 1 - seat: 3})
    state.bags[seat] = bags_before
    play_hand(state)
    result = state.hand_results[0]
    assert result.tricks[seat] == took and result.bids[seat] == bid
    assert result.points[seat] == points and state.scores[seat] == points
    assert result.bags[seat] == bags_after == state.bags[seat]


def test_example_blind_nil_took_1_through_a_played_hand() -> None:
    n, seat, weak = _seat_took(FIVE_HUNDRED, 1)
    state = _played(FIVE_HUNDRED, n, weak, declare=[seat])
    play_hand(state)
    result = state.hand_results[0]
    assert result.blind_nil[seat] and result.tricks[seat] == 1
    assert result.points[seat] == -200


def test_example_290_and_250_then_12_and_60_seat_1_wins() -> None:
    # Points of +12 (bid 1, took 3) and +60 (bid 6, took 6) cannot come from one 13-trick
    # hand, so the hand's points are checked one by one and the end of the game on a real
    # hand scored onto pre-hand totals chosen to land on 302 and 310.
    assert score_seat(CLASSIC, 1, False, 3, 0)[0] == 12
    assert score_seat(CLASSIC, 6, False, 6, 0)[0] == 60
    assert (290 + 12, 250 + 60) == (302, 310)
    probe = to_play(CLASSIC, seed_of(600))
    twin = copy.deepcopy(probe)
    play_hand(twin)
    p0, p1 = twin.hand_results[0].points
    probe.scores = [302 - p0, 310 - p1]
    play_hand(probe)
    assert probe.scores == [302, 310]
    assert probe.phase is Phase.GAME_OVER and probe.winner == 1
    assert winner_of(probe.rules, probe.scores) == 1
    assert winner_of(CLASSIC, [302, 310]) == 1


def test_example_295_and_295_both_plus_10_tie_plays_another_hand() -> None:
    assert score_seat(CLASSIC, 1, False, 1, 0)[0] == 10
    assert winner_of(CLASSIC, [305, 305]) is None
    probe = to_play(CLASSIC, seed_of(601))
    twin = copy.deepcopy(probe)
    play_hand(twin)
    p0, p1 = twin.hand_results[0].points
    probe.scores = [305 - p0, 305 - p1]
    play_hand(probe)
    assert probe.scores == [305, 305]
    assert probe.phase is Phase.HAND_OVER and probe.winner is None and probe.is_chance_node
    # another hand is played, and the same check follows it
    probe.apply(None, Deal(seed_of(602)))
    run_draft(probe, keep_all)
    run_bids(probe, {0: 1, 1: 1})
    play_hand(probe)
    assert probe.scores[0] != probe.scores[1]
    assert probe.winner == (0 if probe.scores[0] > probe.scores[1] else 1)
