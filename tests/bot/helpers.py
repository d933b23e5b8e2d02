"""Helpers for the bot tests: building views by hand, playing games between players."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence

from engine import (
    Action,
    Card,
    Deal,
    GameState,
    Phase,
    PlayerView,
    RuleSet,
    Trick,
    parse_cards,
    trick_winner,
)
from engine.bot import Bot

CLASSIC = RuleSet.preset("classic")
FIVE_HUNDRED = RuleSet.preset("five-hundred")


def seed_of(*parts: object) -> bytes:
    return hashlib.sha256("/".join(map(str, ("bot-test", *parts))).encode()).digest()


def cards(text: str) -> tuple[Card, ...]:
    return tuple(sorted(parse_cards(text)))


def play_view(
    hand: str,
    *,
    opp_size: int | None = None,
    seat: int = 0,
    bids: tuple[int | None, int | None] = (3, 3),
    blind: tuple[bool, bool] = (False, False),
    past: Sequence[tuple[int, str, str]] = (),
    current: str = "",
    leader: int | None = None,
    scores: tuple[int, int] = (0, 0),
    bags: tuple[int, int] = (0, 0),
    pile_seen: str = "",
    spades_broken: bool | None = None,
    rules: RuleSet = CLASSIC,
) -> PlayerView:
    """A play-phase view for ``seat``, built by hand.

    ``past`` lists finished tricks as ``(leader, first card, second card)``; ``current``
    is the card the opponent led to the current trick (then ``leader`` is the opponent).
    """
    held = cards(hand)
    tricks = []
    won = [0, 0]
    broken = False
    for lead, first, second in past:
        one, two = Card.parse(first), Card.parse(second)
        winner = trick_winner(lead, one, two)
        tricks.append(Trick(lead, (one, two), winner))
        won[winner] += 1
        broken = broken or one.suit == 3 or two.suit == 3
    trick = cards(current)
    if leader is None:
        leader = 1 - seat if trick else (tricks[-1].winner if tricks else seat)
    sizes = [0, 0]
    sizes[seat] = len(held)
    if opp_size is None:
        opp_size = len(held) - (1 if trick else 0)
    sizes[1 - seat] = opp_size
    return PlayerView(
        seat=seat,
        rules=rules,
        phase=Phase.PLAY,
        version=100,
        hand_number=1,
        scores=scores,
        bags=bags,
        first_drafter=seat,
        first_bidder=seat,
        current_player=seat,
        commitment="0" * 64,
        hand=held,
        draft_discarded=cards(pile_seen),
        hand_sizes=(sizes[0], sizes[1]),
        draft_turns=(13, 13),
        stock_left=0,
        pile_size=26,
        blind_nil=(blind[0], blind[1]),
        exchange_counts=(None, None),
        bids=bids,
        tricks=tuple(tricks),
        current_trick=trick,
        leader=leader,
        tricks_won=(won[0], won[1]),
        spades_broken=broken if spades_broken is None else spades_broken,
    )


def play_game(
    rules: RuleSet,
    players: Sequence[Bot | None],
    seed: int,
    max_hands: int = 40,
    check_legal: bool = True,
) -> GameState:
    """Play one game; ``None`` is a player of uniformly random legal actions."""
    rng = random.Random(seed)
    state = GameState(rules)
    hands = 0
    while not state.is_over:
        seat = state.current_player
        if seat is None:
            if hands >= max_hands:
                break
            state.apply(None, Deal(seed_of("game", seed, hands)))
            hands += 1
            continue
        view = state.view_for(seat)
        player = players[seat]
        legal = view.legal_actions()
        action: Action
        if player is None:
            action = rng.choice(legal)
        else:
            action = player.choose(view)
            if check_legal:
                assert action in legal, (view.phase, action)
        state.apply(seat, action)
    return state


def bid_view(
    hand: str,
    pile_seen: str,
    *,
    seat: int = 0,
    first_bidder: int = 0,
    opp_bid: int | None = None,
    scores: tuple[int, int] = (0, 0),
    bags: tuple[int, int] = (0, 0),
    rules: RuleSet = CLASSIC,
) -> PlayerView:
    """A bidding view for ``seat`` after a draft in which it kept ``hand`` and saw the
    ``pile_seen`` cards go to the pile (the opponent bid ``opp_bid`` first, if given)."""
    held = cards(hand)
    assert len(held) == 13
    bids: list[int | None] = [None, None]
    if opp_bid is not None:
        bids[1 - seat] = opp_bid
        first_bidder = 1 - seat
    return PlayerView(
        seat=seat,
        rules=rules,
        phase=Phase.BIDDING,
        version=60,
        hand_number=1,
        scores=scores,
        bags=bags,
        first_drafter=first_bidder,
        first_bidder=first_bidder,
        current_player=seat,
        commitment="0" * 64,
        hand=held,
        draft_kept=held,
        draft_discarded=cards(pile_seen),
        hand_sizes=(13, 13),
        draft_turns=(13, 13),
        stock_left=0,
        pile_size=26,
        blind_nil=(False, False),
        bids=(bids[0], bids[1]),
        leader=first_bidder,
    )
