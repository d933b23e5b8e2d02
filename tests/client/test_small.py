"""The small things: counts in words, the pile on a key, the fourth exchange pick,
the create form's labels, no rematch for a spectator, the log across a resume, and the
rules screen drawn from the table's rule set."""

from __future__ import annotations

import random

from client.model import ClientModel, Overlay
from client.render import fragments_text, render_overlay, render_screen_text
from engine import Deal, Exchange, GameState, Phase, RuleSet
from protocol import messages as m
from tests.client.helpers import CODE, advance_to, dealt, model_at, seed_of
from tests.client.test_layout import game_over_model
from tests.client.test_pause import play_to_last_trick
from tests.client.test_trust import run_app


def test_one_card_is_one_card() -> None:
    state = play_to_last_trick()
    model = model_at(state)
    text = render_screen_text(model)
    assert " 1 card " in text and "1 cards" not in text


def test_hand_result_header_has_a_separator() -> None:
    from protocol.convert import hand_result_message
    from tests.client.test_scores import played_game

    state = played_game(RuleSet.preset("classic"), hands=1)
    model = model_at(state)
    model.handle(hand_result_message(state.hand_results[0], CODE))
    assert "Hand 1 result · shuffle verified ✓" in fragments_text(render_overlay(model))


def test_the_pile_key_shows_the_pile_by_suit_during_play() -> None:
    state = advance_to(dealt(), Phase.PLAY, 0, 4)
    view = state.view_for(0)
    model = model_at(state)
    run_app(model, "p")
    assert model.overlay is Overlay.PILE
    rows = fragments_text(render_overlay(model)).split("\n")
    known = [*view.draft_discarded, *view.draft_seen_after_keep]
    assert known
    for card in known:
        symbol = card.pretty()[-1]
        row = next(r for r in rows if r.startswith(f"  {symbol}  "))
        assert card.pretty() in row  # in its suit's row
    run_app(model, "p")
    assert model.overlay is None


def test_the_pile_mentions_a_blind_nil_exchange_only_where_the_rules_have_one() -> None:
    for preset, exchange in (("classic", False), ("five-hundred", True)):
        state = advance_to(dealt(RuleSet.preset(preset)), Phase.PLAY, 0, 4)
        assert state.rules.blind_nil is exchange
        model = model_at(state)
        run_app(model, "p")
        text = fragments_text(render_overlay(model))
        assert "seen in the draft" in text
        assert ("blind nil exchange" in text) is exchange


def exchange_model() -> ClientModel:
    for n in range(1, 100):
        state = dealt(RuleSet.preset("five-hundred"), n=n)
        rng = random.Random(n)
        while state.phase in (Phase.BLIND_NIL, Phase.DRAFT):
            seat = state.current_player
            assert seat is not None
            legal = state.legal_actions(seat)
            declare = [a for a in legal if getattr(a, "declare", None) is True]
            state.apply(seat, declare[0] if declare and seat == 0 else rng.choice(legal))
        if state.phase is Phase.EXCHANGE and state.current_player == 0:
            return model_at(state)
    raise AssertionError("no exchange for seat 0")


def test_a_fourth_exchange_pick_is_refused_with_a_message() -> None:
    model = exchange_model()
    assert model.turn is not None and model.turn.exchange_max == 3
    cards = model.hand_cards()
    run_app(model, *(str(card).lower() for card in cards[:4]))
    assert len(model.picks) == 3
    assert "At most 3 cards" in model.flash


def test_the_create_form_has_human_labels() -> None:
    model = ClientModel("alice")
    model.screen = model.screen.LOBBY
    model.press("c")
    text = fragments_text(render_overlay(model))
    assert "failed_nil_tricks_are_bags" not in text and "target_score" not in text
    assert "Failed nil: tricks count as bags" in text
    assert "Bids and leads first" in text and "the first drafter" in text


def test_a_spectator_cannot_ask_for_a_rematch() -> None:
    model = game_over_model(None)
    run_app(model, "r")
    assert not any(isinstance(s, m.Rematch) for s in model.sent)
    seated = game_over_model(0)
    run_app(seated, "r")
    assert any(isinstance(s, m.Rematch) for s in seated.sent)


def test_the_log_is_rebuilt_from_the_snapshot_on_a_resume() -> None:
    rng = random.Random(5)
    state = GameState(RuleSet.preset("classic"))
    while len(state.hand_results) < 1 or len(state.view_for(0).tricks) < 2:
        seat = state.current_player
        if seat is None:
            state.apply(None, Deal(seed_of(rng.randrange(10**6))))
            continue
        if state.phase is Phase.EXCHANGE:
            state.apply(seat, Exchange(()))
        else:
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    model = model_at(state)  # a fresh process: welcome, then the snapshot
    log = list(model.log)
    assert any(line.startswith("Hand 1: You ") for line in log)
    assert any("won trick 1." in line for line in log)
    assert any("won trick 2." in line for line in log)


def test_the_rules_screen_shows_the_tables_rules() -> None:
    rules = RuleSet.preset("five-hundred").replace(target_score=350, lose_score=-200)
    model = model_at(advance_to(dealt(rules), Phase.DRAFT, 0))
    run_app(model, "r")
    assert model.overlay is Overlay.RULES
    text = " ".join(fragments_text(render_overlay(model)).split())
    assert "first to 350 wins" in text and "at or below -200 loses" in text
    assert "Blind nil: declared before the draft" in text
    assert "the second drafter first" in text
    model.overlay = None
    run_app(model, "?", "r")
    assert model.overlay is Overlay.RULES
    classic = model_at(advance_to(dealt(), Phase.DRAFT, 0))
    run_app(classic, "r")
    text = " ".join(fragments_text(render_overlay(classic)).split())
    assert "Blind nil: off." in text and "first to 300 wins" in text


def test_a_committed_shuffle_waiting_for_entropy_says_shuffling() -> None:
    state = advance_to(dealt(), Phase.DRAFT, 0)
    model = model_at(state)
    started = m.HandStartedEvent(
        hand_number=2, first_drafter=1, first_bidder=1, commitment="cd" * 32
    )
    model.handle(m.Events(table=CODE, version=state.version + 1, events=(started,)))
    text = render_screen_text(model)
    assert "Hand 2: shuffling…" in text
    assert "Waiting for the next hand" not in text


def test_every_window_fits_80x24_with_the_longest_rules() -> None:
    from tests.client.test_layout import assert_nothing_cut

    rules = RuleSet.preset("five-hundred").replace(
        blind_nil_min_deficit=100, lose_score=-200, failed_nil_tricks_are_bags=True
    )
    model = model_at(advance_to(dealt(rules), Phase.DRAFT, 0))
    for overlay in Overlay:
        model.overlay = overlay
        assert_nothing_cut(model)


def test_the_bidding_hint_counts_in_words() -> None:
    # with these seeds the bidder holds 4 spades and 1 ace or king, then 2 and 2
    expected = {1: "(you hold 4 spades, 1 ace or king)", 2: "(you hold 2 spades, 2 aces or kings)"}
    for seed, words in expected.items():
        state = advance_to(dealt(n=seed), Phase.BIDDING, seed=seed)
        text = render_screen_text(model_at(state, seat=0))
        assert words in text
        assert "aces/kings" not in text
