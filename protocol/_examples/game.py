"""The game behind every example: hand 1 of a classic game between ``ada`` (seat 0)
and the bot, played by a fixed seed and a fixed random policy, and the constants (table
code, token, seeds) the examples share.

A part of :mod:`protocol.examples`, which is the one to import.
"""

from __future__ import annotations

import functools
import hashlib
import random
from dataclasses import dataclass
from typing import Final

from engine import (
    Commit,
    Exchange,
    GameState,
    Outcome,
    Phase,
    Play,
    PlayerView,
    RuleSet,
    Shuffle,
)
from protocol import messages as m
from protocol.convert import (
    action_message,
)

__all__ = [
    "EXAMPLE_ANALYSIS",
    "EXAMPLE_ENTROPY",
    "EXAMPLE_PLAYER_ID",
    "EXAMPLE_RECORD_ID",
    "EXAMPLE_SEED",
    "EXAMPLE_SERVER_TIME",
    "EXAMPLE_TABLE",
    "EXAMPLE_TOKEN",
    "ExampleGame",
    "example_entropy",
    "example_game",
    "example_seed",
]

EXAMPLE_TABLE: Final = "K7QF2MXA"
"""The table code every example uses."""
EXAMPLE_TOKEN: Final = "q2fXq9T0d3vJm1kLZr8bYwPc4sNe7uHa6GiVoRtKxEy"
EXAMPLE_PLAYER_ID: Final = "3f9a1c0be24d7a58"
EXAMPLE_RECORD_ID: Final = "Zk3v9QmR2xLbT0aW"
EXAMPLE_ENTROPY: Final = "5eed0fada0000000000000000000000000000000000000000000000000c0ffee"
EXAMPLE_SERVER_TIME: Final = 1_790_000_000.125
EXAMPLE_SEED: Final = b"spades2 protocol example, hand "
"""Hand ``n`` of the example game is dealt with ``example_seed(n)``."""


EXAMPLE_ANALYSIS = (
    '{"seat": 0, "level": "normal", "preset": "classic", "accuracy": 91.4, '
    '"verdicts": {"good": 87, "inaccuracy": 6, "mistake": 5, "blunder": 2, "forced": 8}, '
    '"costliest": [97, 85, 70], "hands": [...]}'
)
"""A shortened ``analysis_json`` for the examples (a real one lists every decision)."""


def example_seed(hand_number: int) -> bytes:
    """The 32-byte shuffle seed of hand ``hand_number`` in the example game."""
    return hashlib.sha256(EXAMPLE_SEED + str(hand_number).encode()).digest()


@dataclass(frozen=True)
class ExampleGame:
    """Moments of one classic game between ``ada`` (seat 0) and the bot (seat 1).

    ``mid_play`` is seat 0's view in the play phase of hand 1 with four tricks done and
    one card on the table, ``draft`` its view at one of its draft turns; ``trick_outcome``
    is the outcome of the play that finished a trick, ``last_outcome`` the one that ended
    hand 1, ``deal_outcome`` the commitment of hand 1 (the shuffle follows with ada's
    entropy, as a server deals). ``state`` is the game after hand 1.
    """

    rules: RuleSet
    draft: PlayerView
    draft_outcome: Outcome
    mid_play: PlayerView
    mid_play_state_legal: tuple[m.ActionMessage, ...]
    trick_outcome: Outcome
    play_outcome: Outcome
    deal_outcome: Outcome
    last_outcome: Outcome
    state: GameState


@functools.cache
def example_entropy(hand_number: int) -> bytes:
    """The example client's entropy for a hand (a real client uses ``secrets``)."""
    return hashlib.sha256(b"ada's own randomness, hand " + bytes([hand_number])).digest()


def example_game() -> ExampleGame:
    """Play hand 1 of the example game (deterministic, a few milliseconds)."""
    rules = RuleSet.preset("classic")
    rng = random.Random(20261130)
    state = GameState(rules)
    deal_outcome = state.apply(None, Commit(example_seed(1)))  # hand_started
    state.apply(None, Shuffle((example_entropy(1), b"")))  # ada's entropy; the bot sends none
    draft: PlayerView | None = None
    draft_outcome: Outcome | None = None
    mid_play: PlayerView | None = None
    legal: tuple[m.ActionMessage, ...] = ()
    trick_outcome: Outcome | None = None
    play_outcome: Outcome | None = None
    last = deal_outcome
    while state.phase is not Phase.HAND_OVER and not state.is_over:
        seat = state.current_player
        assert seat is not None
        if state.phase is Phase.DRAFT and seat == 0 and draft is None and state.version > 6:
            draft = state.view_for(0)
        actions = state.legal_actions(seat)
        if state.phase is Phase.BIDDING:
            action = actions[min(len(actions) - 1, 3 + rng.randrange(2))]
        elif state.phase is Phase.EXCHANGE:
            action = Exchange(())
        else:
            action = rng.choice(actions)
        view = state.view_for(0)
        if (
            mid_play is None
            and state.phase is Phase.PLAY
            and len(view.tricks) == 4
            and len(view.current_trick) == 1
            and seat == 0
        ):
            mid_play = view
            legal = tuple(action_message(a) for a in actions)
        last = state.apply(seat, action)
        if draft is not None and draft_outcome is None and seat == 0:
            draft_outcome = last
        if isinstance(action, Play):
            if mid_play is not None and trick_outcome is None:
                trick_outcome = last
            if play_outcome is None and len(state.view_for(0).current_trick) == 1:
                play_outcome = last
    assert draft and draft_outcome and mid_play and trick_outcome and play_outcome
    return ExampleGame(
        rules=rules,
        draft=draft,
        draft_outcome=draft_outcome,
        mid_play=mid_play,
        mid_play_state_legal=legal,
        trick_outcome=trick_outcome,
        play_outcome=play_outcome,
        deal_outcome=deal_outcome,
        last_outcome=last,
        state=state,
    )
