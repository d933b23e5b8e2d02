"""The player behind the example session: plays a classic game against the bot and
records what goes over the wire for the client at seat 0, the way the server sends it.

A part of :mod:`protocol.examples`; :mod:`protocol._examples.session` tells the story.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from engine import (
    Action,
    Bid,
    Commit,
    GameState,
    Phase,
    RuleSet,
    Shuffle,
)
from engine.game import HandScored
from protocol import messages as m
from protocol._examples.each_message import example_table_info
from protocol._examples.game import EXAMPLE_TABLE, example_entropy, example_seed
from protocol.convert import (
    action_message,
    event_messages,
    hand_result_message,
    your_turn_message,
)
from protocol.verify import seat_commitment

__all__ = [
    "SessionPlayer",
    "SessionStep",
    "action_kind",
    "count_messages",
    "table_info_at",
]


@dataclass(frozen=True)
class SessionStep:
    """One step of the example session: a note for people, and the message (if any) that
    went over the wire, from the client (``client``) or from the server."""

    note: str
    message: BaseModel | None = None
    client: bool = False


def table_info_at(
    status: str, rematch: tuple[bool, bool] = (False, True), **more: Any
) -> m.TableInfo:
    """The example table in ``status``, with ``more`` fields replaced (a finished table
    also says who asked for a rematch)."""
    info = example_table_info(status)
    if status == "finished":
        more.setdefault("rematch", rematch)
    return info.model_copy(update=more)


class SessionPlayer:
    """Plays the example session's game and records what the client at seat 0 receives,
    the way the server sends it (see docs/protocol.md)."""

    def __init__(self) -> None:
        self.state = GameState(RuleSet.preset("classic"))
        self.rng = random.Random(7)
        self.hand_seeds = 0
        self.seq = 0
        self.next_id = 10
        self.log: list[tuple[bool, BaseModel]] = []
        self.commitments: dict[int, tuple[str, ...]] = {}  # hand_result's, by hand

    def send(self, message: BaseModel) -> None:
        self.log.append((False, message))

    def receive(self, message: BaseModel) -> None:
        self.log.append((True, message))

    def apply(self, seat: int | None, action: Action) -> None:
        outcome = self.state.apply(seat, action)
        if seat == 0:
            self.send(
                m.Ack(table=EXAMPLE_TABLE, seq=self.seq, version=outcome.version, id=self.next_id)
            )
        events = event_messages(outcome.for_viewer(0))
        self.send(m.Events(table=EXAMPLE_TABLE, version=outcome.version, events=events))
        for event in outcome.for_viewer(None):
            if isinstance(event, HandScored):
                result = hand_result_message(event.result, EXAMPLE_TABLE)
                commitments = self.commitments.get(event.result.hand_number, ())
                self.send(result.model_copy(update={"entropy_commitments": commitments}))

    def deal(self) -> None:
        """Commit (hand_started); ada commits to her entropy (1.3), the commitments are
        relayed, she reveals it; then the shuffle (the bot sends no entropy)."""
        self.hand_seeds += 1
        self.apply(None, Commit(example_seed(self.hand_seeds)))
        number = self.state.hand_number
        value = example_entropy(number)
        mine = seat_commitment(self.state.commitment or "", 0, value)
        self.receive(
            m.EntropyCommit(code=EXAMPLE_TABLE, hand_number=number, commitment=mine, id=29)
        )
        self.send(m.EntropyAccepted(table=EXAMPLE_TABLE, hand_number=number, stage="commit", id=29))
        self.send(
            m.EntropyCommitments(
                table=EXAMPLE_TABLE,
                hand_number=number,
                commitments=(mine, None),
                reveal_seconds=2.0,
            )
        )
        self.commitments[number] = (mine, "")
        self.receive(m.Entropy(code=EXAMPLE_TABLE, hand_number=number, value=value.hex(), id=30))
        self.send(m.EntropyAccepted(table=EXAMPLE_TABLE, hand_number=number, id=30))
        self.apply(None, Shuffle((value, b"")))

    def choose(self, seat: int) -> Action:
        actions = self.state.legal_actions(seat)
        if self.state.phase is Phase.BIDDING:
            return Bid(3) if seat == 0 else Bid(4)
        return self.rng.choice(actions)

    def step(self) -> None:
        """One action: the dealer's, the bot's, or ada's (your_turn, action, ack, events)."""
        seat = self.state.current_player
        if seat is None:
            self.deal()
        elif seat == 1:
            self.apply(1, self.choose(1))
        else:
            self.prompt()
            self.act(self.choose(0))

    def prompt(self) -> None:
        self.send(your_turn_message(self.state.view_for(0), EXAMPLE_TABLE))

    def act(self, action: Action, version: int | None = None) -> None:
        self.seq += 1
        self.next_id += 1
        self.receive(
            m.Act(
                code=EXAMPLE_TABLE,
                action=action_message(action),
                version=self.state.version if version is None else version,
                seq=self.seq,
                id=self.next_id,
            )
        )
        self.apply(0, action)

    def run_until(self, done: Callable[[GameState], bool]) -> list[tuple[bool, BaseModel]]:
        start = len(self.log)
        while not done(self.state):
            self.step()
        return self.log[start:]


def count_messages(log: Sequence[tuple[bool, BaseModel]]) -> str:
    """``"N messages"``: how the transcript sums up the steps it leaves out."""
    return f"{len(log)} messages"


def action_kind(message: BaseModel) -> str:
    """The action kind of an ``action`` message (``keep``, ``bid``...)."""
    assert isinstance(message, m.Act)
    return message.action.kind
