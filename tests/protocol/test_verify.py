"""protocol.verify: the checks of "What a client checks after each hand" pass for every
honest hand (blind-nil exchanges of both seats included) and catch each way of cheating."""

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
    # with one card received in an exchange, one card outside its pairs is fine
    assert (
        check_hand(dataclasses.replace(evidence, opponent_played=both, opponent_exchanged=1)) == []
    )
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
            assert problems == []
        else:
            assert problems == [f"the other seat played {kept}, a card you drafted"]
