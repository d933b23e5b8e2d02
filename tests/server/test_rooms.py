"""A room stepped without sockets or an event loop: method calls in, a manual clock,
listeners that keep what they are sent, and a real (in-memory) store."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Coroutine
from dataclasses import replace
from typing import Any

import pytest
from pydantic import BaseModel

from engine import RuleSet
from protocol import convert
from protocol import messages as m
from protocol.codec import decode_server
from server.bots import BotRunner
from server.config import ServerConfig
from server.errors import RequestError
from server.rooms import requests
from server.rooms.frames import Frame
from server.rooms.room import Room
from server.rooms.table import Table
from server.store import Store

CONFIG = ServerConfig(port=0, db_path=":memory:", bot_workers=0, entropy_seconds=0)


class ManualClock:
    """The room's timers, fired by the test: ``advance(seconds)``."""

    def __init__(self) -> None:
        self.time = 100.0
        self.timers: dict[str, tuple[float, Callable[[], None]]] = {}
        self.tasks: dict[str, Coroutine[Any, Any, None]] = {}
        self.firing: str | None = None

    def now(self) -> float:
        return self.time

    def later(self, name: str, seconds: float, callback: Callable[[], None]) -> None:
        self.cancel(name)
        self.timers[name] = (self.time + seconds, callback)

    def task(self, name: str, work: Coroutine[Any, Any, None]) -> None:
        self.cancel(name)
        self.tasks[name] = work

    def cancel(self, name: str) -> None:
        self.timers.pop(name, None)
        work = self.tasks.pop(name, None)
        if work is not None:
            work.close()

    def running(self, name: str) -> bool:
        return name in self.timers or name in self.tasks

    def current(self, name: str) -> bool:
        return self.firing == name

    def dispose(self) -> None:
        for name in list(self.timers) + list(self.tasks):
            self.cancel(name)

    def advance(self, seconds: float) -> None:
        self.time += seconds
        for name, (when, callback) in sorted(self.timers.items(), key=lambda kv: kv[1][0]):
            if when <= self.time and self.timers.get(name, (None,))[0] == when:
                del self.timers[name]
                self.firing = name
                callback()
                self.firing = None


class Heard:
    """A listener that keeps every message it is sent (decoded)."""

    def __init__(self, minor: int = 1) -> None:
        self.minor = minor
        self.watching: set[str] = set()
        self.messages: list[BaseModel] = []
        self.credits = 0

    def send(self, message: BaseModel) -> None:
        self.messages.append(message)

    def send_frame(self, frame: Frame) -> None:
        self.messages.append(decode_server(frame.data))

    def credit(self, count: int, per_hand: bool = False) -> None:
        self.credits += count

    def of(self, kind: type[BaseModel]) -> list[Any]:
        return [message for message in self.messages if isinstance(message, kind)]


class Host:
    """The server around the room, as small as a room needs."""

    def __init__(self, config: ServerConfig = CONFIG) -> None:
        self.config = config
        self.store = Store(":memory:")
        self.bots = BotRunner(0)
        self.metrics = self
        self.online: dict[str, Heard] = {}
        self.touched_codes: set[str] = set()
        self.closed_codes: list[str] = []
        self.live: dict[str, object] = {}

    def action(self, actor: str, from_request: bool = False) -> None: ...

    def bot_decided(self, level: str, seconds: float) -> None: ...

    def listener_of(self, player_id: str) -> Heard | None:
        return self.online.get(player_id)

    def touched(self, code: str) -> None:
        self.touched_codes.add(code)

    def seated(self, player_id: str, code: str) -> None: ...

    def unseated(self, player_id: str, code: str) -> None: ...

    def closed(self, code: str) -> None:
        self.closed_codes.append(code)
        self.live.pop(code, None)

    def is_live(self, code: str, room: object) -> bool:
        return self.live.get(code) is room

    def bot_slot(self, address: str) -> asyncio.Semaphore:
        raise AssertionError("no bot thinks in these tests")


def a_room(host: Host, turn_seconds: int | None = None) -> tuple[Room, ManualClock]:
    table = Table(
        code="ROOM2345",
        private=False,
        preset="classic",
        rules=RuleSet.preset("classic"),
        on_hold_expiry="wait",
        hold_seconds=60,
        turn_seconds=turn_seconds,
    )
    clock = ManualClock()
    room = Room(table, host, clock)
    host.live[room.code] = room
    return room, clock


def seat_both(host: Host, room: Room) -> tuple[Heard, Heard]:
    alice, bob = Heard(), Heard()
    host.online.update(alice=alice, bob=bob)
    requests.join(room, alice, "alice", "alice", m.JoinTable(code=room.code, id=1))
    requests.join(room, bob, "bob", "bob", m.JoinTable(code=room.code, id=2))
    return alice, bob


def play(room: Room, listeners: dict[int, Heard], moves: int, seed: int = 7) -> None:
    """``moves`` random legal actions, each through the ``act`` request of its seat."""
    rng = random.Random(seed)
    players = {0: "alice", 1: "bob"}
    for _ in range(moves):
        seq = room.state.version + 1
        seat = room.state.current_player
        assert seat is not None
        action = rng.choice(room.state.legal_actions(seat))
        message = m.Act(
            code=room.code,
            seq=seq,
            version=room.state.version,
            action=convert.action_message(action),
        )
        requests.act(room, listeners[seat], players[seat], message)


def test_two_seats_start_a_game_and_every_move_is_stored_acked_and_told() -> None:
    host = Host()
    room, _ = a_room(host)
    alice, bob = seat_both(host, room)
    assert room.status == "playing" and room.state.version > 0  # dealt at once
    play(room, {0: alice, 1: bob}, moves=20)
    stored = host.store.load_actions(room.code, 1)
    assert len(stored) == room.state.version  # every action, dealer's too, in order
    acks = alice.of(m.Ack) + bob.of(m.Ack)
    assert len(acks) == 20 and len({ack.seq for ack in acks}) == 20
    assert all(ack.version == ack.seq for ack in acks)  # each move: one version
    assert alice.of(m.Events)[-1].version == bob.of(m.Events)[-1].version == room.state.version
    assert room.code in host.touched_codes


def test_no_card_of_the_other_hand_reaches_a_seat_or_a_spectator() -> None:
    """Hidden information: through the whole draft, not one card that ends in bob's hand
    is named in anything alice or a spectator was sent (and the other way round)."""
    host = Host()
    room, _ = a_room(host)
    alice, bob = seat_both(host, room)
    spectator = Heard()
    requests.watch(room, spectator, "carol", m.WatchTable(code=room.code))
    moves = 0
    while room.state.phase.value == "draft":
        play(room, {0: alice, 1: bob}, moves=1, seed=moves)
        moves += 1
    assert moves > 10
    hands = [convert.view_message(room.state.view_for(seat), room.code).hand for seat in (0, 1)]
    assert hands[0] and hands[1]
    heard = [" ".join(msg.model_dump_json() for msg in who.messages) for who in (alice, bob)]
    watched = " ".join(msg.model_dump_json() for msg in spectator.messages)
    for seat in (0, 1):
        for card in hands[1 - seat]:
            assert f'"{card}"' not in heard[seat]
            assert f'"{card}"' not in watched
    assert any(f'"{card}"' in heard[0] for card in hands[0])  # the check can see a card


def test_act_refuses_in_the_documented_order() -> None:
    host = Host()
    room, _ = a_room(host)
    alice, bob = seat_both(host, room)
    seat = room.state.current_player
    assert seat is not None
    waiting, mover = (bob, alice) if seat == 0 else (alice, bob)
    waiting_id = "bob" if seat == 0 else "alice"
    mover_id = "alice" if seat == 0 else "bob"
    action = convert.action_message(room.state.legal_actions(seat)[0])
    with pytest.raises(RequestError) as refused:
        requests.act(
            room, Heard(), "mallory", m.Act(code=room.code, seq=1, version=0, action=action)
        )
    assert refused.value.code == "not_seated"
    with pytest.raises(RequestError) as refused:
        message = m.Act(code=room.code, seq=1, version=room.state.version, action=action)
        requests.act(room, waiting, waiting_id, message)
    assert refused.value.code == "not_your_turn"
    with pytest.raises(RequestError) as refused:
        requests.act(room, mover, mover_id, m.Act(code=room.code, seq=1, version=0, action=action))
    assert refused.value.code == "stale_version"
    assert host.store.load_actions(room.code, 1)[-1].seq is None  # nothing of theirs stored


def test_the_turn_timer_lives_on_the_rooms_clock_and_dies_with_the_move() -> None:
    host = Host()
    room, clock = a_room(host, turn_seconds=30)
    alice, bob = seat_both(host, room)
    assert clock.running("turn")
    mover = alice if room.state.current_player == 0 else bob
    assert mover.of(m.YourTurn)[-1].seconds_left == 30.0
    play(room, {0: alice, 1: bob}, moves=1)
    assert clock.running("turn")  # the next seat's, started afresh
    clock.advance(31)  # nobody moved: the stand-in is asked to (a bot task)
    assert not clock.running("turn") and clock.running("bot")
    room.dispose()
    assert not clock.running("bot")


def test_disposing_a_room_ends_every_timer() -> None:
    host = Host()
    room, clock = a_room(host, turn_seconds=30)
    seat_both(host, room)
    del host.online["bob"]
    room.dropped(1)
    assert clock.running("turn") and clock.running("hold1")
    room.dispose()
    assert clock.timers == {} and clock.tasks == {}


def test_a_waiting_table_whose_last_human_stays_away_closes_itself() -> None:
    host = Host(replace(CONFIG, idle_table_hold_seconds=5))
    room, clock = a_room(host)
    alice = Heard()
    host.online["alice"] = alice
    requests.join(room, alice, "alice", "alice", m.JoinTable(code=room.code))
    spectator = Heard()
    requests.watch(room, spectator, "carol", m.WatchTable(code=room.code))
    assert spectator.watching == {room.code}
    del host.online["alice"]
    room.dropped(0)
    clock.advance(4)
    kinds = [room.seats[0].kind]  # still held:
    clock.advance(2)
    kinds.append(room.seats[0].kind)  # then freed
    assert kinds == ["human", "empty"] and room.status == "closed"
    assert host.closed_codes == [room.code]
    row = host.store.load_table(room.code)
    assert row is not None and row.status == "closed"


def test_spectators_are_kept_by_the_room_alone() -> None:
    host = Host()
    room, _ = a_room(host)
    alice = Heard()
    host.online["alice"] = alice
    requests.watch(room, alice, "alice", m.WatchTable(code=room.code))
    assert alice in room.spectators and alice.watching == {room.code}
    requests.join(room, alice, "alice", "alice", m.JoinTable(code=room.code))
    assert alice not in room.spectators and alice.watching == set()
    watcher = Heard()
    requests.watch(room, watcher, "carol", m.WatchTable(code=room.code))
    requests.leave(room, watcher, "carol", m.Leave(code=room.code, id=9))
    assert watcher.watching == set() and watcher.of(m.Left)[-1].id == 9


def test_the_entropy_step_waits_for_a_1_1_seat_then_shuffles_without_it() -> None:
    host = Host(replace(CONFIG, entropy_seconds=3))
    room, clock = a_room(host)
    alice, bob = seat_both(host, room)
    assert room.state.awaiting_shuffle and clock.running("entropy")
    assert alice.credits >= 1 and bob.credits >= 1  # what they are asked for is free
    hand = room.state.hand_number
    value = "ab" * 16
    requests.entropy(room, alice, "alice", m.Entropy(code=room.code, hand_number=hand, value=value))
    assert alice.of(m.EntropyAccepted) and room.state.awaiting_shuffle  # bob's is missing
    clock.advance(3)
    assert not room.state.awaiting_shuffle and not clock.running("entropy")
