"""Helpers for the client tests: engine games turned into the server's messages."""

from __future__ import annotations

import hashlib
import random

from client.model import ClientModel
from engine import Deal, Exchange, GameState, Phase, RuleSet
from protocol import messages as m
from protocol.convert import rules_message, view_message, your_turn_message

CODE = "T3ST"


def seed_of(n: int) -> bytes:
    return hashlib.sha256(b"client-test" + n.to_bytes(8, "big")).digest()


def table_info(
    rules: RuleSet,
    your_seat: int | None = 0,
    status: str = "playing",
    opponent: m.SeatInfo | None = None,
) -> m.TableInfo:
    me = m.SeatInfo(kind="human", name="alice", connected=True)
    other = opponent or m.SeatInfo(kind="bot", name="Bot", connected=True, bot_level="easy")
    return m.TableInfo(
        code=CODE,
        private=False,
        preset=rules.preset_name(),
        rules=rules_message(rules),
        seats=(me, other),
        status=status,  # type: ignore[arg-type]
        your_seat=your_seat,
        on_hold_expiry="bot",
        hold_seconds=60,
        turn_seconds=None,
        rematch=(False, False),
    )


def snapshot(state: GameState, seat: int | None = 0, **table: object) -> m.Snapshot:
    return m.Snapshot(
        table=table_info(state.rules, seat, **table),  # type: ignore[arg-type]
        view=view_message(state.view_for(seat), CODE),
    )


def your_turn(state: GameState, seat: int = 0, *, offered: bool = True) -> m.YourTurn:
    message = your_turn_message(state.view_for(seat), CODE)
    return message if offered else message.model_copy(update={"offered": None})


def dealt(rules: RuleSet | None = None, n: int = 1) -> GameState:
    state = GameState(rules or RuleSet.preset("classic"))
    state.apply(None, Deal(seed_of(n)))
    return state


def advance_to(state: GameState, phase: Phase, seat: int = 0, seed: int = 3) -> GameState:
    """Play random legal actions until it is ``seat``'s turn in ``phase``."""
    rng = random.Random(seed)
    for _ in range(2000):
        if state.phase is phase and state.current_player == seat:
            return state
        current = state.current_player
        if current is None:
            state.apply(None, Deal(seed_of(rng.randrange(10**6))))
            continue
        legal = state.legal_actions(current)
        if state.phase is Phase.EXCHANGE:
            state.apply(current, Exchange(()))
        else:
            state.apply(current, rng.choice(legal))
    raise AssertionError(f"never reached {phase} for seat {seat}")


def model_at(state: GameState, seat: int = 0, **kw: object) -> ClientModel:
    """A model that has seen the welcome and a snapshot (and your_turn if it is its turn)."""
    model = ClientModel("alice", **kw)  # type: ignore[arg-type]
    model.handle(
        m.Welcome(
            protocol_version=1,
            server_versions=(1,),
            player_id="p1",
            name="alice",
            token="tok",
            resumed=True,
            tables=(CODE,),
        )
    )
    model.handle(snapshot(state, seat))
    if state.current_player == seat and seat is not None:
        model.handle(your_turn(state, seat))
    return model


def lead_state_with_unbroken_spades(seed: int = 3) -> GameState:
    """Seat 0 to lead a trick, spades not broken, holding spades and other suits."""
    for attempt in range(300):
        state = advance_to(dealt(n=seed + attempt), Phase.PLAY, 0, seed + attempt)
        view = state.view_for(0)
        suits = {c.suit for c in view.hand}
        if not view.current_trick and not view.spades_broken and 3 in suits and len(suits) > 1:
            return state
    raise AssertionError("no such state")
