"""The trick pause: every finished trick stays on the table for a while (a setting)
before it is cleared, the last trick of the hand before the hand window opens. The
timer is injected: the tests fire it by hand, nothing sleeps."""

from __future__ import annotations

from collections.abc import Callable

from client.model import ClientModel, Overlay, Settings
from client.render import render_screen_text
from engine import GameState, Phase, PlayerAction
from protocol import messages as m
from protocol.convert import event_messages, hand_result_message
from tests.client.helpers import CODE, advance_to, dealt, model_at, your_turn


class FakeTimer:
    """Collects scheduled callbacks; ``fire`` runs the oldest one."""

    def __init__(self) -> None:
        self.pending: list[tuple[float, Callable[[], None]]] = []

    def __call__(self, delay: float, callback: Callable[[], None]) -> None:
        self.pending.append((delay, callback))

    def fire(self) -> None:
        _, callback = self.pending.pop(0)
        callback()


def paused_model(state: GameState, pause: float = 1.0) -> tuple[ClientModel, FakeTimer]:
    timer = FakeTimer()
    model = model_at(state, settings=Settings(trick_pause=pause, auto_play_one=False))
    model.schedule = timer
    return model, timer


def server_applies(model: ClientModel, state: GameState, seat: int, action: PlayerAction) -> None:
    """What the server sends seat 0 after ``seat`` does ``action``."""
    done = len(state.hand_results)
    outcome = state.apply(seat, action)
    events = event_messages(outcome.for_viewer(0))
    model.handle(m.Events(table=CODE, version=state.version, events=events))
    for result in state.hand_results[done:]:
        model.handle(hand_result_message(result, CODE))
    if state.current_player == 0:
        model.handle(your_turn(state))


def play_to_last_trick(seed: int = 5) -> GameState:
    state = advance_to(dealt(n=seed), Phase.PLAY, 0, seed)
    while len(state.view_for(0).tricks) < 12 or state.view_for(0).current_trick:
        seat = state.current_player
        assert seat is not None
        state.apply(seat, state.legal_actions(seat)[0])
    return state


def finish_trick(model: ClientModel, state: GameState) -> str:
    """Both seats play a card to a fresh trick; the text of the card the trick ends on."""
    last = ""
    for _ in range(2):
        seat = state.current_player
        assert seat is not None
        action = state.legal_actions(seat)[0]
        last = action.card.pretty()  # type: ignore[union-attr]
        server_applies(model, state, seat, action)
    return last


def test_a_finished_trick_stays_until_the_pause_ends() -> None:
    state = advance_to(dealt(n=2), Phase.PLAY, 0, 2)
    model, timer = paused_model(state)
    card = finish_trick(model, state)
    assert [delay for delay, _ in timer.pending] == [1.0]
    text = render_screen_text(model)
    assert card in text and "trick 1" in text and ("take" in text or "takes" in text)
    if state.current_player == 0:  # the next lead waits for the pause
        assert model.turn is None
    timer.fire()
    assert not model.pausing
    if state.current_player == 0:
        assert model.turn is not None


def test_the_last_trick_is_on_screen_before_the_hand_window() -> None:
    state = play_to_last_trick()
    model, timer = paused_model(state)
    card = finish_trick(model, state)
    assert model.overlay is None  # the hand window waits
    assert model.view is not None and model.view.phase is Phase.PLAY
    text = render_screen_text(model)
    assert card in text and "trick 13" in text
    timer.fire()
    assert model.overlay is Overlay.RESULT
    assert "Hand 1 result" in render_screen_text(model)


def test_a_forced_play_is_shown_with_its_trick() -> None:
    state = play_to_last_trick(7)  # at trick 13 every play is forced
    timer = FakeTimer()
    model = model_at(state, settings=Settings(trick_pause=1.0, auto_play_one=True))
    model.schedule = timer
    if state.current_player != 0:
        server_applies(model, state, 1, state.legal_actions(1)[0])
    assert model.sent and isinstance(model.sent[-1], m.Act)  # Auto Play One played it
    action = state.legal_actions(0)[0]
    server_applies(model, state, 0, action)
    if state.current_player == 1:
        server_applies(model, state, 1, state.legal_actions(1)[0])
    assert model.pausing and model.overlay is None
    assert action.card.pretty() in render_screen_text(model)  # type: ignore[union-attr]


def test_no_pause_when_the_setting_is_zero() -> None:
    state = advance_to(dealt(n=2), Phase.PLAY, 0, 2)
    model, timer = paused_model(state, pause=0.0)
    finish_trick(model, state)
    assert not timer.pending and not model.pausing


def test_the_pause_is_a_setting() -> None:
    model = ClientModel("alice")
    row = [name for name, _ in Settings.ITEMS].index("trick_pause")
    model.overlay = Overlay.SETTINGS
    model.settings_row = row
    model.press("right")
    assert model.settings.trick_pause == 1.5
    model.press("left")
    model.press("left")
    assert model.settings.trick_pause == 0.5


def test_the_next_hands_entropy_is_sent_during_the_pause() -> None:
    """The server waits only briefly for the seat's shuffle entropy: a hand that starts
    while the last trick is on show gets it at once, not after the pause."""
    state = play_to_last_trick()
    model, timer = paused_model(state)
    finish_trick(model, state)
    assert model.pausing
    started = m.HandStartedEvent(
        hand_number=2, first_drafter=1, first_bidder=1, commitment="ab" * 32
    )
    model.handle(m.Events(table=CODE, version=state.version + 1, events=(started,)))
    (entropy,) = [s for s in model.sent if isinstance(s, m.Entropy)]
    assert entropy.hand_number == 2 and model.pausing
    timer.fire()
    assert not model.pausing
    assert [s for s in model.sent if isinstance(s, m.Entropy)] == [entropy]  # once only


def test_enter_during_the_pause_goes_on_at_once_and_its_timer_cuts_no_later_pause() -> None:
    state = advance_to(dealt(n=2), Phase.PLAY, 0, 2)
    model, timer = paused_model(state)
    finish_trick(model, state)
    assert model.pausing
    assert "Trick over · Enter goes on" in render_screen_text(model)
    model.press("enter")
    assert not model.pausing and model.flash == ""
    assert "Trick over" not in render_screen_text(model)
    if state.current_player == 0:  # the held prompt was handled: the next lead is ours
        assert model.turn is not None
    finish_trick(model, state)  # the next trick starts its own pause
    assert model.pausing
    timer.fire()  # the first pause's timer, ended early by Enter: no effect
    assert model.pausing
    timer.fire()
    assert not model.pausing


def test_an_enter_just_as_the_hand_window_opens_does_not_close_it() -> None:
    now = [100.0]
    state = play_to_last_trick()
    timer = FakeTimer()
    model = model_at(
        state, settings=Settings(trick_pause=1.0, auto_play_one=False), clock=lambda: now[0]
    )
    model.schedule = timer
    finish_trick(model, state)
    timer.fire()
    assert model.overlay is Overlay.RESULT
    model.press("enter")  # pressed for the table a moment too late: the window stays
    assert model.overlay is Overlay.RESULT
    now[0] += 0.6
    model.press("enter")  # seen: now Enter closes it
    assert model.overlay is None
