"""The "with what you knew" judgement never uses a card the seat could not know.

Two games are played with the same actions; in the second, two cards the analysed seat
never saw (one the opponent drafted into its hand, one it sent to the pile) swap places
in the stock. Up to the moment the swapped card would be played, the seat's views are
identical, and so must be every "with what you knew" figure; the opponent's hand (and so
the hindsight) differs.
"""

from __future__ import annotations

from engine import CARDS, Deal, Discard, GameState, IllegalActionError, Keep, Play, PlayerView
from engine.analysis import ANALYSIS_LEVELS, analyze_record, judge_known, known_seed
from engine.cards import card_mask

from .helpers import CLASSIC, play, record_of


def _opponent_cards(state: GameState) -> tuple[list[int], list[int]]:
    """Seat 1's drafted cards in hand order of play, and the cards its turns sent to the pile."""
    stock = state.stocks[0]
    first = state.hand_results[0].first_drafter
    to_hand, to_pile = [], []
    turn = 0
    for seat, action in state.actions:
        if seat is None or turn >= 26:
            continue
        if not isinstance(action, Keep | Discard):
            continue
        drafter = first if turn % 2 == 0 else 1 - first
        top, following = stock[2 * turn], stock[2 * turn + 1]
        kept, passed = (top, following) if isinstance(action, Keep) else (following, top)
        if drafter == 1:
            to_hand.append(kept)
            to_pile.append(passed)
        turn += 1
    played = [int(a.card) for s, a in state.actions if s == 1 and isinstance(a, Play)]
    to_hand.sort(key=played.index)
    return to_hand, to_pile


def test_knew_judgement_is_the_same_for_games_differing_only_in_hidden_cards() -> None:
    game = play(CLASSIC, "hidden", stop=lambda s: bool(s.hand_results))
    to_hand, to_pile = _opponent_cards(game)
    late = to_hand[-1]  # the opponent's card that is played last
    swap = next(
        (c for c in to_pile if c // 13 == late // 13), next(c for c in to_pile if c // 13 != 3)
    )
    # the second game: the same seed, the two unseen cards swapped in the stock
    other = GameState(CLASSIC)
    seat_views: list[tuple[PlayerView, PlayerView]] = []
    replay_a = GameState(CLASSIC)
    revealed = False
    for seat, action in game.actions:
        if isinstance(action, Deal):
            other.apply(None, action)
            replay_a.apply(None, action)
            stock = other._hand.stock
            i, j = stock.index(late), stock.index(swap)
            stock[i], stock[j] = stock[j], stock[i]
            continue
        if seat == 1 and action == Play(CARDS[late]):
            revealed = True
        if seat == 0 and not revealed:
            seat_views.append((replay_a.view_for(0), other.view_for(0)))
        if revealed:
            break
        replay_a.apply(seat, action)
        try:
            other.apply(seat, action)
        except IllegalActionError:
            break
    assert card_mask(replay_a.hand_of(1)) != card_mask(other.hand_of(1))
    assert len(seat_views) >= 20  # the whole draft, the bid and a good part of the play

    analysis = analyze_record(record_of(game), 0, level="easy")
    level = ANALYSIS_LEVELS["easy"]
    for index, (view_a, view_b) in enumerate(seat_views):
        assert view_a == view_b
        decision = analysis.decisions[index]
        seed = known_seed("easy", view_b.hand_number, index)
        assert judge_known(view_b, decision.action, level, seed) == decision.knew
