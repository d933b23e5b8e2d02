"""The model: each phase's keys do what they should, and nothing illegal is ever sent."""

from __future__ import annotations

from client.model import ClientModel, Intent, Overlay, Settings
from engine import Card, GameState, Phase, RuleSet
from protocol import messages as m
from tests.client.helpers import CODE, advance_to, dealt, model_at, snapshot, your_turn


def acts(model: ClientModel) -> list[m.Act]:
    return [msg for msg in model.sent if isinstance(msg, m.Act)]


def play_state(seed: int = 3, *, forced: bool | None = None) -> GameState:
    """A state where seat 0 is to play; ``forced``: with exactly one / several legal cards."""
    for attempt in range(200):
        state = advance_to(dealt(n=seed + attempt), Phase.PLAY, 0, seed + attempt)
        for _ in range(26):
            count = len(state.legal_actions(0))
            if forced is None or (count == 1) == forced:
                return state
            state.apply(0, state.legal_actions(0)[0])
            if state.phase is not Phase.PLAY:
                break
            state = advance_to(state, Phase.PLAY, 0, seed)
    raise AssertionError("no such state")


def test_welcome_runs_the_intent() -> None:
    model = ClientModel("alice", intent=Intent(kind="create", preset="five-hundred", bot="easy"))
    model.handle(
        m.Welcome(
            protocol_version=1,
            server_versions=(1,),
            player_id="p",
            name="alice",
            token="t",
            resumed=False,
        )
    )
    (create,) = model.sent
    assert isinstance(create, m.CreateTable)
    assert create.preset == "five-hundred" and create.bot == "easy"
    assert model.token == "t"


def test_draft_keys_keep_and_discard() -> None:
    state = advance_to(dealt(), Phase.DRAFT, 0)
    model = model_at(state)
    assert model.turn is not None and model.turn.phase == "draft"
    model.press("x")  # asks whether to leave, sends nothing
    model.press("q")  # not an answer: the question stays
    assert not acts(model) and model.overlay is Overlay.LEAVE
    model.press("escape")  # no
    model.press("k")
    (act,) = acts(model)
    assert isinstance(act.action, m.KeepAction) and act.version == state.version
    assert act.code == CODE
    first_seq = act.seq
    # a second key before the next your_turn sends nothing
    model.press("d")
    assert len(acts(model)) == 1
    model.handle(your_turn(state))
    model.press("d")
    assert isinstance(acts(model)[-1].action, m.DiscardAction)
    assert acts(model)[-1].seq == first_seq + 1


def test_blind_nil_prompt() -> None:
    state = advance_to(dealt(RuleSet.preset("five-hundred")), Phase.BLIND_NIL, 0)
    model = model_at(state)
    model.press("y")
    (act,) = acts(model)
    assert isinstance(act.action, m.BlindNilAction) and act.action.declare
    model.handle(your_turn(state))
    model.press("n")
    assert isinstance(acts(model)[-1].action, m.BlindNilAction)
    assert not acts(model)[-1].action.declare  # type: ignore[union-attr]


def test_blind_nil_refused_when_the_server_says_it_is_not_legal() -> None:
    rules = RuleSet.preset("five-hundred", blind_nil_min_deficit=100)
    state = advance_to(dealt(rules), Phase.BLIND_NIL, 0)
    model = model_at(state)
    model.press("y")
    assert not acts(model)
    assert "may not" in model.flash


def test_bidding_keys() -> None:
    state = advance_to(dealt(), Phase.BIDDING, 0)
    model = model_at(state)
    model.press("enter")  # nothing typed yet
    assert not acts(model)
    model.press("1")
    model.press("2")
    assert model.bid_entry == "12"
    model.press("4")  # 124 is no bid: starts again at 4
    assert model.bid_entry == "4"
    model.press("up")
    model.press("up")
    model.press("down")
    assert model.bid_entry == "5"
    model.press("enter")
    (act,) = acts(model)
    assert isinstance(act.action, m.BidAction) and act.action.tricks == 5
    model.handle(your_turn(state))
    model.press("n")
    model.press("enter")
    assert acts(model)[-1].action == m.BidAction(tricks=0)


def test_nil_is_refused_when_the_rules_have_no_nil() -> None:
    state = advance_to(dealt(RuleSet.preset("classic", nil=False)), Phase.BIDDING, 0)
    model = model_at(state)
    model.press("n")
    model.press("0")
    model.press("enter")
    assert not acts(model)


def test_play_with_arrows_and_enter_only_ever_sends_legal_cards() -> None:
    state = play_state(forced=False)
    legal = {a.card for a in state.legal_actions(0)}  # type: ignore[union-attr]
    model = model_at(state)
    seen = set()
    for _ in range(15):
        assert model.cursor in legal
        seen.add(model.cursor)
        model.press("right")
    assert seen == legal
    model.press("down")
    assert model.cursor in legal
    model.press("enter")
    (act,) = acts(model)
    assert Card.parse(act.action.card) in legal  # type: ignore[union-attr]


def test_an_illegal_typed_card_cannot_be_sent() -> None:
    for seed in range(3, 60):
        state = play_state(seed, forced=False)
        legal = {a.card for a in state.legal_actions(0)}  # type: ignore[union-attr]
        illegal = [c for c in state.hand_of(0) if c not in legal]
        if illegal:
            break
    else:
        raise AssertionError("no state with an illegal card")
    for confirm in (True, False):
        model = model_at(state, settings=Settings(confirm_before_play=confirm))
        for char in str(illegal[0]).lower():
            model.press(char)
        assert model.cursor is None  # the refusal leaves no card chosen
        assert "may not be played" in model.flash
        model.press("enter")  # plays nothing: neither the illegal card nor another
        assert acts(model) == []


def test_typing_a_card_selects_it_and_enter_plays_it() -> None:
    state = play_state(forced=False)
    legal = sorted(a.card for a in state.legal_actions(0))  # type: ignore[union-attr]
    target = legal[-1]
    model = model_at(state)
    for char in str(target).lower():
        model.press(char)
    assert model.cursor == target
    assert not acts(model)  # confirm before play: waits for Enter
    model.press("enter")
    assert acts(model)[-1].action == m.PlayAction(card=str(target))
    # with confirm-before-play off, the typed card goes at once
    model = model_at(state, settings=Settings(confirm_before_play=False))
    for char in str(target).lower():
        model.press(char)
    assert acts(model)[-1].action == m.PlayAction(card=str(target))


def test_typing_a_card_not_held() -> None:
    state = play_state(forced=False)
    other = next(c for c in state.hand_of(1))
    model = model_at(state)
    for char in str(other).lower():
        model.press(char)
    assert "do not hold" in model.flash
    assert not acts(model)


def test_auto_play_one_plays_a_forced_card() -> None:
    state = play_state(forced=True)
    (only,) = state.legal_actions(0)
    model = model_at(state)
    (act,) = acts(model)
    assert act.action == m.PlayAction(card=str(only.card))  # type: ignore[union-attr]
    assert any("Auto Play One" in line for line in model.log)


def test_auto_play_one_switched_off_waits() -> None:
    state = play_state(forced=True)
    model = model_at(state, settings=Settings(auto_play_one=False))
    assert not acts(model)
    model.press("enter")
    assert len(acts(model)) == 1


def test_auto_play_one_toggles_in_the_settings_window() -> None:
    model = model_at(advance_to(dealt(), Phase.DRAFT, 0))
    assert model.settings.auto_play_one
    model.press("o")
    assert model.overlay is Overlay.SETTINGS
    model.press("enter")
    assert not model.settings.auto_play_one
    model.press("down")
    model.press("space")
    assert model.settings.ascii_cards
    model.press("escape")
    assert model.overlay is None


def test_exchange_picks_up_to_the_limit() -> None:
    rules = RuleSet.preset("five-hundred")
    state = dealt(rules)
    from engine import BlindNil

    while state.phase is Phase.BLIND_NIL:
        seat = state.current_player
        assert seat is not None
        state.apply(seat, BlindNil(seat == 0))
    state = advance_to(state, Phase.EXCHANGE, 0)
    model = model_at(state)
    assert model.turn is not None and model.turn.exchange_max == 3
    hand = model.hand_cards()
    model.press("space")
    model.press("right")
    model.press("space")
    model.press("right")
    model.press("space")
    model.press("right")
    model.press("space")  # a fourth: refused
    assert len(model.picks) == 3
    assert "At most 3" in model.flash
    model.press("left")
    model.press("space")  # drops the third
    assert model.picks == set(hand[:2])
    model.press("enter")
    (act,) = acts(model)
    assert isinstance(act.action, m.ExchangeAction)
    assert set(act.action.cards) == {str(c) for c in hand[:2]}


def test_hand_result_is_verified_and_shown() -> None:
    state = advance_to(dealt(), Phase.PLAY, 0)
    while not state.hand_results:
        seat = state.current_player
        assert seat is not None
        state.apply(seat, state.legal_actions(seat)[0])
    model = model_at(dealt())
    from protocol.convert import hand_result_message

    good = hand_result_message(state.hand_results[0], CODE)
    model.handle(good)
    assert model.overlay is Overlay.RESULT
    assert model.verified[1]
    bad = good.model_copy(update={"seed": "00" * 32})
    model.handle(bad)
    assert not model.verified[1]


def test_reconnect_resends_an_unacknowledged_action() -> None:
    state = advance_to(dealt(), Phase.DRAFT, 0)
    model = model_at(state)
    model.press("k")
    model.connection_lost()
    assert model.connection == "reconnecting"
    sent = len(model.sent)
    model.handle(
        m.Welcome(
            protocol_version=1,
            server_versions=(1,),
            player_id="p1",
            name="alice",
            token="tok",
            resumed=True,
            tables=(CODE,),
        )
    )
    assert model.connection == "connected"
    assert model.sent[sent:] == [acts(model)[0]]
    model.handle(m.Ack(table=CODE, seq=acts(model)[0].seq, version=state.version + 1))
    assert model.pending is None


def test_snapshot_replaces_the_view() -> None:
    state = advance_to(dealt(), Phase.BIDDING, 0)
    model = model_at(state)
    later = advance_to(state, Phase.PLAY, 0)
    model.handle(snapshot(later))
    assert model.view is not None and model.view.phase is Phase.PLAY
    assert model.turn is None  # the old bidding turn is gone


def test_lobby_keys() -> None:
    model = ClientModel("bob")
    model.handle(
        m.Welcome(
            protocol_version=1,
            server_versions=(1,),
            player_id="p",
            name="bob",
            token="t",
            resumed=False,
        )
    )
    assert isinstance(model.sent[-1], m.ListTables)
    model.press("j")
    for char in "abc9":
        model.press(char)
    model.press("enter")
    assert model.sent[-1] == m.JoinTable(code="ABC9")
    model.press("c")
    assert model.overlay is Overlay.CREATE
    model.press("right")  # preset: five-hundred
    for _ in range(3):
        model.press("down")  # to target_score
    model.press("backspace")
    for char in "400":
        model.press(char)
    model.press("up")
    model.press("left")  # bot: normal -> easy
    model.press("enter")
    create = model.sent[-1]
    assert isinstance(create, m.CreateTable)
    assert create.preset == "five-hundred"
    assert create.overrides == {"target_score": 400}
    assert create.bot == "easy"


def test_a_refused_action_gives_the_turn_back() -> None:
    state = advance_to(dealt(), Phase.BIDDING, 0)
    model = model_at(state)
    model.press("3")
    model.press("enter")
    assert model.turn is None
    model.handle(m.ErrorMessage(code="rate_limited", message="slow down", request="action"))
    assert model.turn is not None and model.pending is None
    model.press("4")
    model.press("enter")
    assert acts(model)[-1].action == m.BidAction(tricks=4)
    # a stale version: the server moved on, a new your_turn will come
    model.handle(m.ErrorMessage(code="stale_version", message="old", request="action"))
    assert model.turn is None


def test_the_card_on_offer_comes_with_your_turn_or_from_a_fresh_snapshot() -> None:
    import dataclasses

    state = advance_to(dealt(), Phase.DRAFT, 0)
    offered = state.view_for(0).offered
    model = model_at(state)
    assert model.view is not None
    model.game.take_view(dataclasses.replace(model.view, offered=None), CODE)
    model.handle(your_turn(state))
    assert model.view.offered == offered
    assert not any(isinstance(msg, m.JoinTable) for msg in model.sent)
    model.game.take_view(dataclasses.replace(model.view, offered=None), CODE)
    model.handle(your_turn(state, offered=False))  # an older server: ask for a snapshot
    assert model.sent[-1] == m.JoinTable(code=CODE)
    model.handle(snapshot(state))
    assert model.view.offered == offered
    assert model.turn is not None  # the snapshot of the same version keeps the turn
