"""Scores read the right way round: the winner first in every sentence, you first in
every column, and a score sheet whose every number is labelled (bags, penalties)."""

from __future__ import annotations

import random

from client.model import Overlay
from client.render import fragments_text, render_main, render_overlay, render_side
from client.replay import load_pages, render_page
from engine import Deal, GameState, RuleSet, game_record
from engine.bot import Bot
from protocol import messages as m
from protocol.convert import hand_result_message
from tests.client.helpers import CODE, model_at, seed_of


def played_game(rules: RuleSet, hands: int | None = None, seed: int = 1) -> GameState:
    rng = random.Random(seed)
    bots = (Bot("easy", seed=1), Bot("easy", seed=2))
    state = GameState(rules)
    while not state.is_over and (hands is None or len(state.hand_results) < hands):
        seat = state.current_player
        if seat is None:
            state.apply(None, Deal(seed_of(rng.randrange(10**6))))
            continue
        state.apply(seat, bots[seat].choose(state.view_for(seat)))
    return state


def test_game_over_says_the_winner_first() -> None:
    state = played_game(RuleSet.preset("classic"), hands=1)
    model = model_at(state, 0)
    model.handle(
        m.Events(
            table=CODE,
            version=state.version + 1,
            events=(m.GameOverEvent(winner=1, scores=(228, 355)),),
        )
    )
    assert "Game over: Bot wins 355 to 228." in model.log
    text = fragments_text(render_main(model))
    assert "Bot wins 355 to 228" in text
    assert text.index("You 228") < text.index("Bot 355")  # you first in the score line


def test_replay_says_the_winner_first() -> None:
    state = played_game(RuleSet.preset("classic"))
    final, pages = load_pages(game_record(state))
    text = fragments_text(render_page(final, pages, len(pages) - 1))
    winner = final.winner
    assert winner is not None
    high, low = final.scores[winner], final.scores[1 - winner]
    assert high > low
    assert f"seat {winner} wins {high} to {low}." in text


def test_columns_are_you_first_everywhere_for_seat_one() -> None:
    state = played_game(RuleSet.preset("classic"), hands=2)
    model = model_at(state, 1)  # seated in seat 1: "You" is seat 1
    for result in state.hand_results:
        model.handle(hand_result_message(result, CODE))
    last = state.hand_results[-1]
    # (the test table seats "alice" in seat 0 and a bot in seat 1: seated in seat 1,
    # the opponent is "alice")
    side = fragments_text(render_side(model))
    assert side.index("You") < side.index("alice")
    model.overlay = Overlay.RESULT
    window = fragments_text(render_overlay(model))
    assert window.index("You") < window.index("alice")
    row = next(line for line in window.splitlines() if "total (bags)" in line)
    assert row.split()[-4:] == [
        str(last.scores[1]),
        f"({last.bags[1]})",
        str(last.scores[0]),
        f"({last.bags[0]})",
    ]
    model.overlay = Overlay.SCORES
    sheet = fragments_text(render_overlay(model))
    assert sheet.index("You") < sheet.index("alice")


def test_the_score_sheet_shows_bags_and_penalties_per_hand() -> None:
    rules = RuleSet.preset("classic").replace(bag_limit=2, bag_penalty=50)
    state = played_game(rules, hands=6, seed=4)
    penalised = [r for r in state.hand_results if any(r.bag_penalties)]
    assert penalised, "the seed gives a hand with a bag penalty"
    model = model_at(state, 0)
    for result in state.hand_results:
        model.handle(hand_result_message(result, CODE))
    model.overlay = Overlay.SCORES
    sheet = fragments_text(render_overlay(model)).splitlines()
    header = next(line for line in sheet if "hand" in line and "bid" in line)
    for label in ("bid", "tk", "bags", "pen", "pts", "total"):
        assert label in header
    result = penalised[0]
    seat = 0 if result.bag_penalties[0] else 1
    row = next(
        line for line in sheet if line.split() and line.split()[0] == str(result.hand_number)
    )
    cells = row.split("│")[0 if seat == 0 else 1]
    assert str(-result.bag_penalties[seat] * 50) in cells.split()
    assert f"+{result.bags_added[seat]}" in cells.split()
    assert f"{result.points[seat]:+d}" in cells.split()
