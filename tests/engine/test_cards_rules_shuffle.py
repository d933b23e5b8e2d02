"""Cards and their text forms, rule-set validation, the shuffle, and action text forms."""

from __future__ import annotations

import hashlib
import pickle

import pytest

from engine import (
    CARDS,
    Bid,
    BlindNil,
    Card,
    CardParseError,
    Deal,
    Discard,
    EngineError,
    Exchange,
    Keep,
    Play,
    RuleError,
    RuleSet,
    ShuffleError,
    card_mask,
    cards_in,
    commitment_of,
    format_cards,
    parse_action,
    parse_cards,
    shuffled_deck,
    verify,
)
from engine.shuffle import RandomStream
from tests.engine.helpers import ReferenceStream, seed_of

# ---------------------------------------------------------------------------------------
# Cards


@pytest.mark.parametrize(
    ("text", "canonical", "rank", "suit"),
    [
        ("AS", "AS", 12, 3),
        ("as", "AS", 12, 3),
        ("2C", "2C", 0, 0),
        ("10H", "10H", 8, 2),
        ("TH", "10H", 8, 2),
        ("th", "10H", 8, 2),
        ("10h", "10H", 8, 2),
        ("Q♠", "QS", 10, 3),
        ("10♥", "10H", 8, 2),
        ("J♦", "JD", 9, 1),
        ("K♣", "KC", 11, 0),
        ("  qd ", "QD", 10, 1),
    ],
)
def test_card_parse_and_str(text: str, canonical: str, rank: int, suit: int) -> None:
    card = Card.parse(text)
    assert str(card) == canonical
    assert (card.rank, card.suit) == (rank, suit)
    assert card == suit * 13 + rank
    assert card is CARDS[card]


def test_card_text_round_trips_for_all_52() -> None:
    for card in CARDS:
        assert Card.parse(str(card)) == card
        assert Card.parse(card.pretty()) == card
        assert Card.parse(card.pretty(ascii_only=True)) == card
        assert Card.parse(str(card).lower()) == card
        assert Card.of(card.rank, card.suit) == card
        assert card.bit == 1 << card
        assert eval(repr(card), {"Card": Card}) == card
        assert pickle.loads(pickle.dumps(card)) == card
        assert type(pickle.loads(pickle.dumps(card))) is Card
    assert Card.parse("Q♠").pretty() == "Q♠"
    assert Card.parse("td").pretty() == "10♦"


@pytest.mark.parametrize(
    "bad", ["", "A", "S", "1", "11S", "0S", "AX", "ZS", "A S", "10", "♠Q", "QSS", "B♠", "10 H"]
)
def test_card_bad_text_raises_card_parse_error(bad: str) -> None:
    with pytest.raises(CardParseError):
        Card.parse(bad)
    assert issubclass(CardParseError, EngineError)


def test_card_index_out_of_range() -> None:
    for bad in (-1, 52, 100):
        with pytest.raises(ValueError):
            Card(bad)
    assert Card(51) == Card.parse("AS") and Card(0) == Card.parse("2C")


def test_card_masks_and_lists() -> None:
    cards = parse_cards("QS 10h, 2c  AD")
    assert [str(c) for c in cards] == ["QS", "10H", "2C", "AD"]
    mask = card_mask(cards)
    assert mask.bit_count() == 4
    assert cards_in(mask) == tuple(sorted(cards))
    assert format_cards(cards) == "QS 10H 2C AD"
    assert cards_in(0) == () and parse_cards("") == ()
    assert cards_in((1 << 52) - 1) == CARDS
    with pytest.raises(CardParseError):
        parse_cards("QS XX")


# ---------------------------------------------------------------------------------------
# Rule sets


@pytest.mark.parametrize(
    "overrides",
    [
        {"target_score": 0},
        {"target_score": -5},
        {"nil_bonus": -1},
        {"blind_nil_bonus": -100},
        {"bag_penalty": -1},
        {"blind_nil_exchange": 14},
        {"blind_nil_exchange": -1},
        {"bag_limit": 0},
        {"first_bidder": "dealer"},
        {"see_card_after_keep": 1},
        {"nil": "yes"},
        {"target_score": True},
        {"target_score": 300.0},
        {"blind_nil_min_deficit": -10},
        {"lose_score": 0},
        {"lose_score": 400},
    ],
)
def test_rule_set_bad_values_raise_rule_error(overrides: dict[str, object]) -> None:
    with pytest.raises(RuleError):
        RuleSet.preset("classic", **overrides)
    with pytest.raises(RuleError):
        RuleSet(**overrides)  # type: ignore[arg-type]
    with pytest.raises(RuleError):
        RuleSet.from_dict(overrides)


def test_rule_set_unknown_field_and_preset() -> None:
    with pytest.raises(RuleError, match="colour"):
        RuleSet.preset("classic", colour="red")
    with pytest.raises(RuleError):
        RuleSet().replace(trumps="hearts")
    with pytest.raises(RuleError):
        RuleSet.from_dict({"target_score": 300, "partners": True})
    with pytest.raises(RuleError, match="classic"):
        RuleSet.preset("four-handed")
    with pytest.raises(RuleError):
        RuleSet.from_dict(["target_score"])  # type: ignore[arg-type]


def test_rule_set_round_trips_and_overrides() -> None:
    rules = RuleSet.preset(
        "five-hundred", target_score=400, lose_score=-300, blind_nil_min_deficit=100
    )
    assert rules.target_score == 400 and rules.blind_nil and rules.lose_score == -300
    assert RuleSet.from_dict(rules.to_dict()) == rules
    assert RuleSet.from_dict({}) == RuleSet()
    assert not rules.first_bidder_is_first_drafter
    assert RuleSet().first_bidder_is_first_drafter


# ---------------------------------------------------------------------------------------
# The shuffle


def test_shuffle_verify_true_for_a_real_hand() -> None:
    seed = seed_of(700)
    entropy = (b"\x01\x02", b"seat one")
    deck = shuffled_deck(seed, entropy)
    commitment = commitment_of(seed)
    assert commitment == hashlib.sha256(seed).hexdigest()
    assert verify(commitment, seed, entropy, deck)
    assert verify(commitment.upper(), seed, entropy, deck)
    assert verify(commitment, seed, entropy)


def test_shuffle_verify_false_when_tampered() -> None:
    seed = seed_of(701)
    deck = shuffled_deck(seed)
    commitment = commitment_of(seed)
    other_seed = bytes([seed[0] ^ 1]) + seed[1:]
    assert not verify(commitment, other_seed, (), deck)
    assert not verify(commitment_of(other_seed), seed, (), deck)
    swapped = list(deck)
    swapped[0], swapped[1] = swapped[1], swapped[0]
    assert not verify(commitment, seed, (), swapped)
    assert not verify(commitment, seed, (), deck[:-1])
    assert not verify(commitment, seed, (b"x",), deck)
    assert not verify(commitment, b"short", (), deck)  # never raises
    assert not verify("not hex", seed, (), deck)


def test_shuffle_deck_is_a_permutation() -> None:
    for n in range(50):
        deck = shuffled_deck(seed_of(n))
        assert sorted(deck) == list(range(52))
    assert shuffled_deck(seed_of(3)) == shuffled_deck(seed_of(3))


def test_shuffle_entropy_changes_the_deck() -> None:
    seed = seed_of(702)
    decks = {
        tuple(shuffled_deck(seed, entropy))
        for entropy in [(), (b"",), (b"a",), (b"b",), (b"a", b"b"), (b"b", b"a"), (b"ab",)]
    }
    assert len(decks) == 7
    assert shuffled_deck(seed, (b"a", b"b")) == ReferenceStream(seed, (b"a", b"b")).deck()


def test_shuffle_seeds_below_32_bytes_raise() -> None:
    for size in (0, 1, 16, 31):
        with pytest.raises(ShuffleError):
            shuffled_deck(b"\x07" * size)
        with pytest.raises(ShuffleError):
            RandomStream(b"\x07" * size)
    shuffled_deck(b"\x07" * 32)
    shuffled_deck(b"\x07" * 64)
    with pytest.raises(ShuffleError):
        shuffled_deck("x" * 40)  # type: ignore[arg-type]
    with pytest.raises(ShuffleError):
        shuffled_deck(b"\x07" * 32, (b"a", b"b", b"c"))
    with pytest.raises(ShuffleError):
        shuffled_deck(b"\x07" * 32, (b"z" * 65,))


def test_shuffle_stream_draws_are_unbiased_in_range() -> None:
    stream = RandomStream(seed_of(703))
    reference = ReferenceStream(seed_of(703))
    for bound in (1, 2, 3, 7, 52, 1000, 2**31 + 1, 2**32):
        for _ in range(20):
            value = stream.below(bound)
            assert 0 <= value < bound
            assert value == reference.below(bound)
    counts = [0] * 6
    for _ in range(6000):
        counts[stream.below(6)] += 1
    assert all(900 < c < 1100 for c in counts)
    sample = stream.sample(list(range(10)), 10)
    assert sorted(sample) == list(range(10))


# ---------------------------------------------------------------------------------------
# Actions


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("keep", Keep()),
        ("discard", Discard()),
        ("blind-nil", BlindNil(True)),
        ("no-blind-nil", BlindNil(False)),
        ("bid nil", Bid(0)),
        ("bid 7", Bid(7)),
        ("play QS", Play(Card.parse("QS"))),
        ("play 10H", Play(Card.parse("TH"))),
        ("exchange", Exchange(())),
        ("exchange 2C AS", Exchange((Card.parse("2C"), Card.parse("AS")))),
        ("deal " + "ab" * 32, Deal(bytes.fromhex("ab" * 32))),
        ("deal " + "00" * 32 + " 01 ff02", Deal(bytes(32), (b"\x01", b"\xff\x02"))),
        ("deal " + "00" * 32 + " - 01", Deal(bytes(32), (b"", b"\x01"))),
        ("deal " + "00" * 32 + " -", Deal(bytes(32), (b"",))),
    ],
)
def test_action_text_round_trip(text: str, action: object) -> None:
    assert parse_action(text) == action
    assert parse_action(str(action)) == action


@pytest.mark.parametrize(
    "bad", ["", "fold", "keep now", "bid", "bid x", "play", "play XX", "deal zz", "exchange QQ"]
)
def test_action_bad_text_raises(bad: str) -> None:
    with pytest.raises(CardParseError):
        parse_action(bad)
