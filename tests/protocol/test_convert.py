"""Engine values convert to messages and back without loss, and never leak hidden cards.

Random legal play of whole hands under both presets (fixed seeds): after every action,
each viewer's ``PlayerView`` goes to a ``View`` message and back unchanged, and that
message (also as bytes on the wire) holds only cards its seat has seen or that were
played; the same for the events of each action as that viewer receives them.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import msgpack
import pytest

from engine import (
    CARDS,
    PRESETS,
    Action,
    Card,
    Deal,
    DraftTurnTaken,
    Exchange,
    ExchangeMade,
    GameState,
    Outcome,
    Phase,
    Play,
    RuleSet,
)
from protocol import messages as m
from protocol.codec import decode_client, decode_server, encode
from protocol.convert import (
    action_from_message,
    action_message,
    event_messages,
    hand_result_from_message,
    hand_result_message,
    rules_from_message,
    rules_message,
    view_from_message,
    view_message,
    your_turn_message,
)
from protocol.errors import ConversionError

CARD = re.compile(r"^(10|[2-9JQKA])[CDHS]$")
VIEWERS = (0, 1, None)


def cards_in(value: Any) -> set[str]:
    """Every card text anywhere inside plain data or a model."""
    if hasattr(value, "model_dump"):
        value = value.model_dump()
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if CARD.match(item):
                found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
            stack.extend(item.keys())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found


def wire_cards(message: Any, table: str = "T1") -> set[str]:
    """The cards in the bytes a viewer would receive, decoded without the models."""
    return cards_in(msgpack.unpackb(encode(message), raw=False))


class Knowledge:
    """Ground truth of what each viewer has legitimately seen this hand, from the
    unredacted events: its own draft cards and exchanges, and every card played."""

    def __init__(self) -> None:
        self.seen: dict[int | None, set[str]] = {0: set(), 1: set(), None: set()}
        self.played: set[str] = set()

    def allowed(self, viewer: int | None) -> set[str]:
        return self.seen[viewer] | self.played

    def learn(self, state: GameState, outcome: Outcome) -> None:
        for event in outcome._events:  # the full truth, as the server holds it
            if isinstance(event, DraftTurnTaken):
                for card in (event.card, event.other_card):
                    if card is not None:
                        self.seen[event.seat].add(str(card))
            elif isinstance(event, ExchangeMade):
                self.seen[event.seat] |= {str(c) for c in (*event.given, *event.received)}
        for event in outcome.for_viewer(None):
            if type(event).__name__ == "CardPlayed":
                self.played.add(str(event.card))  # type: ignore[union-attr]
        if state.phase is Phase.DRAFT and state.current_player is not None:
            # the drafter sees the card on offer before it decides
            top = 52 - state.view_for(None).stock_left
            self.seen[state.current_player].add(str(CARDS[state.stocks[-1][top]]))

    def new_hand(self) -> None:
        self.__init__()  # type: ignore[misc]


def random_action(state: GameState, rng: random.Random) -> tuple[int | None, Action]:
    seat = state.current_player
    if seat is None:
        entropy = tuple(rng.randbytes(rng.randrange(0, 33)) for _ in range(rng.randrange(0, 3)))
        return None, Deal(rng.randbytes(32), entropy)
    if state.phase is Phase.EXCHANGE:
        held = list(state.hand_of(seat))
        size = rng.randrange(0, min(state.rules.blind_nil_exchange, len(held)) + 1)
        return seat, Exchange(tuple(sorted(rng.sample(held, size))))
    if state.phase is Phase.BLIND_NIL:
        # declare now and then, so the exchange phase is covered too
        legal = state.legal_actions(seat)
        return seat, legal[0] if rng.random() < 0.3 else legal[-1]
    return seat, rng.choice(state.legal_actions(seat))


def random_play(
    rules: RuleSet, seed: int, hands: int
) -> Iterator[tuple[GameState, int | None, Action, Outcome]]:
    """Random legal play of at most ``hands`` hands (fewer if the game ends first)."""
    rng = random.Random(seed)
    state = GameState(rules)
    while not state.is_over:
        if state.is_chance_node and len(state.hand_results) >= hands:
            return
        seat, action = random_action(state, rng)
        outcome = state.apply(seat, action)
        yield state, seat, action, outcome


GAMES = [
    pytest.param(name, seed, rules, id=f"{name}-{seed}")
    for name in sorted(PRESETS)
    for seed, rules in enumerate(
        [
            PRESETS[name],
            PRESETS[name].replace(see_card_after_keep=not PRESETS[name].see_card_after_keep),
            PRESETS[name].replace(target_score=60, blind_nil=True, blind_nil_exchange=13),
        ]
    )
]


@pytest.mark.parametrize(("name", "seed", "rules"), GAMES)
def test_views_and_events_convert_without_loss_or_leaks(
    name: str, seed: int, rules: RuleSet
) -> None:
    knowledge = Knowledge()
    actions = 0
    for state, seat, action, outcome in random_play(rules, 1000 + seed, hands=5):
        if isinstance(action, Deal):
            knowledge.new_hand()
        knowledge.learn(state, outcome)
        actions += 1
        for viewer in VIEWERS:
            allowed = knowledge.allowed(viewer)
            view = state.view_for(viewer)
            message = view_message(view, "T1")
            assert view_from_message(message, rules) == view
            assert view_from_message(message, rules_message(rules)) == view
            assert cards_in(message) <= allowed, (viewer, cards_in(message) - allowed)
            assert wire_cards(m.Snapshot(table=_table(rules, viewer), view=message)) <= allowed
            if viewer is not None:
                other = {str(c) for c in state.hand_of(1 - viewer)} - allowed
                assert not cards_in(message) & other
            events = event_messages(outcome.for_viewer(viewer))
            assert cards_in(events) <= allowed
            wire = m.Events(table="T1", version=outcome.version, events=events)
            assert wire_cards(wire) <= allowed
            assert decode_server(encode(wire)) == wire
        if seat is not None:
            assert action_from_message(action_message(action)) == action
    assert actions > 50  # at least one whole hand


def _table(rules: RuleSet, viewer: int | None) -> m.TableInfo:
    return m.TableInfo(
        code="T1",
        private=False,
        preset=rules.preset_name(),
        rules=rules_message(rules),
        seats=(m.SeatInfo(kind="human", name="a"), m.SeatInfo(kind="bot", name="bot")),
        status="playing",
        your_seat=viewer,
        on_hold_expiry="bot",
        hold_seconds=60,
        turn_seconds=None,
        rematch=(False, False),
    )


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_legal_action_converts_both_ways(name: str) -> None:
    rules = PRESETS[name].replace(target_score=150)
    kinds: set[str] = set()
    for state, seat, _action, _outcome in random_play(rules, 7, hands=2):
        current = state.current_player
        if current is None:
            continue
        for legal in state.legal_actions(current):
            message = action_message(legal)
            kinds.add(message.kind)
            assert action_from_message(message) == legal
            act = m.Act(code="T1", action=message, version=state.version, seq=1)
            decoded = decode_client(encode(act))
            assert isinstance(decoded, m.Act)
            assert action_from_message(decoded.action) == legal
        del seat
    expected = {"keep", "discard", "bid", "play"} | ({"blind_nil"} if rules.blind_nil else set())
    assert expected <= kinds


def test_deal_is_not_a_protocol_action() -> None:
    with pytest.raises(ConversionError):
        action_message(Deal(b"\x00" * 32))


def test_bad_cards_in_messages_raise_conversion_error() -> None:
    # "XS" passes no model, but the converter must not trust its input either
    bad = m.PlayAction.model_construct(card="XS")
    with pytest.raises(ConversionError):
        action_from_message(bad)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_rules_convert_both_ways(name: str) -> None:
    rules = PRESETS[name]
    message = rules_message(rules)
    assert rules_from_message(message) == rules
    assert m.Rules.model_validate(message.model_dump()) == message
    tweaked = rules.replace(lose_score=-200, blind_nil_min_deficit=100, bag_limit=5)
    assert rules_from_message(rules_message(tweaked)) == tweaked


def test_rules_message_has_every_rule_field() -> None:
    assert set(m.Rules.model_fields) == set(RuleSet().to_dict())


def test_bad_rules_raise_conversion_error() -> None:
    message = rules_message(RuleSet()).model_copy(update={"target_score": 0})
    with pytest.raises(ConversionError):
        rules_from_message(message)


def test_hand_results_convert_both_ways() -> None:
    for state, _seat, _action, _outcome in random_play(PRESETS["classic"], 3, hands=2):
        for result in state.hand_results:
            message = hand_result_message(result, "T1")
            assert hand_result_from_message(message) == result
            assert decode_server(encode(message)) == message


def test_card_texts_match_the_engine() -> None:
    assert all(CARD.match(str(card)) for card in CARDS)
    assert {str(Card.parse(str(c))) for c in CARDS} == {str(c) for c in CARDS}
    assert isinstance(action_message(Play(CARDS[0])), m.PlayAction)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_your_turn_message_matches_the_engine(name: str) -> None:
    rules = PRESETS[name].replace(blind_nil=True)
    phases: set[str] = set()
    for state, _seat, _action, _outcome in random_play(rules, 11, hands=2):
        seat = state.current_player
        if seat is None:
            continue
        view = state.view_for(seat)
        turn = your_turn_message(view, "T1", seconds_left=12.5)
        phases.add(turn.phase)
        assert turn.version == state.version and turn.phase == state.phase.value
        assert turn.seconds_left == 12.5
        if state.phase is Phase.EXCHANGE:
            assert turn.legal == ()
            assert turn.exchange_max == min(rules.blind_nil_exchange, len(view.hand))
        else:
            assert [action_from_message(a) for a in turn.legal] == list(state.legal_actions(seat))
        if state.phase is Phase.DRAFT:
            top = state.stocks[-1][52 - view.stock_left]
            assert turn.offered == str(CARDS[top])
        else:
            assert turn.offered is None
        assert decode_server(encode(turn)) == turn
        with pytest.raises(ConversionError):
            your_turn_message(state.view_for(1 - seat), "T1")
    assert {"blind_nil", "draft", "bidding", "play"} <= phases


def test_the_package_re_exports_the_public_names() -> None:
    import protocol
    from protocol import codec, convert, errors

    for name in m.__all__:
        assert getattr(protocol, name) is getattr(m, name)
    assert protocol.encode is codec.encode and protocol.decode_client is codec.decode_client
    assert protocol.view_message is convert.view_message
    assert protocol.DecodeError is errors.DecodeError
    assert set(protocol.__all__) >= set(m.__all__) | {"encode", "decode_server"}


def test_odd_hex_in_a_hand_result_raises_conversion_error() -> None:
    state = next(s for s, *_ in random_play(PRESETS["classic"], 5, hands=1) if s.hand_results)
    message = hand_result_message(state.hand_results[0], "T1")
    for update in ({"seed": "abc"}, {"entropy": ("0",)}):
        bad = m.HandResult.model_validate({**message.model_dump(), **update})
        with pytest.raises(ConversionError):
            hand_result_from_message(bad)
