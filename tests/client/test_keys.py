"""Key bindings through the real application: keys typed into a pipe input, drawn to a
DummyOutput, arrive at the model as they should."""

from __future__ import annotations

import asyncio

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from client.model import ClientModel, Overlay
from client.ui import build_application
from engine import Card, Phase
from protocol import messages as m
from tests.client.helpers import advance_to, dealt, model_at
from tests.client.test_model import acts, play_state


def run_keys(model: ClientModel, *chunks: str) -> None:
    """Run the app over ``model``, type each chunk (a pause between), then quit."""

    async def run() -> None:
        with create_pipe_input() as pipe:
            app = build_application(model, input=pipe, output=DummyOutput(), refresh_interval=None)
            task = asyncio.create_task(app.run_async())
            await asyncio.sleep(0.05)
            for chunk in chunks:
                pipe.send_text(chunk)
                await asyncio.sleep(0.08)
            model.request_quit()  # (Ctrl-C asks first during a game: see test_trust)
            await asyncio.wait_for(task, 5)

    asyncio.run(run())
    assert model.quit_requested


def test_draft_key_through_the_app() -> None:
    model = model_at(advance_to(dealt(), Phase.DRAFT, 0))
    run_keys(model, "d")
    (act,) = acts(model)
    assert isinstance(act.action, m.DiscardAction)


def test_bid_keys_through_the_app() -> None:
    model = model_at(advance_to(dealt(), Phase.BIDDING, 0))
    run_keys(model, "4", "\x1b[A", "\r")  # 4, up arrow, Enter
    (act,) = acts(model)
    assert act.action == m.BidAction(tricks=5)


def test_arrows_and_enter_play_a_legal_card() -> None:
    state = play_state(forced=False)
    legal = {a.card for a in state.legal_actions(0)}  # type: ignore[union-attr]
    model = model_at(state)
    run_keys(model, "\x1b[C", "\x1b[C", "\x1b[D", "\x1b[B", "\r")
    (act,) = acts(model)
    assert Card.parse(act.action.card) in legal  # type: ignore[union-attr]


def test_a_typed_illegal_card_is_not_sent_through_the_app() -> None:
    for seed in range(3, 60):
        state = play_state(seed, forced=False)
        legal = {a.card for a in state.legal_actions(0)}  # type: ignore[union-attr]
        illegal = [c for c in state.hand_of(0) if c not in legal]
        if illegal:
            break
    model = model_at(state)
    run_keys(model, str(illegal[0]).lower())
    assert not acts(model)
    assert "may not be played" in model.flash


def test_auto_play_one_through_the_app_and_off() -> None:
    state = play_state(forced=True)
    model = model_at(state)
    assert len(acts(model)) == 1  # played at once, before any key
    model = model_at(advance_to(dealt(), Phase.DRAFT, 0))
    run_keys(model, "o", "\r", "o")  # settings: Auto Play One off, close
    assert not model.settings.auto_play_one
    assert model.overlay is None


def test_help_tab_and_chat_windows() -> None:
    model = model_at(advance_to(dealt(), Phase.DRAFT, 0))
    run_keys(model, "?")
    assert model.overlay is Overlay.HELP
    model = model_at(advance_to(dealt(), Phase.DRAFT, 0))
    run_keys(model, "\t")
    assert model.overlay is Overlay.SCORES
    model = model_at(advance_to(dealt(), Phase.DRAFT, 0))
    run_keys(model, "m", "hi there", "\r")
    assert model.sent[-1] == m.Chat(code="T3ST", text="hi there")
