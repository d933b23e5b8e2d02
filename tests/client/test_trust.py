"""What must never happen, each driven through the application's real key bindings
(keys typed into a pipe input, the screen drawn to an output of a chosen size)."""

from __future__ import annotations

import asyncio

from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from client.model import ClientModel, Overlay
from client.ui import build_application
from engine import Card, Phase, Play
from protocol import messages as m
from protocol.convert import event_messages
from tests.client.helpers import (
    CODE,
    advance_to,
    dealt,
    lead_state_with_unbroken_spades,
    model_at,
    snapshot,
    your_turn,
)
from tests.client.test_model import acts, play_state


class SizedOutput(DummyOutput):
    """A DummyOutput that reports a terminal of ``rows`` x ``columns``."""

    def __init__(self, columns: int = 80, rows: int = 24) -> None:
        self.size = Size(rows=rows, columns=columns)

    def get_size(self) -> Size:
        return self.size


def run_app(model: ClientModel, *chunks: str, columns: int = 80, rows: int = 24) -> None:
    """Run the app over ``model`` at the given size, type each chunk, then quit."""

    async def run() -> None:
        with create_pipe_input() as pipe:
            app = build_application(
                model, input=pipe, output=SizedOutput(columns, rows), refresh_interval=None
            )
            task = asyncio.create_task(app.run_async())
            await asyncio.sleep(0.05)
            for chunk in chunks:
                if callable(chunk):
                    chunk()
                else:
                    pipe.send_text(chunk)
                await asyncio.sleep(0.06)
            if app.is_running and not (app.future is not None and app.future.done()):
                app.exit()  # end the app without telling the model anything
            await asyncio.wait_for(task, 5)

    asyncio.run(run())


def played(model: ClientModel) -> list[Card]:
    return [Card.parse(a.action.card) for a in acts(model)]  # type: ignore[union-attr]


def key(card: Card) -> str:
    return str(card).lower()


# ---- the card the player did not choose ---------------------------------------------


def test_enter_after_a_refused_card_plays_nothing() -> None:
    state = lead_state_with_unbroken_spades()
    hand = state.hand_of(0)
    spade = next(c for c in hand if c.suit == 3)
    model = model_at(state)
    assert model.cursor is not None  # the cursor starts on a legal card
    run_app(model, key(spade), "\r")
    assert "may not be played now: spades are not broken" in model.flash
    assert played(model) == []
    assert model.cursor is None  # no card is shown as chosen


def test_garbage_then_a_refused_card_then_enter_plays_nothing() -> None:
    state = lead_state_with_unbroken_spades()
    spade = next(c for c in state.hand_of(0) if c.suit == 3)
    model = model_at(state)
    run_app(model, "zz9", "1", key(spade), "\r", "\r")
    assert played(model) == []


def test_a_typed_legal_card_moves_the_cursor_and_enter_plays_it() -> None:
    state = lead_state_with_unbroken_spades()
    spade = next(c for c in state.hand_of(0) if c.suit == 3)
    legal = [a.card for a in state.legal_actions(0) if isinstance(a, Play)]
    target = legal[-1]
    model = model_at(state)
    run_app(model, key(spade), "\r", key(target))
    assert model.cursor == target
    assert played(model) == []
    run_app(model, "\r")
    assert played(model) == [target]


def test_a_half_typed_card_makes_enter_wait() -> None:
    state = lead_state_with_unbroken_spades()
    model = model_at(state)
    cursor = model.cursor
    assert cursor is not None
    run_app(model, "q", "\r")
    assert played(model) == []
    assert "finish" in model.flash.lower()


def test_a_card_the_player_does_not_hold_clears_the_choice() -> None:
    state = lead_state_with_unbroken_spades()
    missing = next(
        Card.of(r, s) for s in range(4) for r in range(13) if Card.of(r, s) not in state.hand_of(0)
    )
    model = model_at(state)
    run_app(model, key(missing), "\r")
    assert "do not hold" in model.flash
    assert played(model) == []


def test_arrows_after_a_refusal_choose_a_legal_card_again() -> None:
    state = lead_state_with_unbroken_spades()
    spade = next(c for c in state.hand_of(0) if c.suit == 3)
    legal = {a.card for a in state.legal_actions(0) if isinstance(a, Play)}
    model = model_at(state)
    run_app(model, key(spade), "\x1b[C", "\r")
    (card,) = played(model)
    assert card in legal


# ---- keys below the minimum size ------------------------------------------------------


def test_no_game_key_acts_below_the_minimum_size() -> None:
    state = play_state(forced=False)
    legal = [a.card for a in state.legal_actions(0) if isinstance(a, Play)]
    model = model_at(state)
    run_app(model, key(legal[0]), "\r", "\r", "x", "y", "\t", "o", columns=60, rows=20)
    assert played(model) == []
    assert model.overlay is None
    assert not any(isinstance(s, m.Leave) for s in model.sent)


def test_the_too_small_screen_says_the_size_needed_and_had() -> None:
    from client.render import render_too_small

    model = model_at(play_state(forced=False))
    text = "".join(t for _, t, *_ in render_too_small(model, Size(rows=20, columns=60)))
    assert "80x24" in text and "60x20" in text


def test_keys_act_again_once_the_terminal_is_big_enough() -> None:
    state = play_state(forced=False)
    model = model_at(state)
    output = SizedOutput(60, 20)

    async def run() -> None:
        with create_pipe_input() as pipe:
            app = build_application(model, input=pipe, output=output, refresh_interval=None)
            task = asyncio.create_task(app.run_async())
            await asyncio.sleep(0.05)
            pipe.send_text("\r")
            await asyncio.sleep(0.06)
            assert played(model) == []
            output.size = Size(rows=24, columns=80)
            pipe.send_text("\r")
            await asyncio.sleep(0.06)
            model.request_quit()
            await asyncio.wait_for(task, 5)

    asyncio.run(run())
    assert len(played(model)) == 1


# ---- the forfeit prompt ---------------------------------------------------------------


def opponent_moves(model: ClientModel) -> None:
    """The opponent acts (a bid): an events message and a fresh turn arrive."""
    state = model._test_state  # type: ignore[attr-defined]
    seat = state.current_player
    outcome = state.apply(seat, state.legal_actions(seat)[0])
    model.handle(
        m.Events(table=CODE, version=state.version, events=event_messages(outcome.for_viewer(0)))
    )
    if state.current_player == 0:
        model.handle(your_turn(state, 0))


def draft_model() -> ClientModel:
    state = advance_to(dealt(), Phase.DRAFT, 1)
    model = model_at(state)
    model._test_state = state  # type: ignore[attr-defined]
    return model


def test_leave_asks_yes_or_no_and_survives_the_opponents_moves() -> None:
    model = draft_model()
    run_app(model, "x", lambda: opponent_moves(model))
    assert model.overlay is Overlay.LEAVE
    run_app(model, "y")
    assert m.Leave(code=CODE) in model.sent


def test_leave_answered_no_is_gone_and_sends_nothing() -> None:
    model = draft_model()
    run_app(model, "x", "n")
    assert model.overlay is None
    assert not any(isinstance(s, m.Leave) for s in model.sent)
    run_app(model, "y")  # a later y is not a late answer
    assert not any(isinstance(s, m.Leave) for s in model.sent)


def test_x_then_a_card_key_does_not_forfeit() -> None:
    model = draft_model()
    run_app(model, "xs", "\r", "x")
    assert not any(isinstance(s, m.Leave) for s in model.sent)
    assert "y" in model.flash or model.overlay is Overlay.LEAVE


def test_the_leave_prompt_is_gone_at_the_next_table() -> None:
    model = draft_model()
    run_app(model, "x")
    model.handle(m.Left(table=CODE))
    assert model.overlay is None
    state = advance_to(dealt(n=2), Phase.DRAFT, 1)
    model.handle(snapshot(state, 0))
    run_app(model, "y")
    assert not any(isinstance(s, m.Leave) for s in model.sent)


# ---- Ctrl-C asks during a game ---------------------------------------------------------


def test_ctrl_c_during_a_game_asks_before_quitting() -> None:
    model = draft_model()
    run_app(model, "\x03")
    assert model.overlay is Overlay.QUIT
    assert not model.quit_requested
    run_app(model, "n")
    assert model.overlay is None and not model.quit_requested
    run_app(model, "\x03", "\x03")
    assert model.quit_requested
    assert not any(isinstance(s, m.Leave) for s in model.sent)  # quitting keeps the seat


def test_ctrl_c_outside_a_game_quits_at_once() -> None:
    model = ClientModel("alice")
    run_app(model, "\x03")
    assert model.quit_requested


def test_the_quit_question_says_how_long_the_seat_is_held() -> None:
    from client.render import fragments_text, render_overlay

    model = draft_model()
    model.interrupt()
    text = fragments_text(render_overlay(model))
    assert "held 60 s" in text and "bot plays for you" in text


def test_the_quit_question_in_a_local_game_says_quitting_ends_it() -> None:
    from client.render import fragments_text, render_overlay

    model = draft_model()
    model.local = True  # plain `spades`: the server lives in this process
    model.interrupt()
    text = fragments_text(render_overlay(model))
    assert "quitting ends it" in text and "held" not in text
