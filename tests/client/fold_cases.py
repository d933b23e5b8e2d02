"""Recorded message streams for checking a fold against the engine (Python and JavaScript).

    for case in fold_cases(seed=7, preset="classic"):
        case.viewer        # 0, 1 or None (a spectator)
        case.snapshot      # the snapshot message (JSON object) the viewer starts from
        case.frames        # per action: the messages (JSON objects) the viewer gets, in order
        case.views         # per action: the View (JSON object) after that action's messages

A game of random legal actions is played through the engine, with the shuffle in two
steps as the server does it (``commit``, then ``shuffle`` with both seats' entropy).
After every action each viewer gets what :mod:`server.room` sends: its ``events`` frame
(``Outcome.for_viewer`` through ``protocol.convert.event_messages``), a ``hand_result``
when a hand was scored, and, for the seat to move, ``your_turn``. Every message is the
JSON transport's form (``protocol.codec.encode_json``), so a fold written in another
language reads exactly what the browser reads. ``views[i]`` is
``view_message(state.view_for(viewer))`` after action ``i``: a correct fold of
``snapshot`` then ``frames[0]``, ..., ``frames[i]`` equals it.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from engine import Action, Bid, Commit, Exchange, GameState, HandScored, Phase, RuleSet, Shuffle
from protocol import messages as m
from protocol.codec import encode_json
from protocol.convert import (
    event_messages,
    hand_result_message,
    rules_message,
    view_message,
    your_turn_message,
)

__all__ = ["CODE", "FoldCase", "fold_cases", "fold_cases_json", "random_action"]

CODE = "FOLD1"
VIEWERS: tuple[int | None, ...] = (0, 1, None)
MAX_ACTIONS = 6000  # a game that has not ended by then is cut off (none does in practice)

Json = dict[str, Any]


@dataclass
class FoldCase:
    """One viewer's stream of one game: where it starts, what it gets, what it must hold."""

    viewer: int | None
    snapshot: Json
    frames: list[list[Json]] = field(default_factory=list)
    views: list[Json] = field(default_factory=list)


def _json(message: m.ServerMessage) -> Json:
    data: Json = json.loads(encode_json(message))
    return data


def _table_info(rules: RuleSet, viewer: int | None) -> m.TableInfo:
    seat = m.SeatInfo(kind="human", name="player", connected=True)
    return m.TableInfo(
        code=CODE,
        private=False,
        preset=rules.preset_name(),
        rules=rules_message(rules),
        seats=(seat, seat),
        status="playing",
        your_seat=viewer,
        on_hold_expiry="bot",
        hold_seconds=60,
        turn_seconds=None,
        rematch=(False, False),
    )


def _seed(rng: random.Random) -> bytes:
    return hashlib.sha256(rng.randbytes(16)).digest()


def random_action(state: GameState, rng: random.Random) -> tuple[int | None, Action]:
    """A random legal move for whoever is to move (chance commits or shuffles): blind nil
    is declared half the time it may be, an exchange gives a random few cards."""
    seat = state.current_player
    if seat is None:
        if state.awaiting_shuffle:
            return None, Shuffle((rng.randbytes(32), rng.randbytes(32)))
        return None, Commit(_seed(rng))
    if state.phase is Phase.EXCHANGE:
        hand = state.hand_of(seat)
        most = min(state.rules.blind_nil_exchange, len(hand))
        return seat, Exchange(tuple(rng.sample(hand, rng.randint(0, most))))
    legal = state.legal_actions(seat)
    declare = [a for a in legal if getattr(a, "declare", False)]
    if declare and rng.random() < 0.15:
        return seat, declare[0]
    # random cards take about half the tricks: bids of 2 to 5 (and now and then nil)
    # let a seat score, so the game reaches its target
    modest = [a for a in legal if isinstance(a, Bid) and 2 <= a.tricks <= 5]
    if modest and rng.random() < 0.9:
        return seat, rng.choice(modest)
    return seat, rng.choice(legal)


def fold_cases(seed: int, preset: str = "classic", short: bool = True) -> Iterator[FoldCase]:
    """The three viewers' streams (seat 0, seat 1, spectator) of one random game under
    ``preset``, decided by ``seed``. ``short`` (the default) plays to 150 points with a
    loss at -300, so that random play ends in a few hands; ``short=False`` keeps the
    preset's scores (random play may then run to :data:`MAX_ACTIONS`). Raises
    ``KeyError`` for an unknown preset."""
    rules = RuleSet.preset(preset)
    if short:
        rules = rules.replace(target_score=150, lose_score=-300)
    rng = random.Random(seed)
    state = GameState(rules)
    cases = {
        viewer: FoldCase(
            viewer,
            _json(
                m.Snapshot(
                    table=_table_info(rules, viewer),
                    view=view_message(state.view_for(viewer), CODE),
                )
            ),
        )
        for viewer in VIEWERS
    }
    for _ in range(MAX_ACTIONS):
        if state.is_over:
            break
        seat, action = random_action(state, rng)
        outcome = state.apply(seat, action)
        results = [
            hand_result_message(event.result, CODE)
            for event in outcome.for_viewer(None)
            if isinstance(event, HandScored)
        ]
        to_move = state.current_player
        for viewer, case in cases.items():
            events = event_messages(outcome.for_viewer(viewer))
            frame: list[m.ServerMessage] = [
                m.Events(table=CODE, version=outcome.version, events=events),
                *results,
            ]
            if viewer is not None and to_move == viewer and not state.is_over:
                frame.append(your_turn_message(state.view_for(viewer), CODE))
            case.frames.append([_json(message) for message in frame])
            case.views.append(_json_view(state, viewer))
    yield from cases.values()


def _json_view(state: GameState, viewer: int | None) -> Json:
    data: Json = json.loads(view_message(state.view_for(viewer), CODE).model_dump_json())
    return data


def fold_cases_json(seed: int, preset: str = "classic", short: bool = True) -> str:
    """:func:`fold_cases` as one JSON document (a list of objects with the keys
    ``viewer``, ``snapshot``, ``frames`` and ``views``), for a fold in another language."""
    return json.dumps(
        [
            {"viewer": c.viewer, "snapshot": c.snapshot, "frames": c.frames, "views": c.views}
            for c in fold_cases(seed, preset, short)
        ]
    )


if __name__ == "__main__":  # python3 -m tests.client.fold_cases SEED [PRESET]
    import sys

    print(fold_cases_json(int(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else "classic"))
