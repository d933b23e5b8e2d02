"""Terminal sizes: at the minimum (80x24) nothing is cut in any phase of random games;
at 100x30, 120x40 and 200x60 the layout grows (large trick cards, a longer log, the
score sheet beside the table)."""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator

import pytest
from prompt_toolkit.utils import get_cwidth

from client.i18n import LANGUAGES, install
from client.model import ClientModel, Overlay
from client.render import (
    Dims,
    fragments_text,
    render_main,
    render_overlay,
    render_screen_text,
    render_side,
)
from engine import Deal, Exchange, GameState, Phase, RuleSet
from protocol import messages as m
from protocol.convert import hand_result_message
from tests.client.helpers import CODE, advance_to, dealt, model_at, seed_of

SIZES = [(80, 24), (100, 30), (120, 40), (200, 60)]
MIN = Dims.of(80, 24)


def lines_of(fragments: object) -> list[str]:
    return fragments_text(fragments).split("\n")  # type: ignore[arg-type]


def assert_nothing_cut(model: ClientModel, size: Dims = MIN) -> None:
    main, side = lines_of(render_main(model, size)), lines_of(render_side(model, size))
    assert len(main) <= size.body and len(side) <= size.body
    for line in main:
        assert get_cwidth(line) <= size.main, f"cut at {size.main}: {line!r}"
    for line in side:
        assert get_cwidth(line) <= size.side, f"cut at {size.side}: {line!r}"
    if model.overlay is not None:
        window = lines_of(render_overlay(model, size))
        assert len(window) <= size.rows - 3, "the window's frame would run off the screen"
        for line in window:
            assert get_cwidth(line) <= 74, f"overlay cut: {line!r}"
    rows = render_screen_text(model, size).split("\n")
    assert all(get_cwidth(row) <= size.columns for row in rows[: size.rows])


def random_states(preset: str, seed: int, every: int = 5, steps: int = 600) -> list[GameState]:
    """Copies of the states of a random game (bounded), ``every`` steps apart, and the
    final one."""
    import copy

    rng = random.Random(seed)
    state = GameState(RuleSet.preset(preset, target_score=120, lose_score=-150))
    out: list[GameState] = []
    step = 0
    while not state.is_over and step < steps:
        seat = state.current_player
        if seat is None:
            state.apply(None, Deal(seed_of(rng.randrange(10**6))))
            continue
        if step % every == 0:
            out.append(copy.deepcopy(state))
        if state.phase is Phase.EXCHANGE:
            state.apply(seat, Exchange(tuple(state.hand_of(seat)[:1])))
        else:
            legal = state.legal_actions(seat)
            declare = [a for a in legal if getattr(a, "declare", False)]
            state.apply(seat, declare[0] if declare and rng.random() < 0.2 else rng.choice(legal))
        step += 1
    out.append(state)
    return out


@pytest.mark.parametrize(("preset", "seed"), [("classic", 21), ("five-hundred", 22)])
def test_nothing_is_cut_at_80x24_in_any_phase(preset: str, seed: int) -> None:
    phases = set()
    for state in random_states(preset, seed):
        for viewer in (0, 1, None):
            model = model_at(state, viewer)
            for result in state.hand_results:
                model.handle(hand_result_message(result, CODE))
            model.overlay = None
            phases.add(state.phase)
            assert_nothing_cut(model)
            if viewer is not None:  # the four suit rows are all on screen
                text = render_screen_text(model)
                for symbol in "♠♥♣♦":
                    assert f"   {symbol} " in text
    assert {Phase.DRAFT, Phase.BIDDING, Phase.PLAY, Phase.GAME_OVER} <= phases


def game_over_model(seat: int | None = 0) -> ClientModel:
    states = random_states("classic", 23, every=10_000, steps=20_000)
    state = states[-1]
    assert state.is_over
    model = model_at(state, seat)
    for result in state.hand_results:
        model.handle(hand_result_message(result, CODE))
    assert state.winner is not None
    model.handle(
        m.GameOver(
            table=CODE,
            winner=state.winner,
            reason="score",
            scores=(
                m.ScoreLine(seat=0, name="alice", score=state.scores[0], bags=state.bags[0]),
                m.ScoreLine(seat=1, name="Bot", score=state.scores[1], bags=state.bags[1]),
            ),
            record_id="Ab3_x-9QrT2mK7pZ",
        )
    )
    model.overlay = None  # the last hand's window, closed
    return model


@pytest.mark.parametrize("record_id", ["Ab3_x-9QrT2mK7pZ", "0123456789abcdef" * 2])
def test_the_game_over_panel_and_the_saved_file_name_are_whole(
    tmp_path: object, record_id: str
) -> None:
    model = game_over_model()
    model.record_dir = tmp_path  # type: ignore[assignment]
    model.handle(m.RecordMessage(record_id=record_id, record_json="{}"))
    assert_nothing_cut(model)
    text = render_screen_text(model)
    assert f"spades-{record_id}.json" in text  # whole, on one line, copyable
    assert "Tab score sheet" in text and "r rematch" in text
    assert "spades replay" in text


def test_a_spectator_is_not_offered_a_rematch() -> None:
    model = game_over_model(None)
    assert_nothing_cut(model)
    text = render_screen_text(model)
    assert "rematch" not in text and "l leave" in text


def test_five_hundred_trick_panel_keeps_both_bids() -> None:
    for n in range(1, 80):
        state = advance_to(dealt(RuleSet.preset("five-hundred"), n=n), Phase.PLAY, 0, n)
        view = state.view_for(0)
        if view.blind_nil[0] or view.blind_nil[1]:
            break
    else:
        raise AssertionError("no blind nil hand")
    model = model_at(state)
    assert_nothing_cut(model)
    text = render_screen_text(model)
    assert "blind nil" in text
    for seat in (0, 1):
        bid = "blind nil" if view.blind_nil[seat] else str(view.bids[seat])
        name = "You" if seat == 0 else "Bot"
        assert any(name in row and bid in row for row in text.split("\n")), (name, bid)


@pytest.mark.parametrize(("columns", "rows"), SIZES)
def test_the_layout_at_each_size(columns: int, rows: int) -> None:
    state = advance_to(dealt(), Phase.PLAY, 1, 9)
    state.apply(1, state.legal_actions(1)[0])
    model = model_at(state)
    for index in range(60):
        model.say(f"log entry {index}")
    size = Dims.of(columns, rows)  # the terminal's size goes into drawing, not the model
    assert_nothing_cut(model, size)
    text = render_screen_text(model, size)
    screen_rows = text.split("\n")
    assert len(screen_rows) == rows
    shown = sum(1 for row in screen_rows if "log entry" in row)
    assert shown == rows - 3 - 9  # every row of the side bar below its 9 header rows
    large = "┌───────┐" in text  # the trick's cards drawn large
    assert large == (rows >= 30)
    beside = "Score sheet" in text
    assert beside == (columns >= 200)
    model.overlay = Overlay.SCORES
    assert_nothing_cut(model, size)


# ---- every language ---------------------------------------------------------------
# The same random games drawn in each language at the three sizes a player is likely to
# have: no line wider than its column, no window taller than the screen (Japanese is two
# columns a character, German and Greek words are long). Every window is opened too.

LANGUAGE_SIZES = [(80, 24), (100, 30), (120, 40)]
WINDOWS = [
    Overlay.HELP,
    Overlay.SCORES,
    Overlay.SETTINGS,
    Overlay.CHAT,
    Overlay.PILE,
    Overlay.RULES,
    Overlay.LEAVE,
    Overlay.QUIT,
    Overlay.RESULT,
]


@functools.cache
def sampled_states(preset: str, seed: int) -> tuple[GameState, ...]:
    """A random game's states, every 11th and every bidding one (bidding is short)."""
    every = random_states(preset, seed, every=1)
    return tuple(
        state
        for index, state in enumerate(every)
        if index % 11 == 0 or state.phase is Phase.BIDDING or index == len(every) - 1
    )


@pytest.fixture(params=LANGUAGES)
def speaking(request: pytest.FixtureRequest) -> Iterator[str]:
    """The client speaks the language of the parameter for the test, English after."""
    install(request.param)
    yield request.param
    install("en")


@pytest.mark.parametrize(("preset", "seed"), [("classic", 31), ("five-hundred", 32)])
@pytest.mark.parametrize(("columns", "rows"), LANGUAGE_SIZES)
def test_nothing_is_cut_in_any_language(
    speaking: str, preset: str, seed: int, columns: int, rows: int
) -> None:
    size = Dims.of(columns, rows)
    phases = set()
    for index, state in enumerate(sampled_states(preset, seed)):
        for viewer in (0, None):
            model = model_at(state, viewer)
            for result in state.hand_results:
                model.handle(hand_result_message(result, CODE))
            model.overlay = None
            phases.add(state.phase)
            assert_nothing_cut(model, size)
            if viewer == 0:  # each window, over a different state each time
                model.overlay = WINDOWS[index % len(WINDOWS)]
                assert_nothing_cut(model, size)
    assert {Phase.DRAFT, Phase.BIDDING, Phase.PLAY, Phase.GAME_OVER} <= phases


@pytest.mark.parametrize(("columns", "rows"), LANGUAGE_SIZES)
def test_every_window_fits_in_any_language(speaking: str, columns: int, rows: int) -> None:
    size = Dims.of(columns, rows)
    state = random_states("five-hundred", 33, every=10_000, steps=40)[-1]
    model = model_at(state)
    for overlay in [*WINDOWS, Overlay.CREATE, Overlay.JOIN, Overlay.WATCH]:
        model.overlay = overlay
        assert_nothing_cut(model, size)
    over = game_over_model()
    assert_nothing_cut(over, size)
    lobby = ClientModel("alice")
    assert_nothing_cut(lobby, size)
