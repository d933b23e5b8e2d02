"""Rendering: what the player must see is drawn, and of the opponent only a count."""

from __future__ import annotations

import re
from io import StringIO

from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from client.model import ClientModel, Overlay, Settings
from client.render import render_screen_text
from client.ui import build_application
from engine import GameState, Phase, RuleSet
from engine.bot import Bot
from protocol import messages as m
from protocol.convert import hand_result_message
from tests.client.helpers import CODE, advance_to, dealt, model_at, snapshot


def screen(model: ClientModel) -> str:
    return render_screen_text(model)


def assert_no_opponent_cards(
    state: GameState, text: str, seat: int = 0, ascii_only: bool = False
) -> None:
    for card in state.hand_of(1 - seat):
        assert card.pretty(ascii_only) not in text, f"{card} of the opponent is on screen"


def test_draft_shows_the_card_on_offer_big_and_the_counts() -> None:
    state = advance_to(dealt(), Phase.DRAFT, 0, 5)
    for _ in range(6):
        state = advance_to(state, Phase.DRAFT, 0, 5)
        state.apply(0, state.legal_actions(0)[_ % 2])
    state = advance_to(state, Phase.DRAFT, 0, 5)
    view = state.view_for(0)
    assert view.offered is not None
    model = model_at(state)
    text = screen(model)
    rank = view.offered.pretty()[:-1]
    assert f"│{rank}" in text  # the big card's corner
    assert "Card on offer" in text
    assert "k keep" in text and "d discard" in text
    assert f"you {13 - view.draft_turns[0]}" in text
    for card in view.draft_discarded:
        assert card.pretty() in text  # seen and discarded so far
    assert f"{view.hand_sizes[1]} cards" in text
    assert_no_opponent_cards(state, text)


def test_bidding_shows_the_opponents_bid_and_the_typed_bid() -> None:
    for n in range(1, 40):
        state = advance_to(dealt(n=n), Phase.BIDDING, 0, n)
        if state.view_for(0).bids[1] is not None:
            break
    bid = state.view_for(0).bids[1]
    model = model_at(state)
    model.press("7")
    text = screen(model)
    assert "Bidding" in text
    assert "Your bid:  7" in text
    assert f"Bot          {'nil' if bid == 0 else bid}" in text
    assert "13 cards" in text
    assert_no_opponent_cards(state, text)


def test_play_shows_the_trick_scores_and_tricks() -> None:
    state = advance_to(dealt(), Phase.PLAY, 1, 9)
    card = state.legal_actions(1)[0].card  # type: ignore[union-attr]
    state.apply(1, state.legal_actions(1)[0])
    model = model_at(state)
    text = screen(model)
    assert f"│ {card.pretty()}  │" in text  # the opponent's card on the trick
    assert "Trick 1 of 13" in text
    assert "Bot leads" in text
    assert "spades not broken" in text
    view = state.view_for(0)
    assert f"You won 0/{view.bids[0] or 'nil'}" in text
    assert "score" in text and "bags" in text and "target 300" in text
    assert "turn: YOU" in text
    assert_no_opponent_cards(state, text)
    # the legal cards and the cursor are styled apart from the rest
    from client.render import render_main

    styles = {frag[1]: frag[0] for frag in render_main(model)}
    legal = {a.card for a in state.legal_actions(0)}  # type: ignore[union-attr]
    for c in state.hand_of(0):
        style = styles[c.pretty()]
        assert ("card.illegal" in style) == (c not in legal)


def test_ascii_card_style() -> None:
    state = advance_to(dealt(), Phase.PLAY, 0, 2)
    model = model_at(state, settings=Settings(ascii_cards=True))
    text = screen(model)
    assert "♠" not in text and "♥" not in text
    assert state.hand_of(0)[0].pretty(True) in text
    assert_no_opponent_cards(state, text, ascii_only=True)


def test_hand_result_score_sheet_and_game_over() -> None:
    rules = RuleSet.preset("classic", target_score=50)
    state = dealt(rules)
    bot = Bot("easy", seed=4)
    while not state.is_over:
        seat = state.current_player
        if seat is None:
            from engine import Deal
            from tests.client.helpers import seed_of

            state.apply(None, Deal(seed_of(len(state.hand_results) + 7)))
            continue
        state.apply(seat, bot.choose(state.view_for(seat)))
    model = model_at(state)
    result = state.hand_results[-1]
    model.handle(hand_result_message(result, CODE))
    text = screen(model)
    assert model.overlay is Overlay.RESULT
    assert f"Hand {result.hand_number} result" in text
    assert "shuffle verified ✓" in text
    assert f"{result.scores[0]} ({result.bags[0]})" in text
    assert f"{result.points[1]:+d}" in text
    model.press("enter")
    model.press("tab")
    text = screen(model)
    assert "Score sheet" in text
    assert text.count("✓") >= len(state.hand_results)
    model.press("escape")
    winner = state.winner
    assert winner is not None
    model.handle(
        m.GameOver(
            table=CODE,
            winner=winner,
            reason="score",
            scores=(
                m.ScoreLine(seat=0, name="alice", score=state.scores[0], bags=state.bags[0]),
                m.ScoreLine(seat=1, name="Bot", score=state.scores[1], bags=state.bags[1]),
            ),
            record_id="r1",
        )
    )
    text = screen(model)
    assert "GAME OVER" in text
    assert ("You WIN!" in text) == (winner == 0)
    assert "r rematch" in text
    model.press("r")
    assert model.sent[-1] == m.Rematch(code=CODE)


def test_opponent_connection_and_hold_countdown() -> None:
    state = advance_to(dealt(), Phase.DRAFT, 0)
    now = [100.0]
    model = model_at(state, clock=lambda: now[0])
    dropped = m.SeatInfo(kind="human", name="carol", connected=False, hold_seconds_left=42.0)
    model.handle(m.TableUpdate(table=snapshot(state, 0, opponent=dropped).table))
    assert "carol ○ dropped, held 42s" in screen(model)
    now[0] += 10
    assert "held 32s" in screen(model)
    model.connection_lost()
    assert "reconnecting…" in screen(model)


def test_blind_nil_prompt_and_help() -> None:
    state = dealt(RuleSet.preset("five-hundred"))
    state = advance_to(state, Phase.BLIND_NIL, 0)
    model = model_at(state)
    text = screen(model)
    assert "BLIND NIL?" in text and "y = declare blind nil" in text
    model.press("?")
    assert "At the table" in screen(model)
    model.press("escape")
    model.press("y")
    assert isinstance(model.sent[-1], m.Act)


def test_the_application_draws_to_a_terminal() -> None:
    """The real layout, drawn by prompt_toolkit into a vt100 stream at 80x24."""
    import asyncio

    state = advance_to(dealt(), Phase.DRAFT, 0)
    model = model_at(state)
    stream = StringIO()
    output = Vt100_Output(stream, lambda: Size(rows=24, columns=80), term="xterm")

    async def run() -> None:
        with create_pipe_input() as pipe:
            app = build_application(model, input=pipe, output=output, refresh_interval=None)
            task = asyncio.create_task(app.run_async())
            await asyncio.sleep(0.3)
            pipe.send_text("?")
            await asyncio.sleep(0.3)
            pipe.send_text("\x03\x03")  # during a game Ctrl-C asks; again is yes
            await asyncio.wait_for(task, 5)

    asyncio.run(run())
    drawn = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", " ", stream.getvalue())
    assert "Card on offer" in drawn
    assert "At the table" in drawn
    assert_no_opponent_cards(state, drawn)


def test_every_screen_of_a_game_fits_80x24() -> None:
    """Random games under both presets: every state, drawn for a seat and a spectator,
    fits the terminal, and never shows a card of the other seat."""
    import random

    from prompt_toolkit.utils import get_cwidth

    from client.render import fragments_text, render_overlay
    from engine import Deal, Exchange
    from tests.client.helpers import seed_of

    for preset, seed in (("classic", 1), ("five-hundred", 2)):
        rng = random.Random(seed)
        state = GameState(RuleSet.preset(preset, target_score=100))
        checked = 0
        while not state.is_over and checked < 400:
            seat = state.current_player
            if seat is None:
                state.apply(None, Deal(seed_of(rng.randrange(10**6))))
                continue
            if checked % 3 == 0:
                for viewer in (0, None):
                    model = model_at(state, viewer)
                    text = screen(model)
                    rows = text.split("\n")
                    assert len(rows) <= 24
                    assert all(get_cwidth(row) <= 80 for row in rows), text
                    if viewer is not None:
                        # cards this seat saw go to the pile may since have been drawn
                        # by the other seat's blind-nil exchange: known, not leaked
                        view = state.view_for(viewer)
                        known = {
                            *view.draft_discarded,
                            *view.draft_seen_after_keep,
                            *view.exchange_given,
                        }
                        for card in state.hand_of(1 - viewer):
                            if card not in known:
                                assert card.pretty() not in text, card
                    else:
                        for card in (*state.hand_of(0), *state.hand_of(1)):
                            assert card.pretty() not in text
                    model.press("tab")
                    sheet = fragments_text(render_overlay(model)).split("\n")
                    assert len(sheet) <= 20 and all(get_cwidth(r) <= 74 for r in sheet)
            if state.phase is Phase.EXCHANGE:
                state.apply(seat, Exchange(tuple(state.hand_of(seat)[:2])))
            else:
                legal = state.legal_actions(seat)
                declare = [a for a in legal if getattr(a, "declare", False)]
                state.apply(
                    seat, declare[0] if declare and rng.random() < 0.3 else rng.choice(legal)
                )
            checked += 1
