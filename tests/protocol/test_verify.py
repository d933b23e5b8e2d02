"""protocol.verify: the checks of "What a client checks after each hand" pass for every
honest hand (blind-nil exchanges of both seats included) and catch each way of cheating,
the blind-nil exchange draws included (check 5, at hand end)."""

from __future__ import annotations

import dataclasses
import hashlib
import random

import pytest

from engine import CARDS, Exchange, GameState, Phase, RuleSet, Shuffle, shuffled_deck
from engine.actions import Commit
from engine.game import HandScored
from protocol import messages as m
from protocol.convert import event_messages, hand_result_message
from protocol.verify import HandCollector, HandEvidence, check_hand

Hand = tuple[list[HandCollector], m.HandResult]
DRAWS = "the exchange draws"  # how check 5's problems begin


def play_hands(preset: str, seed: int, hands: int) -> list[Hand]:
    """Hands of an honest game (random choices, blind nil half the time, random
    exchanges), with each seat's collector fed the events that seat got."""
    rng = random.Random(seed)
    state = GameState(RuleSet.preset(preset))
    out: list[Hand] = []
    collectors: list[HandCollector] = []
    while len(out) < hands and not state.is_over:
        seat = state.current_player
        if seat is None:
            hand_seed = hashlib.sha256(b"verify %d %d" % (seed, len(out))).digest()
            values = tuple(rng.choice([rng.randbytes(32), b""]) for _ in range(2))
            collectors = [HandCollector(s, values[s].hex()) for s in (0, 1)]
            pair = (values[0], values[1])
            outcomes = [state.apply(None, Commit(hand_seed)), state.apply(None, Shuffle(pair))]
        else:
            if state.phase is Phase.EXCHANGE:
                hand = list(state.view_for(seat).hand)
                action = Exchange(tuple(rng.sample(hand, rng.randint(0, 3))))
            else:
                action = rng.choice(state.legal_actions(seat))
            outcomes = [state.apply(seat, action)]
        for outcome in outcomes:
            for viewer in (0, 1):
                for event in event_messages(outcome.for_viewer(viewer)):
                    collectors[viewer].add(event)
            for event in outcome.for_viewer(None):
                if isinstance(event, HandScored):
                    out.append((collectors, hand_result_message(event.result, "T")))
    return out


@pytest.mark.parametrize("preset", ["classic", "five-hundred"])
def test_every_honest_hand_passes_for_both_seats(preset: str) -> None:
    exchanges = 0
    for game in range(3):
        for collectors, result in play_hands(preset, game, 6):
            for collector in collectors:
                assert collector.check(result) == []
            exchanges += sum(c.opponent_exchanged > 0 for c in collectors)
    if preset == "five-hundred":
        assert exchanges >= 3  # the exchange exception was exercised


def honest_evidence() -> tuple[HandEvidence, list[str]]:
    """Seat 0's evidence of a classic hand (no exchange), and the deck it checks against."""
    collectors, result = play_hands("classic", 7, 1)[0]
    collector = collectors[0]
    evidence = HandEvidence(
        seat=0,
        first_drafter=result.first_drafter,
        commitment=collector.commitment or "",
        seed=result.seed,
        entropy=result.entropy,
        my_value=collector.value,
        my_turns=tuple(collector.turns),
        opponent_played=tuple(collector.opponent_played),
    )
    assert check_hand(evidence) == []
    values = tuple(bytes.fromhex(v) for v in result.entropy)
    deck = [str(CARDS[i]) for i in shuffled_deck(bytes.fromhex(result.seed), values)]
    return evidence, deck


def one_problem(evidence: HandEvidence, expected: str) -> None:
    problems = check_hand(evidence)
    assert problems and all(expected in problem for problem in problems), problems


def test_a_seed_that_is_not_the_committed_one_is_caught() -> None:
    evidence, _ = honest_evidence()
    forged = dataclasses.replace(evidence, seed=hashlib.sha256(b"other").hexdigest())
    assert "the seed does not hash to the commitment of hand_started" in check_hand(forged)


def test_a_missing_or_changed_own_value_is_caught() -> None:
    evidence, _ = honest_evidence()
    mine = "ab" * 32 if evidence.my_value == "" else ""
    entropy = (mine, evidence.entropy[1])
    problems = check_hand(dataclasses.replace(evidence, entropy=entropy))
    assert "your entry of entropy is not the value you sent" in problems
    assert any(p.startswith("draft turn") for p in problems)  # and the deck is another one


def test_an_entropy_list_without_its_empty_entry_is_caught() -> None:
    evidence, _ = honest_evidence()
    dropped = dataclasses.replace(evidence, entropy=evidence.entropy[:1])
    assert "entropy has 1 entries instead of 2" in check_hand(dropped)


def test_a_deck_other_than_the_revealed_one_is_caught() -> None:
    evidence, _ = honest_evidence()
    other = "cd" * 32 if evidence.entropy[1] != "cd" * 32 else "ef" * 32
    problems = check_hand(dataclasses.replace(evidence, entropy=(evidence.entropy[0], other)))
    assert problems[0].startswith("draft turn 0: you were offered")
    assert not any("entropy" in p or "seed" in p for p in problems)


def test_the_other_seat_playing_a_card_you_held_is_caught() -> None:
    evidence, _ = honest_evidence()
    turn = evidence.my_turns[0]
    held = turn.card if turn.kept else turn.other_card
    assert held is not None
    played = (held, *evidence.opponent_played[1:])
    one_problem(dataclasses.replace(evidence, opponent_played=played), "a card you held")


def test_the_other_seat_playing_both_cards_of_a_pair_or_a_pile_card_is_caught() -> None:
    evidence, deck = honest_evidence()
    position = {card: i for i, card in enumerate(deck)}
    first = evidence.opponent_played[0]
    partner = deck[position[first] ^ 1]  # the other card of the same draft pair
    both = (first, partner, *evidence.opponent_played[2:])
    one_problem(dataclasses.replace(evidence, opponent_played=both), "outside its draft pairs")
    # with one card received in an exchange, one card outside its pairs is fine for check
    # 4; the exchange draws (check 5) then say whether the pile really gave it that card
    loose = check_hand(dataclasses.replace(evidence, opponent_played=both, opponent_exchanged=1))
    assert [p for p in loose if not p.startswith(DRAWS)] == []
    turn = evidence.my_turns[0]
    my_pile_card = turn.other_card if turn.kept else turn.card
    assert my_pile_card is not None
    pile = (my_pile_card, *evidence.opponent_played[1:])
    one_problem(dataclasses.replace(evidence, opponent_played=pile), "outside its draft pairs")


def test_a_card_offered_out_of_order_is_caught() -> None:
    evidence, _ = honest_evidence()
    turns = list(evidence.my_turns)
    turns[0], turns[1] = turns[1], turns[0]
    one_problem(dataclasses.replace(evidence, my_turns=tuple(turns)), "draft turn")


def test_a_collector_without_hand_started_refuses_to_vouch() -> None:
    collectors, result = play_hands("classic", 3, 1)[0]
    fresh = HandCollector(0, collectors[0].value)
    assert fresh.check(result) == [
        "no hand_started was seen for this hand: its commitment is unknown"
    ]


def test_a_card_you_gave_reaches_the_other_seat_only_if_you_exchanged_first() -> None:
    collectors, result = play_hands("classic", 7, 1)[0]
    for collector in collectors:
        evidence = HandEvidence(
            seat=collector.seat,
            first_drafter=result.first_drafter,
            commitment=collector.commitment or "",
            seed=result.seed,
            entropy=result.entropy,
            my_value=collector.value,
            my_turns=tuple(collector.turns),
            opponent_played=tuple(collector.opponent_played),
        )
        turn = evidence.my_turns[0]
        kept = turn.card if turn.kept else turn.other_card
        pile_card = turn.other_card if turn.kept else turn.card
        assert kept is not None and pile_card is not None
        forged = dataclasses.replace(
            evidence,
            given=(kept,),
            received=(pile_card,),
            opponent_played=(kept, *evidence.opponent_played[1:]),
            opponent_exchanged=1,
        )
        problems = check_hand(forged)
        if collector.seat == result.first_drafter:  # it exchanged first: may be drawn
            assert [p for p in problems if not p.startswith(DRAWS)] == []
        else:
            assert [p for p in problems if not p.startswith(DRAWS)] == [
                f"the other seat played {kept}, a card you drafted"
            ]


def evidence_of(collector: HandCollector, result: m.HandResult) -> HandEvidence:
    assert collector.commitment is not None
    return HandEvidence(
        seat=collector.seat,
        first_drafter=result.first_drafter,
        commitment=collector.commitment,
        seed=result.seed,
        entropy=result.entropy,
        my_value=collector.value,
        my_turns=tuple(collector.turns),
        given=collector.given,
        received=collector.received,
        opponent_played=tuple(collector.opponent_played),
        opponent_exchanged=collector.opponent_exchanged,
    )


def exchange_hands() -> list[tuple[HandEvidence, HandEvidence]]:
    """Both seats' evidence of every five-hundred hand of 6 fixed games in which at least
    one seat gave cards in a blind-nil exchange."""
    out = []
    for game in range(6):
        for collectors, result in play_hands("five-hundred", game, 8):
            if collectors[0].given or collectors[1].given:
                out.append((evidence_of(collectors[0], result), evidence_of(collectors[1], result)))
    return out


def laid_cards(e: HandEvidence) -> list[str]:
    """The cards this seat laid on the pile in its draft, from the recomputed deck."""
    values = tuple(bytes.fromhex(v) for v in e.entropy)
    deck = [str(CARDS[i]) for i in shuffled_deck(bytes.fromhex(e.seed), values)]
    mine = [t for t in range(26) if (t % 2 == 0) == (e.first_drafter == e.seat)]
    return [
        deck[2 * t + 1] if turn.kept else deck[2 * t]
        for t, turn in zip(mine, e.my_turns, strict=True)
    ]


def test_blind_nil_exchange_draws_of_every_honest_hand_pass_for_both_seats() -> None:
    hands = exchange_hands()
    kinds = {(bool(first.given), bool(second.given)) for first, second in hands}
    assert kinds == {(True, False), (False, True), (True, True)}
    for pair in hands:
        for evidence in pair:
            assert check_hand(evidence) == []


def test_blind_nil_exchange_your_draw_from_another_pile_card_is_caught() -> None:
    """The other seat did not exchange: its 13 cards tell its whole draft, so the pile is
    known and the check exact."""
    caught = 0
    for first, second in exchange_hands():
        for me, other in ((first, second), (second, first)):
            if not me.given or other.given:
                continue
            drawn = list(me.received)  # in card order, as the exchange event lists them
            other_pile_card = next(c for c in laid_cards(me) if c not in me.received)
            forged = dataclasses.replace(me, received=(other_pile_card, *drawn[1:]))
            problems = check_hand(forged)
            assert len(problems) == 1, problems
            assert problems[0].startswith("the exchange draws do not match: you received ")
            assert f"the stream and the pile give {' '.join(drawn)}" in problems[0]
            caught += 1
    assert caught >= 5


def test_blind_nil_exchange_the_other_seat_drawing_another_pile_card_is_caught() -> None:
    """The other seat exchanged: a server that hands it a pile card the stream did not
    draw is caught at hand end (the card it played instead fits no draft's draws)."""
    caught = 0
    for first, second in exchange_hands():
        for me, other in ((first, second), (second, first)):
            if not other.given or me.given:
                continue
            received = other.received[0]
            instead = next(c for c in laid_cards(me) if c not in other.received)
            played = tuple(instead if c == received else c for c in me.opponent_played)
            assert played != me.opponent_played
            problems = check_hand(dataclasses.replace(me, opponent_played=played))
            assert len(problems) == 1 and problems[0].startswith(DRAWS), problems
            caught += 1
    assert caught >= 5


def test_blind_nil_exchange_given_cards_drawn_before_they_are_given_are_caught() -> None:
    """A server that puts the second seat's given cards into the pile before it draws
    (so it could draw them back) deals draws the check does not accept."""
    caught = 0
    for first, second in exchange_hands():
        for me in (first, second):
            if not me.given or me.seat == me.first_drafter:
                continue
            # the second exchanger receiving one of its own given cards back
            forged = dataclasses.replace(me, received=(me.given[0], *me.received[1:]))
            problems = check_hand(forged)
            assert any(p.startswith(DRAWS) for p in problems), problems
            caught += 1
    assert caught >= 2


def test_blind_nil_exchange_draws_are_checked_from_the_collected_events() -> None:
    for game in range(6):
        for collectors, result in play_hands("five-hundred", game, 8):
            me = next((c for c in collectors if c.given), None)
            if me is None:
                continue
            other = collectors[1 - me.seat]
            honest = me.received
            me.received = (other.given or tuple(laid_cards(evidence_of(me, result))))[:1] + (
                honest[1:]
            )
            if me.received == honest:
                continue
            problems = me.check(result)
            assert any(p.startswith(DRAWS) for p in problems), problems
            me.received = honest
            assert me.check(result) == []
            return
    raise AssertionError("no hand with an exchange to forge")
